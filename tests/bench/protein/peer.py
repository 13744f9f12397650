#!/usr/bin/env python3
"""numpy peer of bench_protein: all-vs-all C-alpha RMSD after optimal superposition.

Usage: peer.py X.npy D.npy
  X.npy: (N, L, 3) float64 coordinates; D.npy: the C++ engine's N x N matrix (for the check).
Prints JSON {"ms": best wall time, "max_abs_diff": vs D}.
The way a numpy user writes it: centre, then per row i the cross-covariances with every model by
einsum, a batched SVD of the (N, 3, 3) stack, the determinant sign fix, and the RMSD formula."""
import json
import sys
import time

import numpy as np


def all_vs_all(X):
    X = X - X.mean(axis=1, keepdims=True)
    n, L, _ = X.shape
    G = (X ** 2).sum(axis=(1, 2))
    D = np.zeros((n, n))
    for i in range(n):
        H = np.einsum('ki,nkj->nij', X[i], X[i:])
        U, S, Vt = np.linalg.svd(H)
        d = np.sign(np.linalg.det(U @ Vt))
        S[:, 2] *= d
        r = np.sqrt(np.maximum(0.0, (G[i] + G[i:] - 2 * S.sum(axis=1)) / L))
        D[i, i:] = r
        D[i:, i] = r
    np.fill_diagonal(D, 0.0)
    return D


def main():
    X = np.load(sys.argv[1])
    ref = np.load(sys.argv[2])
    t0 = time.perf_counter()
    D = all_vs_all(X)
    ms = (time.perf_counter() - t0) * 1e3
    print(json.dumps({"ms": ms, "max_abs_diff": float(np.abs(D - ref).max())}))


if __name__ == "__main__":
    main()
