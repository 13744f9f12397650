#!/usr/bin/python3
"""Peer for bench_ssn_nash: what a user would otherwise run on the same game (.npy, the row
player's payoffs, row player maximises x^T A y), timed in-process, printed as one JSON object.

  peer.py GAME.npy TARGET CAP REPS

* PRM+ in numpy, the same algorithm as engines/games/PrmPlus.cpp: alternating updates (the
  column player first evaluates its current strategy against the new x), predictions = last
  instantaneous regrets, linear averaging, the averaged strategies' gap tracked from running
  averages of A y_t and A^T x_t and confirmed with two exact products; stops at gap <= TARGET
  or after CAP iterations.
* scipy.optimize.linprog(method='highs') on the row player's LP (max v s.t. A^T x >= v 1).
"""
import json
import os
import sys
import time

import numpy as np
from scipy.optimize import linprog


def blas_library():
    try:
        from threadpoolctl import threadpool_info
        info = threadpool_info()
        if info:
            return "%s %s (%s)" % (info[0].get("internal_api"), info[0].get("version"), info[0].get("architecture"))
    except Exception:
        pass
    cand = "/etc/alternatives/libblas.so.3-x86_64-linux-gnu"
    return os.path.realpath(cand) if os.path.exists(cand) else "unknown"


def prm_plus(A, target, cap):
    n, m = A.shape
    At = np.ascontiguousarray(A.T)
    Rx, mx = np.zeros(n), np.zeros(n)
    Ry, my = np.zeros(m), np.zeros(m)
    y = np.full(m, 1.0 / m)
    avg_x, avg_y = np.full(n, 1.0 / n), np.full(m, 1.0 / m)
    avg_Ay, avg_Atx = np.zeros(n), np.zeros(m)
    W = 0.0
    gap = float("inf")
    for t in range(1, cap + 1):
        s = np.maximum(Rx + mx, 0.0)
        tot = s.sum()
        x = s / tot if tot > 0 else np.full(n, 1.0 / n)
        gx = At @ x
        ry = -gx + gx.dot(y)
        my = ry
        Ry = np.maximum(Ry + ry, 0.0)
        s = np.maximum(Ry + my, 0.0)
        tot = s.sum()
        y = s / tot if tot > 0 else np.full(m, 1.0 / m)
        gy = A @ y
        rx = gy - gy.dot(x)
        mx = rx
        Rx = np.maximum(Rx + rx, 0.0)
        W += t
        a = t / W
        avg_x += a * (x - avg_x)
        avg_y += a * (y - avg_y)
        avg_Ay += a * (gy - avg_Ay)
        avg_Atx += a * (gx - avg_Atx)
        if avg_Ay.max() - avg_Atx.min() <= target:
            avg_Ay = A @ avg_y
            avg_Atx = At @ avg_x
            gap = avg_Ay.max() - avg_Atx.min()
            if gap <= target:
                return t, gap
    gap = (A @ avg_y).max() - (At @ avg_x).min()
    return cap, gap


def lp_value(A):
    n, m = A.shape
    c = np.zeros(n + 1)
    c[-1] = -1.0
    r = linprog(c, A_ub=np.hstack([-A.T, np.ones((m, 1))]), b_ub=np.zeros(m),
                A_eq=np.hstack([np.ones((1, n)), np.zeros((1, 1))]), b_eq=[1.0],
                bounds=[(0, None)] * n + [(None, None)], method="highs")
    return -r.fun


def best_of(reps, fn):
    best, out = float("inf"), None
    for _ in range(reps):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best * 1e3, out


def main():
    path, target, cap, reps = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    A = np.load(path).astype(np.float64)
    prm_ms, (iters, gap) = best_of(max(1, reps // 2), lambda: prm_plus(A, target, cap))
    lp_ms, value = best_of(reps, lambda: lp_value(A))
    print(json.dumps({
        "numpy": np.__version__,
        "blas": blas_library(),
        "prm_plus_ms": prm_ms,
        "prm_plus_iterations": iters,
        "prm_plus_gap": gap,
        "lp_ms": lp_ms,
        "lp_value": value,
    }))


if __name__ == "__main__":
    main()
