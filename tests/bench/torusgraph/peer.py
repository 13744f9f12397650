#!/usr/bin/env python3
"""numpy peer of bench_torusgraph: the same torus-graph score-matching estimators on the same phases.

Usage: peer.py DIR D SSM_ITERS DENSE_MAX_D
Reads DIR/x.npy (n x d phases), DIR/eta_cf.npy and DIR/grad.npy (written by the C++ side: the
closed-form estimate and one SSM minibatch gradient at eta_cf for the rows in DIR/rows.npy) and
prints JSON with wall times (ms) and the max abs differences of the results:

- build_dense_ms: straightforward port of dx_suf_stat2.m vectorised over samples: dense D(x) for a
  chunk of samples (chunk x P x d), Gamma += D D^T (only when d <= DENSE_MAX_D; O(n P^2 d));
- build_blocked_ms: the node-blocked build (the rows of D touching node c, one GEMM per node), i.e.
  the C++ algorithm written in numpy;
- solve_ms: np.linalg.cholesky + two triangular solves (scipy.linalg.cho_solve);
- ssm_iter_ms: one SSM step (gradient of the minibatch loss with b = 64 + an Adam update) written the
  natural numpy way with pairwise difference/sum tables (b x d x d).
Single BLAS thread (the caller sets OPENBLAS_NUM_THREADS=1)."""
import json
import sys
import time

import numpy as np
import scipy.linalg


def pairs_of(d):
    j, k = np.triu_indices(d, 1)
    return j, k


def build_dense(x, chunk=64):
    n, d = x.shape
    j, k = pairs_of(d)
    npair = j.size
    P = 2 * d + 4 * npair
    G = np.zeros((P, P))
    H = np.zeros(P)
    for s in range(0, n, chunk):
        xb = x[s:s + chunk]
        m = xb.shape[0]
        D = np.zeros((m, P, d))
        c, si = np.cos(xb), np.sin(xb)
        ar = np.arange(d)
        D[:, 2 * ar, ar] = -si
        D[:, 2 * ar + 1, ar] = c
        dm = xb[:, j] - xb[:, k]
        sm = xb[:, j] + xb[:, k]
        o = 2 * d + 4 * np.arange(npair)
        D[:, o, j] = -np.sin(dm)
        D[:, o, k] = np.sin(dm)
        D[:, o + 1, j] = np.cos(dm)
        D[:, o + 1, k] = -np.cos(dm)
        D[:, o + 2, j] = -np.sin(sm)
        D[:, o + 2, k] = -np.sin(sm)
        D[:, o + 3, j] = np.cos(sm)
        D[:, o + 3, k] = np.cos(sm)
        Dr = D.transpose(1, 0, 2).reshape(P, m * d)
        G += Dr @ Dr.T
        h = np.empty((m, P))
        h[:, 0:2 * d:2] = c
        h[:, 1:2 * d:2] = si
        h[:, o] = 2 * np.cos(dm)
        h[:, o + 1] = 2 * np.sin(dm)
        h[:, o + 2] = 2 * np.cos(sm)
        h[:, o + 3] = 2 * np.sin(sm)
        H += h.sum(axis=0)
    return G, H


def pair_offset(d, a, b):
    return 2 * d + 4 * (a * d - a * (a + 1) // 2 + (b - a - 1))


def build_blocked(x, chunk=4096):
    n, d = x.shape
    P = 2 * d * d
    G = np.zeros((P, P))
    c, s = np.cos(x), np.sin(x)
    for node in range(d):
        others = [o for o in range(d) if o != node]
        idx = [2 * node, 2 * node + 1]
        for o in others:
            base = pair_offset(d, min(node, o), max(node, o))
            idx += [base, base + 1, base + 2, base + 3]
        idx = np.array(idx)
        m = idx.size
        Gl = np.zeros((m, m))
        oth = np.array(others)
        sign = np.where(oth > node, 1.0, -1.0)
        for st in range(0, n, chunk):
            cc, sc = c[st:st + chunk, node:node + 1], s[st:st + chunk, node:node + 1]
            co, so = c[st:st + chunk, oth], s[st:st + chunk, oth]
            V = np.empty((cc.shape[0], m))
            V[:, 0] = -sc[:, 0]
            V[:, 1] = cc[:, 0]
            V[:, 2::4] = -(sc * co - cc * so)
            V[:, 3::4] = sign * (cc * co + sc * so)
            V[:, 4::4] = -(sc * co + cc * so)
            V[:, 5::4] = cc * co - sc * so
            Gl += V.T @ V
        G[np.ix_(idx, idx)] += Gl
    # H from Z^T Z
    Z = np.hstack([c, s])
    M = Z.T @ Z
    H = np.empty(P)
    H[0:2 * d:2] = c.sum(axis=0)
    H[1:2 * d:2] = s.sum(axis=0)
    j, k = pairs_of(d)
    o = 2 * d + 4 * np.arange(j.size)
    cc, ss, sc, cs = M[j, k], M[d + j, d + k], M[d + j, k], M[j, d + k]
    H[o] = 2 * (cc + ss)
    H[o + 1] = 2 * (sc - cs)
    H[o + 2] = 2 * (cc - ss)
    H[o + 3] = 2 * (sc + cs)
    return G, H


def ssm_grad(xb, eta, d):
    """Minibatch gradient of -eta^T H(x) + 1/2 |D(x)^T eta|^2 with pairwise tables."""
    j, k = pairs_of(d)
    o = 2 * d + 4 * np.arange(j.size)
    b = xb.shape[0]
    c, s = np.cos(xb), np.sin(xb)
    dm = xb[:, j] - xb[:, k]
    sm = xb[:, j] + xb[:, k]
    sd, cd, ssum, csum = np.sin(dm), np.cos(dm), np.sin(sm), np.cos(sm)
    A, B, C, E = eta[o], eta[o + 1], eta[o + 2], eta[o + 3]
    # g = D^T eta (b x d)
    g = -s * eta[0:2 * d:2] + c * eta[1:2 * d:2]
    tj = -A * sd + B * cd - C * ssum + E * csum   # d/dx_j of the pair energy
    tk = A * sd - B * cd - C * ssum + E * csum    # d/dx_k
    np.add.at(g.T, j, tj.T)
    np.add.at(g.T, k, tk.T)
    gj, gk = g[:, j], g[:, k]
    grad = np.empty_like(eta)
    grad[0:2 * d:2] = (-s * g - c).mean(axis=0)
    grad[1:2 * d:2] = (c * g - s).mean(axis=0)
    grad[o] = (-sd * (gj - gk) - 2 * cd).mean(axis=0)
    grad[o + 1] = (cd * (gj - gk) - 2 * sd).mean(axis=0)
    grad[o + 2] = (-ssum * (gj + gk) - 2 * csum).mean(axis=0)
    grad[o + 3] = (csum * (gj + gk) - 2 * ssum).mean(axis=0)
    return grad


def best(fn, reps):
    t, out = 1e300, None
    for _ in range(reps):
        t0 = time.perf_counter()
        out = fn()
        t = min(t, (time.perf_counter() - t0) * 1e3)
    return t, out


def main():
    dr, d, iters, dense_max = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    x = np.load(f"{dr}/x.npy")
    eta_ref = np.load(f"{dr}/eta_cf.npy")
    grad_ref = np.load(f"{dr}/grad.npy")
    rows = np.load(f"{dr}/rows.npy").astype(np.int64)
    n = x.shape[0]
    out = {"n": n, "d": d}
    if d <= dense_max:
        tdense, (Gd, Hd) = best(lambda: build_dense(x), 1)
        out["build_dense_ms"] = tdense
    tb, (G, H) = best(lambda: build_blocked(x), 1)
    out["build_blocked_ms"] = tb
    if d <= dense_max:
        out["dense_vs_blocked_maxdiff"] = float(np.abs(Gd - G).max())

    def solve():
        cf = scipy.linalg.cho_factor(G / n, lower=True, check_finite=False)
        return scipy.linalg.cho_solve(cf, H / n, check_finite=False)

    ts, eta = best(solve, 1)
    out["solve_ms"] = ts
    out["eta_maxdiff"] = float(np.abs(eta - eta_ref).max() / max(1e-300, np.abs(eta_ref).max()))
    g = ssm_grad(x[rows], eta_ref, d)
    out["grad_maxdiff"] = float(np.abs(g - grad_ref).max() / max(1e-300, np.abs(grad_ref).max()))
    # SSM: iterations of minibatch gradient + Adam, timed per iteration.
    rng = np.random.default_rng(1)
    P = eta_ref.size
    e, m1, m2 = np.zeros(P), np.zeros(P), np.zeros(P)
    t0 = time.perf_counter()
    for it in range(iters):
        idx = rng.integers(0, n, 64)
        gr = ssm_grad(x[idx], e, d)
        m1 = 0.9 * m1 + 0.1 * gr
        m2 = 0.999 * m2 + 0.001 * gr * gr
        e -= 0.03 * (m1 / (1 - 0.9 ** (it + 1))) / (np.sqrt(m2 / (1 - 0.999 ** (it + 1))) + 1e-8)
    out["ssm_iter_ms"] = (time.perf_counter() - t0) * 1e3 / iters
    out["numpy"] = np.__version__
    print(json.dumps(out))


if __name__ == "__main__":
    main()
