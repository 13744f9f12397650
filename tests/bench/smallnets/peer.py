#!/usr/bin/env python3
"""numpy / scikit-learn / scipy peer of bench_smallnets.
  peer.py forgetting DIR RUNS N ITERS ETA -> JSON {ms, losses, numpy}: sequential full-batch GD of
    the quadratic network on X<r>.npy, y<r>.npy (3 tasks of N rows) from W<r>.npy, vectorised.
  peer.py eefp DIR THRESHOLDS CALIB BINS BUDGET -> JSON {ms, acc_at_budget}: the same analysis as
    pl::smallnets::analyseExits without the perturbation study, in numpy/sklearn/scipy."""
import json
import sys
import time

import numpy as np


def forgetting(d, runs, n, iters, eta):
    data = [(np.load(f"{d}/X{r}.npy"), np.load(f"{d}/y{r}.npy"), np.load(f"{d}/W{r}.npy")) for r in range(runs)]
    t0 = time.perf_counter()
    out = []
    for X, y, W in data:
        m = W.shape[0]
        a = np.where(np.arange(m) % 2 == 0, 1.0, -1.0) / m
        tasks = [(X[k * n:(k + 1) * n], y[k * n:(k + 1) * n]) for k in range(3)]
        L = np.zeros((3, 3))
        for k, (Xk, yk) in enumerate(tasks):
            for _ in range(iters):
                Z = Xk @ W.T
                z = yk * ((Z * Z) @ a)
                r = -yk / (1.0 + np.exp(z))
                W = W - eta * (2.0 / n) * (a[:, None] * ((Z * r[:, None]).T @ Xk))
            for i, (Xi, yi) in enumerate(tasks):
                L[k, i] = np.mean(np.logaddexp(0.0, -yi * (((Xi @ W.T) ** 2) @ a)))
        out.append(L.tolist())
    return {"ms": 1000 * (time.perf_counter() - t0), "losses": out, "numpy": np.__version__}


def eefp(d, T, calib, bins, budget):
    from scipy.optimize import minimize_scalar
    from scipy.special import logsumexp, softmax
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import roc_auc_score
    L = np.load(f"{d}/logits.npy")
    y = np.load(f"{d}/labels.npy").astype(int)
    t0 = time.perf_counter()
    N, K, C = L.shape
    flops = np.arange(1, K + 1, dtype=float)
    ncal = int(np.ceil(calib * N))
    cal, ev = np.arange(N) < ncal, np.arange(N) >= ncal
    ye, yc = y[ev], y[cal]

    def feats(P, k):
        p = P[k]
        s = np.sort(p, axis=1)
        ent = 1 + np.sum(p * np.log(np.where(p > 0, p, 1)), axis=1) / np.log(C)
        if k == 0:
            agree, prev = np.ones(len(p)), np.zeros(len(p))
        else:
            agree = (p.argmax(1) == P[k - 1].argmax(1)).astype(float)
            prev = P[k - 1].max(1)
        return np.column_stack([s[:, -1], s[:, -1] - s[:, -2], ent, agree, prev])

    def worthy(correct, k):
        later = correct[k + 1:].any(axis=0) if k + 1 < K else np.zeros(correct.shape[1], bool)
        return correct[k] | ~later

    Pe = [softmax(L[ev, k], axis=1) for k in range(K)]
    Pc = [softmax(L[cal, k], axis=1) for k in range(K)]
    correct = np.array([Pe[k].argmax(1) == ye for k in range(K)])
    correct_c = np.array([Pc[k].argmax(1) == yc for k in range(K)])
    conf = [p.max(1) for p in Pe]
    ece = []
    for k in range(K):
        b = np.minimum(np.floor(conf[k] * bins).astype(int), bins - 1)
        g = np.bincount(b, weights=correct[k] - conf[k], minlength=bins)
        ece.append(np.abs(g).sum() / len(ye))
    fp = [roc_auc_score(correct[k], conf[k]) for k in range(K)]
    ee = [roc_auc_score(worthy(correct, k), conf[k]) for k in range(K - 1)]
    temps, conf_ts = [], []
    for k in range(K):
        lc = L[cal, k]
        nll = lambda u: np.mean(logsumexp(lc / np.exp(u), axis=1) - (lc / np.exp(u))[np.arange(len(yc)), yc])
        t = float(np.exp(minimize_scalar(nll, bounds=(np.log(0.05), np.log(20)), method="bounded",
                                          options={"xatol": 1e-9}).x))
        temps.append(t)
        conf_ts.append(softmax(L[ev, k] / t, axis=1).max(1))
    score_ee = []
    for k in range(K):
        if k + 1 == K:
            score_ee.append(np.ones(len(ye)))
            continue
        m = LogisticRegression(C=1.0).fit(feats(Pc, k), worthy(correct_c, k))
        score_ee.append(m.predict_proba(feats(Pe, k))[:, 1])
    oracle = [0.5 * (worthy(correct, k) + conf[k]) for k in range(K)]
    res = []
    for scores in (conf, conf_ts, score_ee, oracle):
        S = np.array(scores)  # K x N
        S[-1] = np.inf
        best = -1.0
        for i in range(T + 1):
            ex = np.argmax(S >= i / T, axis=0)
            cost = flops[ex].mean() / flops[-1]
            acc = correct[ex, np.arange(len(ye))].mean()
            if cost <= budget + 1e-12:
                best = max(best, acc)
        res.append(best)
    return {"ms": 1000 * (time.perf_counter() - t0), "acc_at_budget": res, "ece": ece, "fp": fp, "eefp": ee,
            "temperature": temps}


if __name__ == "__main__":
    if sys.argv[1] == "forgetting":
        r = forgetting(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), float(sys.argv[6]))
    else:
        r = eefp(sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5]), float(sys.argv[6]))
    print(json.dumps(r))
