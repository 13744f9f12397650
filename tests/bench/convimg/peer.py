#!/usr/bin/env python3
"""numpy / scipy peer of bench_convimg.
  peer.py conv DIR REPS B H W -> JSON {ms, sy, sdx, sdw, numpy}: REPS steps of a 3x3 convolution
    by numpy im2col (x: C x B*H*W, w: Cout x C*9), forward y = w @ cols, backward dw = g @ cols.T,
    dx = col2im(w.T @ g).
  peer.py darcy DIR S G -> JSON {ms, p, scipy}: S conditional Darcy solves (harmonic faces, p = G
    left, 0 right) assembled with numpy into CSR and solved by scipy.sparse.linalg.cg with a Jacobi
    preconditioner to rtol 1e-10.
  peer.py agent DIR N S -> JSON {ms, u, scipy}: the visual-persuasion agent's utility of N
    RGB images (imgs.npy 3N x S*S) with scipy.ndimage.convolve (32 filters 5 x 5 per channel, zero
    padding), ReLU, 3 x 3 region mean pooling and the readout (readout.npy: bias + offset, mu, sd, v)."""
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


def agent(d, n, S):
    import scipy
    from scipy import ndimage
    imgs, filt, rest = np.load(f"{d}/imgs.npy"), np.load(f"{d}/filters.npy"), np.load(f"{d}/readout.npy")
    filt = filt.reshape(32, 3, 5, 5)[:, :, ::-1, ::-1]  # convolve flips: flip back to correlate
    bias, offset, mu, sd, v = rest[0, :32], rest[0, 287], rest[1], rest[2], rest[3]
    region = (3 * np.arange(S) // S)[:, None] * 3 + (3 * np.arange(S) // S)[None, :]
    masks = [region == r for r in range(9)]
    t0 = time.perf_counter()
    out = []
    for i in range(n):
        img = imgs[3 * i:3 * i + 3].reshape(3, S, S) - 0.5
        feats = np.empty(288)
        for f in range(32):
            acc = sum(ndimage.convolve(img[c], filt[f, c], mode="constant", cval=0.0) for c in range(3))
            acc = np.maximum(acc + bias[f], 0)
            for r in range(9):
                feats[r * 32 + f] = acc[masks[r]].mean()
        out.append(float(offset + v @ ((feats - mu) / sd)))
    ms = 1000 * (time.perf_counter() - t0)
    return {"ms": ms, "u": out, "scipy": scipy.__version__}


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "agent":
        print(json.dumps(agent(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))))
    elif mode == "conv":
        print(json.dumps(conv(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]))))
    else:
        print(json.dumps(darcy(sys.argv[2], int(sys.argv[3]), float(sys.argv[4]))))
