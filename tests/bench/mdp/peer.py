#!/usr/bin/env python3
"""Peer of bench_mdp (numpy/scipy, single thread).

metric FILE SWEEPS: the Ferns metric d <- max_a |R_s - R_t| + gamma W1_d(P_s, P_t) from d = 0 for
SWEEPS sweeps, each W1 by scipy.optimize.linprog (HiGHS) on the supports; prints the time per sweep
and d after the sweeps.
chains FILE N REPS SEED: REPS chains of N transitions under the file's policy from the stationary
law, vectorised over repetitions (one numpy step for all chains), and the empirical risk of a fixed
per-transition loss table; prints the time and the mean empirical risk.
"""
import json
import sys
import time

import numpy as np
from scipy.optimize import linprog


def load(path):
    d = json.load(open(path))
    S, A = d["states"], d["actions"]
    P = np.zeros((A, S, S))
    R = np.zeros((S, A))
    for s, a, t, p in d["P"]:
        P[a, s, t] += p
    for s, a, r in d["R"]:
        R[s, a] = r
    pol = np.zeros((S, A))
    for s, a, p in d.get("policy", []):
        pol[s, a] += p
    return S, A, P, R, pol


def w1(p, q, D):
    i, j = np.nonzero(p)[0], np.nonzero(q)[0]
    if len(i) == 1 or len(j) == 1:
        return float(p[i] @ D[np.ix_(i, j)] @ q[j])
    n, m = len(i), len(j)
    A = np.vstack([np.kron(np.eye(n), np.ones(m)), np.kron(np.ones(n), np.eye(m))])
    r = linprog(D[np.ix_(i, j)].ravel(), A_eq=A[:-1], b_eq=np.concatenate([p[i], q[j]])[:-1],
                bounds=(0, None), method="highs")
    return r.fun


def metric(path, sweeps, gamma=0.9):
    S, A, P, R, _ = load(path)
    d = np.zeros((S, S))
    t0 = time.perf_counter()
    for _ in range(sweeps):
        nd = np.zeros((S, S))
        for s in range(S):
            for t in range(s + 1, S):
                nd[s, t] = nd[t, s] = max(abs(R[s, a] - R[t, a]) + gamma * w1(P[a, s], P[a, t], d) for a in range(A))
        d = nd
    ms = (time.perf_counter() - t0) * 1000 / sweeps
    print(json.dumps({"ms_per_sweep": ms, "d": d.tolist()}))


def chains(path, n, reps, seed, gamma=0.5):
    S, A, P, R, pol = load(path)
    rng = np.random.default_rng(seed)
    J = np.einsum("sa,ast->sat", pol, P).reshape(S, A * S)  # joint law of (a, s') per state
    cum = np.cumsum(J, axis=1)
    Pb = J.reshape(S, A, S).sum(1)
    w, v = np.linalg.eig(Pb.T)
    pi = np.real(v[:, np.argmin(abs(w - 1))])
    pi /= pi.sum()
    loss = np.repeat(np.minimum(1.0, R ** 2), S, axis=1)  # critic h = 0, sigma = 0: min(1, r^2)
    t0 = time.perf_counter()
    s = np.searchsorted(np.cumsum(pi), rng.random(reps), side="right").clip(0, S - 1)
    acc = np.zeros(reps)
    for _ in range(n):
        u = rng.random(reps) * cum[s, -1]
        k = (cum[s] <= u[:, None]).sum(1).clip(0, A * S - 1)
        acc += loss[s, k]
        s = k % S
    ms = (time.perf_counter() - t0) * 1000
    print(json.dumps({"ms": ms, "mean_empirical_risk": float(acc.mean() / n)}))


if __name__ == "__main__":
    if sys.argv[1] == "metric":
        metric(sys.argv[2], int(sys.argv[3]))
    else:
        chains(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]))
