#!/usr/bin/env python3
"""scipy/sklearn peer of bench_embedgeo.

Usage: peer.py DIR REPS
  1. DRO step on DIR/sim.npy (N x M cosines): per image, the KL dual
     min_t e^t rho + e^t log mean exp(s / e^t) over t = log lambda and the Renyi dual (alpha = 2)
     min_eta e^{rho/2} sqrt(mean (s - eta)_+^2) + eta, each by scipy.optimize.minimize_scalar
     (method='bounded'), rho = 1, in a Python loop over the images.
  2. sklearn LabelSpreading(kernel='knn', n_neighbors=10, alpha=0.2, max_iter=1000) on DIR/z.npy with
     the seeds of DIR/labels.npy (column 0, -1 = unlabelled).
Prints JSON: best wall times in ms, the largest differences to ours, label agreement and F1."""
import json
import sys
import time

import numpy as np
from scipy.optimize import minimize_scalar
from sklearn.semi_supervised import LabelSpreading
from threadpoolctl import threadpool_info


def dro(S, rho=1.0):
    kl, re = np.empty(len(S)), np.empty(len(S))
    c = np.exp(rho / 2)
    for i, s in enumerate(S):
        m, rng = s.max(), s.max() - s.min()
        f = lambda t: np.exp(t) * rho + m + np.exp(t) * np.log(np.mean(np.exp((s - m) / np.exp(t))))
        kl[i] = minimize_scalar(f, bounds=(np.log(rng * 1e-7), np.log(rng * 1e5)), method='bounded',
                                options={'xatol': 1e-10}).fun
        h = lambda e: c * np.sqrt(np.mean(np.maximum(s - e, 0) ** 2)) + e
        re[i] = minimize_scalar(h, bounds=(s.min() - 20 * rng, m), method='bounded', options={'xatol': 1e-12}).fun
    return kl, re


def f1(pred, truth, mask):
    tp = np.sum((pred == 1) & (truth == 1) & mask)
    fp = np.sum((pred == 1) & (truth == 0) & mask)
    fn = np.sum((pred == 0) & (truth == 1) & mask)
    return 2 * tp / (2 * tp + fp + fn) if tp > 0 else 0.0


def main():
    d, reps = sys.argv[1], int(sys.argv[2])
    S = np.load(d + "/sim.npy")
    ours = np.load(d + "/ours_dro.npy")
    best_dro = 1e300
    for _ in range(reps):
        t0 = time.perf_counter()
        kl, re = dro(S)
        best_dro = min(best_dro, (time.perf_counter() - t0) * 1e3)
    Z = np.load(d + "/z.npy")
    lab = np.load(d + "/labels.npy")
    y = lab[:, 0].astype(int)
    best_lp = 1e300
    for _ in range(reps):
        t0 = time.perf_counter()
        model = LabelSpreading(kernel='knn', n_neighbors=10, alpha=0.2, max_iter=1000).fit(Z, y)
        pred = model.transduction_
        best_lp = min(best_lp, (time.perf_counter() - t0) * 1e3)
    truth = lab[:, 2].astype(int)
    mask = y < 0
    print(json.dumps({
        "dro_ms": best_dro, "lp_ms": best_lp,
        "max_kl_diff": float(np.max(np.abs(kl - ours[:, 0]))),
        "max_renyi_diff": float(np.max(np.abs(re - ours[:, 1]))),
        "agreement": float(np.mean(pred == lab[:, 1].astype(int))),
        "f1_ours": float(f1(lab[:, 1].astype(int), truth, mask)), "f1_peer": float(f1(pred, truth, mask)),
        "blas": [i.get("internal_api") for i in threadpool_info()]}))


if __name__ == "__main__":
    main()
