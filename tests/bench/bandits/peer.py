#!/usr/bin/env python3
"""numpy peer of bench_bandits.

Usage: peer.py DIR T REPS
  1. LinUCB on DIR/arms.npy (K x d) with means DIR/mu.npy: per round theta = Vinv @ b, index
     X @ theta + sqrt(beta_t) * sqrt(norms), Bernoulli reward, Sherman-Morrison updates of Vinv and
     of every ||x||^2_{V^-1} (the same algorithm as ours), vectorised per round in a Python loop.
  2. Inference on DIR/bits.npy (N x B of 0/1) materialised as float32 features [1, bits]:
     X @ w (mean) and ((X @ S) * X).sum(1) (variance) with DIR/w.npy, DIR/cov.npy.
Prints JSON: best wall times in ms and the largest differences to ours (DIR/ours_*.npy)."""
import json
import math
import sys
import time

import numpy as np


def linucb(X, mu, T, rng):
    K, d = X.shape
    Vinv = np.eye(d)
    b = np.zeros(d)
    norms = (X * X).sum(1)
    L2 = norms.max()
    total = 0.0
    for t in range(1, T + 1):
        root_beta = 0.5 * math.sqrt(2 * math.log(1 / 0.05) + d * math.log(1 + t * L2 / d)) + 1.0
        theta = Vinv @ b
        a = int(np.argmax(X @ theta + root_beta * np.sqrt(np.maximum(norms, 0))))
        x = X[a]
        r = 1.0 if rng.random() < mu[a] else 0.0
        u = Vinv @ x
        den = 1.0 + x @ u
        Vinv -= np.outer(u, u) / den
        norms -= (X @ u) ** 2 / den
        b += r * x
        total += mu[a]
    return total / T


def main():
    d, T, reps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    X = np.load(d + "/arms.npy")
    mu = np.load(d + "/mu.npy")
    best_ucb, reward = 1e300, 0.0
    for r in range(reps):
        rng = np.random.default_rng(10 + r)
        t0 = time.perf_counter()
        reward = linucb(X, mu, T, rng)
        best_ucb = min(best_ucb, (time.perf_counter() - t0) * 1e3)
    bits = np.load(d + "/bits.npy")
    F = np.hstack([np.ones((bits.shape[0], 1)), bits]).astype(np.float32)
    w = np.load(d + "/w.npy").astype(np.float32)
    S = np.load(d + "/cov.npy").astype(np.float32)
    best_mean = best_var = 1e300
    for _ in range(reps):
        t0 = time.perf_counter()
        m = F @ w
        best_mean = min(best_mean, (time.perf_counter() - t0) * 1e3)
        t0 = time.perf_counter()
        m = F @ w
        v = ((F @ S) * F).sum(1)
        best_var = min(best_var, (time.perf_counter() - t0) * 1e3)
    om, ov = np.load(d + "/ours_mean.npy"), np.load(d + "/ours_var.npy")
    print(json.dumps({"linucb_ms": best_ucb, "linucb_mean_reward": reward, "mean_ms": best_mean,
                      "meanvar_ms": best_var, "max_mean_diff": float(np.abs(m - om).max()),
                      "max_var_diff": float(np.abs(v - ov).max()), "feature_mb": F.nbytes / 2 ** 20}))


if __name__ == "__main__":
    main()
