#!/usr/bin/env python3
"""numpy / scipy peer of bench_convimg.
  peer.py conv DIR REPS B H W -> JSON {ms, sy, sdx, sdw, numpy}: REPS steps of a 3x3 convolution
    by numpy im2col (x: C x B*H*W, w: Cout x C*9), forward y = w @ cols, backward dw = g @ cols.T,
    dx = col2im(w.T @ g).
  peer.py darcy DIR S G -> JSON {ms, p, scipy}: S conditional Darcy solves (harmonic faces, p = G
    left, 0 right) assembled with numpy into CSR and solved by scipy.sparse.linalg.cg with a Jacobi
    preconditioner to rtol 1e-10."""
import json
import sys
import time

import numpy as np


def conv(d, reps, B, H, W):
    x, w, g = np.load(f"{d}/x.npy"), np.load(f"{d}/w.npy"), np.load(f"{d}/g.npy")
    C = x.shape[0]
    t0 = time.perf_counter()
    for _ in range(reps):
        xi = x.reshape(C, B, H, W)
        xp = np.pad(xi, ((0, 0), (0, 0), (1, 1), (1, 1)))
        cols = np.empty((C, 9, B, H, W))
        for dy in range(3):
            for dx in range(3):
                cols[:, dy * 3 + dx] = xp[:, :, dy:dy + H, dx:dx + W]
        cols = cols.reshape(C * 9, B * H * W)
        y = w @ cols
        dw = g @ cols.T
        gc = (w.T @ g).reshape(C, 9, B, H, W)
        gxp = np.zeros_like(xp)
        for dy in range(3):
            for dx in range(3):
                gxp[:, :, dy:dy + H, dx:dx + W] += gc[:, dy * 3 + dx]
        dxv = gxp[:, :, 1:H + 1, 1:W + 1]
    ms = 1000 * (time.perf_counter() - t0)
    return {"ms": ms, "sy": float(y.sum()), "sdx": float(dxv.sum()), "sdw": float(dw.sum()), "numpy": np.__version__}


def darcy(d, S, gval):
    import scipy
    import scipy.sparse as sp
    from scipy.sparse.linalg import LinearOperator, cg
    Ks = [np.load(f"{d}/K{i}.npy") for i in range(S)]
    f = np.load(f"{d}/f.npy")
    t0 = time.perf_counter()
    out = []
    for K in Ks:
        n = K.shape[0]
        N = n * n
        h2 = 1.0 / (n * n)
        idx = np.arange(N).reshape(n, n)
        Tx = 2 * K[:, :-1] * K[:, 1:] / (K[:, :-1] + K[:, 1:])
        Ty = 2 * K[:-1, :] * K[1:, :] / (K[:-1, :] + K[1:, :])
        rows = np.concatenate([idx[:, :-1].ravel(), idx[:-1, :].ravel()])
        cols = np.concatenate([idx[:, 1:].ravel(), idx[1:, :].ravel()])
        T = np.concatenate([Tx.ravel(), Ty.ravel()])
        diag = np.zeros(N)
        np.add.at(diag, rows, T)
        np.add.at(diag, cols, T)
        b = f.ravel() * h2
        diag[idx[:, 0]] += 2 * K[:, 0]
        b[idx[:, 0]] += 2 * K[:, 0] * gval
        diag[idx[:, -1]] += 2 * K[:, -1]
        A = sp.coo_matrix((np.concatenate([-T, -T, diag]), (np.concatenate([rows, cols, np.arange(N)]),
                                                            np.concatenate([cols, rows, np.arange(N)]))), shape=(N, N)).tocsr()
        inv = 1.0 / diag
        M = LinearOperator((N, N), matvec=lambda v: inv * v)
        try:
            p, info = cg(A, b, rtol=1e-10, M=M, maxiter=20 * N)
        except TypeError:
            p, info = cg(A, b, tol=1e-10, M=M, maxiter=20 * N)
        out.append(p.tolist())
    ms = 1000 * (time.perf_counter() - t0)
    return {"ms": ms, "p": out, "scipy": scipy.__version__}


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "conv":
        print(json.dumps(conv(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]))))
    else:
        print(json.dumps(darcy(sys.argv[2], int(sys.argv[3]), float(sys.argv[4]))))
