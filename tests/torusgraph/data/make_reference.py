#!/usr/bin/env python3
"""Writes the stored reference data of tst_torusgraph (closedFormMatchesNumpyReference).

phases_d4.npy: 300 x 4 phases (radians) with planted coupling (x2 follows x1, x4 follows -x3);
eta_numpy_d4.npy / eta_numpy_d4_lambda0.1.npy: closed-form score matching eta = (Gamma + lambda I)^-1 H
computed here by a straightforward numpy port of the torus-graph statistics (Klein et al.,
dx_suf_stat2.m): D(x) = dS/dx dense per sample, Gamma = mean D D^T, H = mean of -sum_j d^2 S/dx_j^2.
Parameter layout: [cos x_j, sin x_j]_j, then per pair j<k (row-major):
cos(xj-xk), sin(xj-xk), cos(xj+xk), sin(xj+xk).
Run with /usr/bin/python3 (numpy); deterministic (seeded)."""
import os
import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(20261130)
n, d = 300, 4
x = np.empty((n, d))
x[:, 0] = rng.vonmises(0.5, 0.3, n)
x[:, 1] = x[:, 0] + rng.vonmises(0.8, 1.5, n)
x[:, 2] = rng.vonmises(-1.0, 0.2, n)
x[:, 3] = -x[:, 2] + rng.vonmises(0.0, 1.0, n)
x = np.mod(x, 2 * np.pi)

pairs = [(j, k) for j in range(d) for k in range(j + 1, d)]
P = 2 * d + 4 * len(pairs)


def jacobian_and_h(xi):
    D = np.zeros((P, d))
    H = np.zeros(P)
    for j in range(d):
        D[2 * j, j] = -np.sin(xi[j])
        D[2 * j + 1, j] = np.cos(xi[j])
        H[2 * j] = np.cos(xi[j])
        H[2 * j + 1] = np.sin(xi[j])
    for p, (j, k) in enumerate(pairs):
        o = 2 * d + 4 * p
        dm, sm = xi[j] - xi[k], xi[j] + xi[k]
        D[o, j], D[o, k] = -np.sin(dm), np.sin(dm)
        D[o + 1, j], D[o + 1, k] = np.cos(dm), -np.cos(dm)
        D[o + 2, j], D[o + 2, k] = -np.sin(sm), -np.sin(sm)
        D[o + 3, j], D[o + 3, k] = np.cos(sm), np.cos(sm)
        H[o:o + 4] = 2 * np.array([np.cos(dm), np.sin(dm), np.cos(sm), np.sin(sm)])
    return D, H


G = np.zeros((P, P))
Hm = np.zeros(P)
for i in range(n):
    D, H = jacobian_and_h(x[i])
    G += D @ D.T
    Hm += H
G /= n
Hm /= n
eta = np.linalg.solve(G, Hm)
eta_r = np.linalg.solve(G + 0.1 * np.eye(P), Hm)
np.save(os.path.join(here, "phases_d4.npy"), x)
np.save(os.path.join(here, "eta_numpy_d4.npy"), eta)
np.save(os.path.join(here, "eta_numpy_d4_lambda0.1.npy"), eta_r)
print("wrote", P, "parameters; |eta| =", np.linalg.norm(eta))
