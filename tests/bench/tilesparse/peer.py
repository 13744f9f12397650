#!/usr/bin/env python3
"""numpy peer of bench_tilesparse: dense and tile-sparse decode attention on the same inputs.

Usage: peer.py DIR GROUP_ROWS BLOCK_KEYS REPS
Reads DIR/q.npy, k.npy, v.npy and mask.npy (groups x blocks, 1 = computed); prints JSON with the
best wall times in ms and the outputs' max abs difference to DIR/o_dense.npy / o_sparse.npy
(written by the C++ side)."""
import json
import sys
import time

import numpy as np


def dense(Q, K, V):
    S = Q @ K.T / np.sqrt(Q.shape[1])
    S -= S.max(axis=1, keepdims=True)
    P = np.exp(S)
    P /= P.sum(axis=1, keepdims=True)
    return P @ V


def sparse(Q, K, V, mask, gh, bk):
    N = K.shape[0]
    O = np.zeros((Q.shape[0], V.shape[1]))
    for g in range(mask.shape[0]):
        blocks = np.nonzero(mask[g])[0]
        if blocks.size == 0:
            continue
        idx = (blocks[:, None] * bk + np.arange(bk)[None, :]).ravel()
        idx = idx[idx < N]
        O[g * gh:(g + 1) * gh] = dense(Q[g * gh:(g + 1) * gh], K[idx], V[idx])
    return O


def best(fn, reps):
    t = 1e300
    out = None
    for _ in range(reps):
        t0 = time.perf_counter()
        out = fn()
        t = min(t, (time.perf_counter() - t0) * 1e3)
    return t, out


def main():
    d, gh, bk, reps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    Q, K, V = (np.load(f"{d}/{n}.npy") for n in ("q", "k", "v"))
    mask = np.load(f"{d}/mask.npy")
    td, od = best(lambda: dense(Q, K, V), reps)
    ts, os_ = best(lambda: sparse(Q, K, V, mask, gh, bk), reps)
    ref_d, ref_s = np.load(f"{d}/o_dense.npy"), np.load(f"{d}/o_sparse.npy")
    blas = "unknown"
    try:
        cfg = np.show_config(mode="dicts")
        blas = cfg["Build Dependencies"]["blas"]["name"]
    except Exception:
        pass
    print(json.dumps({"dense_ms": td, "sparse_ms": ts, "dense_maxdiff": float(np.abs(od - ref_d).max()),
                      "sparse_maxdiff": float(np.abs(os_ - ref_s).max()), "numpy": np.__version__, "blas": blas}))


if __name__ == "__main__":
    main()
