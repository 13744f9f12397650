#!/usr/bin/env python3
"""numpy peer of bench_tilesparse: dense and tile-sparse decode attention on the same inputs.

Usage: peer.py DIR GROUP_ROWS BLOCK_KEYS DV REPS
         Reads DIR/q.npy, k.npy (float32) and mask.npy (groups x blocks, 1 = computed); V is the
         MLA latent's first DV columns of K (a view, as the C++ kernel reads it). Prints JSON with
         the best CPU (and wall) times in ms and the outputs' max abs difference to DIR/o_dense.npy /
         o_sparse.npy (written by the C++ side).
       peer.py --gemm N
         float32 N x N x N matmul (the machine's GEMM peak through numpy's BLAS); prints JSON.
The way a numpy user would write it: matmul, in-place softmax, matmul; fancy-indexed gather of
each group's selected blocks for the sparse case."""
import json
import sys
import time

import numpy as np


def dense(Q, K, V):
    S = Q @ K.T
    S *= np.float32(1.0 / np.sqrt(Q.shape[1]))
    S -= S.max(axis=1, keepdims=True)
    np.exp(S, out=S)
    S /= S.sum(axis=1, keepdims=True)
    return S @ V


def sparse(Q, K, dv, mask, gh, bk):
    N = K.shape[0]
    O = np.zeros((Q.shape[0], dv), dtype=np.float32)
    for g in range(mask.shape[0]):
        blocks = np.nonzero(mask[g])[0]
        if blocks.size == 0:
            continue
        idx = (blocks[:, None] * bk + np.arange(bk)[None, :]).ravel()
        idx = idx[idx < N]
        Kg = K[idx]
        O[g * gh:(g + 1) * gh] = dense(Q[g * gh:(g + 1) * gh], Kg, Kg[:, :dv])
    return O


def best(fn, reps):
    """Best process CPU time and best wall time in ms (one BLAS thread: CPU time = this thread's)."""
    t = w = 1e300
    out = None
    for _ in range(reps):
        w0, t0 = time.perf_counter(), time.process_time()
        out = fn()
        t = min(t, (time.process_time() - t0) * 1e3)
        w = min(w, (time.perf_counter() - w0) * 1e3)
    return t, w, out


def blas_name():
    try:
        cfg = np.show_config(mode="dicts")
        return cfg["Build Dependencies"]["blas"]["name"]
    except Exception:
        pass
    try:
        import threadpoolctl
        info = threadpoolctl.threadpool_info()
        return ";".join(f"{i.get('internal_api')}:{i.get('architecture')}" for i in info)
    except Exception:
        return "unknown"


def main():
    if sys.argv[1] == "--gemm":
        n = int(sys.argv[2])
        rng = np.random.default_rng(1)
        A = rng.standard_normal((n, n), dtype=np.float32)
        B = rng.standard_normal((n, n), dtype=np.float32)
        t, w, _ = best(lambda: A @ B, 5)
        print(json.dumps({"gemm_n": n, "gemm_ms": t, "gemm_wall_ms": w, "gemm_gflops": 2.0 * n ** 3 / (t * 1e6),
                          "numpy": np.__version__, "blas": blas_name()}))
        return
    d, gh, bk, dv, reps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
    Q = np.load(f"{d}/q.npy")
    K = np.load(f"{d}/k.npy")
    mask = np.load(f"{d}/mask.npy")
    V = K[:, :dv]
    td, tdw, od = best(lambda: dense(Q, K, V), reps)
    ts, tsw, os_ = best(lambda: sparse(Q, K, dv, mask, gh, bk), reps)
    ref_d, ref_s = np.load(f"{d}/o_dense.npy"), np.load(f"{d}/o_sparse.npy")
    print(json.dumps({"dense_ms": td, "sparse_ms": ts, "dense_wall_ms": tdw, "sparse_wall_ms": tsw, "dense_maxdiff": float(np.abs(od - ref_d).max()),
                      "sparse_maxdiff": float(np.abs(os_ - ref_s).max()), "numpy": np.__version__,
                      "blas": blas_name(), "dtype": str(Q.dtype)}))


if __name__ == "__main__":
    main()
