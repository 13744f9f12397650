#!/usr/bin/env python3
"""Peer of bench_olaf (one thread): the olaf-world latent action model step in numpy with
hand-written backprop and Adam (ReLU encoder on [o_t, o_t+1 - o_t], multiplicative tanh decoder,
beta-KL, SeqDelta-REPA projector and cosine), the same sizes as the engine; and sklearn PCA of a
frame matrix. Prints one JSON object."""
import json
import sys
import time


def lam(iters, pixels, hidden, dz, phi_dim, windows, k):
    import numpy as np
    rng = np.random.default_rng(3)
    n = windows * k
    frames = rng.random((4096, pixels))

    def glorot(a, b):
        s = np.sqrt(6.0 / (a + b))
        return rng.uniform(-s, s, (a, b))

    P = [glorot(2 * pixels, hidden), np.zeros(hidden), glorot(hidden, 2 * dz), np.zeros(2 * dz),
         glorot(pixels, hidden), np.zeros(hidden), glorot(hidden * (dz + 1), pixels), np.zeros(pixels),
         glorot(dz, hidden), np.zeros(hidden), glorot(hidden, phi_dim), np.zeros(phi_dim)]
    M = [np.zeros_like(p) for p in P]
    V = [np.zeros_like(p) for p in P]
    beta, lam_, lr = 0.01, 1.0, 2e-3
    group = np.repeat(np.arange(windows), k)
    t0 = time.perf_counter()
    for it in range(1, iters + 1):
        idx = rng.integers(0, 4095, n)
        o, o1 = frames[idx], frames[idx + 1]
        target = rng.standard_normal((windows, phi_dim))
        target /= np.linalg.norm(target, axis=1, keepdims=True)
        w = np.ones(windows)
        eps = rng.standard_normal((n, dz))
        W1, b1, W2, b2, D1, c1, D2, c2, H1, e1, H2, e2 = P
        x = np.hstack([o, o1 - o])
        a1 = x @ W1 + b1
        h1 = np.maximum(a1, 0)
        e = h1 @ W2 + b2
        mu, lv = e[:, :dz], e[:, dz:]
        sd = np.exp(0.5 * lv)
        z = mu + sd * eps
        hd = np.tanh(o @ D1 + c1)
        X = np.hstack([hd] + [hd * z[:, j:j + 1] for j in range(dz)])
        err = o + X @ D2 + c2 - o1
        zs = np.zeros((windows, dz))
        np.add.at(zs, group, z)
        g1 = np.maximum(zs @ H1 + e1, 0)
        g = g1 @ H2 + e2
        gn = np.sqrt((g * g).sum(1) + 1e-8)
        gt = (g * target).sum(1)
        # backward
        dout = 2 * err / n
        G = [None] * 12
        G[6] = X.T @ dout
        G[7] = dout.sum(0)
        dX = dout @ D2.T
        dhd = dX[:, :hidden].copy()
        dz_ = np.zeros((n, dz))
        for j in range(dz):
            part = dX[:, (j + 1) * hidden:(j + 2) * hidden]
            dhd += part * z[:, j:j + 1]
            dz_[:, j] = (part * hd).sum(1)
        dad = dhd * (1 - hd * hd)
        G[4] = o.T @ dad
        G[5] = dad.sum(0)
        dcos = -lam_ * w / max(1.0, w.sum())
        dg = dcos[:, None] * (target / gn[:, None] - gt[:, None] * g / gn[:, None] ** 3)
        G[10] = g1.T @ dg
        G[11] = dg.sum(0)
        dg1 = (dg @ H2.T) * (g1 > 0)
        G[8] = zs.T @ dg1
        G[9] = dg1.sum(0)
        dz_ += (dg1 @ H1.T)[group]
        dmu = dz_ + beta * mu / n
        dlv = dz_ * 0.5 * sd * eps + beta * 0.5 * (np.exp(lv) - 1) / n
        de = np.hstack([dmu, dlv])
        G[2] = h1.T @ de
        G[3] = de.sum(0)
        dh1 = (de @ W2.T) * (a1 > 0)
        G[0] = x.T @ dh1
        G[1] = dh1.sum(0)
        norm = np.sqrt(sum((gg * gg).sum() for gg in G))
        s = min(1.0, 10.0 / (norm + 1e-12))
        for i in range(12):
            gg = G[i] * s
            M[i] = 0.9 * M[i] + 0.1 * gg
            V[i] = 0.999 * V[i] + 0.001 * gg * gg
            P[i] -= lr * (M[i] / (1 - 0.9 ** it)) / (np.sqrt(V[i] / (1 - 0.999 ** it)) + 1e-8)
    sec = time.perf_counter() - t0
    return {"ms_per_step": 1000 * sec / iters}


def pca(path, k, reps):
    import numpy as np
    from sklearn.decomposition import PCA
    x = np.load(path)
    t0 = time.perf_counter()
    for _ in range(reps):
        p = PCA(n_components=k, svd_solver="full").fit(x)
    sec = time.perf_counter() - t0
    return {"ms": 1000 * sec / reps, "explained": float(p.explained_variance_ratio_.sum())}


if __name__ == "__main__":
    if sys.argv[1] == "lam":
        print(json.dumps(lam(*[int(a) for a in sys.argv[2:9]])))
    else:
        print(json.dumps(pca(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))))
