#!/usr/bin/python3
"""Peer implementations for bench_ftrl: the same algorithms as the C++ engine, written the way a
user would in numpy / plain Python. Each command reads the game from CSV files written by
bench_ftrl, times only the loop, and prints one JSON object.

  peer.py ftrl A.csv B.csv STEPS ETA       entropic FTRL, simultaneous, constant eta, first play (1,1),
                                           with the per-step Nash gap and running averages the engine keeps
  peer.py fp A.csv B.csv MAXSTEPS TR TC    exact step-by-step fictitious play (int64), lowest-index ties,
                                           first play (1,1); stops at the first play of (TR, TC)
  peer.py fp_events A.csv B.csv TR TC REPS event-driven exact fictitious play (Python integers)
"""
import json
import os
import sys
import time

import numpy as np


def blas_library():
    for cand in ("/etc/alternatives/libblas.so.3-x86_64-linux-gnu",):
        if os.path.exists(cand):
            return os.path.realpath(cand)
    return "unknown"


def ftrl(A, B, steps, eta):
    n, m = A.shape
    Bt = np.ascontiguousarray(B.T)
    x = np.zeros(n); x[0] = 1.0
    y = np.zeros(m); y[0] = 1.0
    Ux = np.zeros(n); Uy = np.zeros(m)
    xa = np.zeros(n); ya = np.zeros(m)
    gap = 0.0
    t0 = time.perf_counter()
    for t in range(steps):
        Ay = A @ y
        Btx = Bt @ x
        gap = max(Ay.max() - x @ Ay, Btx.max() - y @ Btx)
        xa += (x - xa) / (t + 1)
        ya += (y - ya) / (t + 1)
        Ux += Ay
        Uy += Btx
        ex = np.exp(eta * (Ux - Ux.max()))
        x = ex / ex.sum()
        ey = np.exp(eta * (Uy - Uy.max()))
        y = ey / ey.sum()
    secs = time.perf_counter() - t0
    return {"steps": steps, "seconds": secs, "x": x.tolist(), "y": y.tolist(), "gap": float(gap)}


def fp(A, B, max_steps, tr, tc):
    A = A.astype(np.int64); B = B.astype(np.int64)
    At = np.ascontiguousarray(A.T)
    Ux = np.zeros(A.shape[0], dtype=np.int64); Uy = np.zeros(A.shape[1], dtype=np.int64)
    i = j = 0
    reached = -1
    s = 0
    t0 = time.perf_counter()
    while s < max_steps:
        Ux += At[j]
        Uy += B[i]
        s += 1
        i = int(Ux.argmax())  # first maximiser = lowest index
        j = int(Uy.argmax())
        if i == tr and j == tc:
            reached = s
            break
    secs = time.perf_counter() - t0
    return {"steps": s, "seconds": secs, "reached": reached}


def fp_events_once(a, b, tr, tc):
    n, m = len(a), len(a[0])
    ux = [0] * n; uy = [0] * m
    i = j = 0
    s = 0
    while True:
        if i == tr and j == tc:
            return s
        if s == 0:
            k = 1
        else:
            k = None
            for r in range(n):  # row rivals: r < i wins ties (lowest index)
                if r == i:
                    continue
                d = ux[i] - ux[r]; rate = a[r][j] - a[i][j]
                if rate > 0:
                    c = -(-d // rate) if r < i else d // rate + 1
                    c = max(c, 1)
                    k = c if k is None else min(k, c)
            for c_ in range(m):
                if c_ == j:
                    continue
                d = uy[j] - uy[c_]; rate = b[i][c_] - b[i][j]
                if rate > 0:
                    c = -(-d // rate) if c_ < j else d // rate + 1
                    c = max(c, 1)
                    k = c if k is None else min(k, c)
            if k is None:
                return -1
        for r in range(n):
            ux[r] += k * a[r][j]
        for c_ in range(m):
            uy[c_] += k * b[i][c_]
        s += k
        i = max(range(n), key=lambda r: (ux[r], -r))
        j = max(range(m), key=lambda c_: (uy[c_], -c_))


def fp_events(A, B, tr, tc, reps):
    a = [[int(v) for v in row] for row in A]
    b = [[int(v) for v in row] for row in B]
    t0 = time.perf_counter()
    for _ in range(reps):
        steps = fp_events_once(a, b, tr, tc)
    secs = time.perf_counter() - t0
    return {"reps": reps, "seconds": secs, "steps": str(steps)}


def main():
    cmd = sys.argv[1]
    A = np.loadtxt(sys.argv[2], delimiter=",", ndmin=2)
    B = np.loadtxt(sys.argv[3], delimiter=",", ndmin=2)
    if cmd == "ftrl":
        out = ftrl(A, B, int(sys.argv[4]), float(sys.argv[5]))
    elif cmd == "fp":
        out = fp(A, B, int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]))
    elif cmd == "fp_events":
        out = fp_events(A, B, int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]))
    else:
        raise SystemExit("unknown command " + cmd)
    out["numpy"] = np.__version__
    out["blas"] = blas_library()
    print(json.dumps(out))


if __name__ == "__main__":
    main()
