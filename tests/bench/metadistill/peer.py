#!/usr/bin/env python3
"""Peer of bench_metadistill: G generations of CMA-ES (Hansen's tutorial, positive weights, CSA,
rank-one and rank-mu, lazy eigendecomposition) on the sphere with x_opt, in numpy. Prints JSON with
the time per generation and the final f."""
import json, sys, time
import numpy as np

d, lam, G = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
rng = np.random.default_rng(1)
xo = rng.uniform(-4, 4, d)
mu = lam // 2
w = np.log((lam + 1) / 2) - np.log(np.arange(1, mu + 1)); w /= w.sum(); mueff = 1 / np.sum(w ** 2)
cs = (mueff + 2) / (d + mueff + 5); ds = 1 + 2 * max(0, np.sqrt((mueff - 1) / (d + 1)) - 1) + cs
cc = (4 + mueff / d) / (d + 4 + 2 * mueff / d); c1 = 2 / ((d + 1.3) ** 2 + mueff)
cmu = min(1 - c1, 2 * (mueff - 2 + 1 / mueff) / ((d + 2) ** 2 + mueff))
chi = np.sqrt(d) * (1 - 1 / (4 * d) + 1 / (21 * d * d))
t0 = time.perf_counter()
m = rng.uniform(-4, 4, d); sigma = 2.0; C = np.eye(d); ps = np.zeros(d); pc = np.zeros(d)
ev, B = np.linalg.eigh(C); Csq = B @ np.diag(np.sqrt(ev)) @ B.T; Cisq = B @ np.diag(1 / np.sqrt(ev)) @ B.T
eig_gen = 0
best = np.inf
for g in range(G):
    Z = rng.standard_normal((lam, d))
    X = m + sigma * (Z @ Csq)
    f = np.sum((X - xo) ** 2, axis=1)
    best = min(best, f.min())
    idx = np.argsort(f, kind='stable'); Y = (X[idx[:mu]] - m) / sigma; yw = w @ Y
    m = m + sigma * yw
    ps = (1 - cs) * ps + np.sqrt(cs * (2 - cs) * mueff) * (Cisq @ yw)
    hs = np.linalg.norm(ps) / np.sqrt(1 - (1 - cs) ** (2 * (g + 1))) < (1.4 + 2 / (d + 1)) * chi
    pc = (1 - cc) * pc + hs * np.sqrt(cc * (2 - cc) * mueff) * yw
    C = (1 + c1 * (0 if hs else cc * (2 - cc)) - c1 - cmu) * C + c1 * np.outer(pc, pc) + cmu * (Y.T * w) @ Y
    sigma *= np.exp(cs / ds * (np.linalg.norm(ps) / chi - 1))
    if g + 1 - eig_gen > lam / (c1 + cmu) / d / 10:
        C = np.triu(C) + np.triu(C, 1).T
        ev, B = np.linalg.eigh(C); ev = np.maximum(ev, 1e-300)
        Csq = B @ np.diag(np.sqrt(ev)) @ B.T; Cisq = B @ np.diag(1 / np.sqrt(ev)) @ B.T
        eig_gen = g + 1
    if sigma < 1e-12:  # restart the distribution: keep the generation cost steady
        m = rng.uniform(-4, 4, d); sigma = 2.0; C = np.eye(d); ps[:] = 0; pc[:] = 0
ms = (time.perf_counter() - t0) * 1000
print(json.dumps({"ms": ms, "per_generation_us": ms * 1000 / G, "best": float(best)}))
