"""Peer of bench_equicov: Sigma = exp(S) and exp(-S) by numpy's batched eigh, q = r^T exp(-S) r and
the mean Laplace (LE-ESO) loss tr S / 2 + log(q / 2) - log K_2(sqrt(2q)) with scipy.special.kve;
also scipy.linalg.expm matrix by matrix. argv: s.npy r.npy repeats. Prints JSON."""
import json
import sys
import time

import numpy as np
from scipy.linalg import expm
from scipy.special import kve

s = np.load(sys.argv[1]).reshape(-1, 6, 6)
r = np.load(sys.argv[2])
reps = int(sys.argv[3])


def forward():
    w, u = np.linalg.eigh(s)
    sigma = (u * np.exp(w)[:, None, :]) @ np.transpose(u, (0, 2, 1))
    inv = (u * np.exp(-w)[:, None, :]) @ np.transpose(u, (0, 2, 1))
    q = np.einsum("ni,nij,nj->n", r, inv, r) + 1e-9
    z = np.sqrt(2 * q)
    loss = np.mean(0.5 * np.trace(s, axis1=1, axis2=2) + np.log(q / 2) - (np.log(kve(2, z)) - z))
    return sigma, loss


best = float("inf")
for _ in range(reps):
    t0 = time.perf_counter()
    sigma, loss = forward()
    best = min(best, time.perf_counter() - t0)
t0 = time.perf_counter()
ref = np.array([expm(x) for x in s])
expm_ms = (time.perf_counter() - t0) * 1e3
print(json.dumps({"eigh_ms": best * 1e3, "expm_loop_ms": expm_ms, "loss": float(loss),
                  "max_sigma_diff_vs_expm": float(np.abs(sigma - ref).max()), "numpy": np.__version__}))
