"""Peer of bench_gemq: vectorised numpy group-wise quantisation (groups of G input rows per output
column, rint half-even), the Fisher-weighted cost table at every bit-width, and the relaxed
multiple-choice knapsack by scipy linprog(method='highs') at 10 budgets. Prints one JSON object."""
import json
import os
import sys
import time

import numpy as np
from scipy.optimize import linprog
from scipy.sparse import csr_matrix

BITS = [2, 3, 4, 8]
BUDGETS = [2.0, 2.25, 2.5, 2.75, 3.0, 3.5, 4.0, 5.0, 6.0, 7.0]


def blas_library():
    try:
        from threadpoolctl import threadpool_info
        info = threadpool_info()
        if info:
            return "%s %s (%s)" % (info[0].get("internal_api"), info[0].get("version"), info[0].get("architecture"))
    except Exception:
        pass
    cand = "/etc/alternatives/libblas.so.3-x86_64-linux-gnu"
    return os.path.realpath(cand) if os.path.exists(cand) else "unknown"


def quantise(W, bits, G):
    """W: (..., rows, cols) with rows a multiple of G; groups along rows."""
    shp = W.shape
    g = W.reshape(shp[:-2] + (shp[-2] // G, G, shp[-1]))
    mn = g.min(axis=-2, keepdims=True)
    mx = g.max(axis=-2, keepdims=True)
    L = 2.0 ** bits - 1
    s = (mx - mn) / L
    safe = np.where(s > 0, s, 1.0)
    z = np.rint(-mn / safe)
    q = np.clip(np.rint(g / safe) + z, 0, L)
    out = np.where(s > 0, safe * (q - z), g)
    return out.reshape(shp)


def lp(cost, params, budget):
    n, m = cost.shape
    w = (params[:, None] * np.array(BITS, float)[None, :]).ravel()
    rows = np.repeat(np.arange(n), m)
    A_eq = csr_matrix((np.ones(n * m), (rows, np.arange(n * m))), shape=(n, n * m))
    r = linprog(cost.ravel(), A_ub=w[None, :], b_ub=[budget * params.sum()], A_eq=A_eq, b_eq=np.ones(n),
                bounds=(0, 1), method="highs")
    return r.fun


def main():
    d, L, E, dm, f, G = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
    n = L * E
    raw = np.fromfile(d + "/weights.bin", dtype="<f8").reshape(n, 2, dm * f)
    W1 = raw[:, 0, :].reshape(n, dm, f)
    W2 = raw[:, 1, :].reshape(n, f, dm)
    fr = np.fromfile(d + "/fisher.bin", dtype="<f8").reshape(n, 2, dm * f)
    F1 = fr[:, 0, :].reshape(n, dm, f)
    F2 = fr[:, 1, :].reshape(n, f, dm)
    t0 = time.perf_counter()
    chk = quantise(W1, 4, G).sum() + quantise(W2, 4, G).sum()
    quant_ms = 1000 * (time.perf_counter() - t0)
    params = np.full(n, 2.0 * dm * f)
    t0 = time.perf_counter()
    cost = np.empty((n, len(BITS)))
    for j, b in enumerate(BITS):
        e1 = W1 - quantise(W1, b, G)
        e2 = W2 - quantise(W2, b, G)
        cost[:, j] = 0.5 * ((F1 * e1 * e1).sum(axis=(1, 2)) + (F2 * e2 * e2).sum(axis=(1, 2)))
    sweep_obj = [lp(cost, params, b) for b in BUDGETS]
    sweep_ms = 1000 * (time.perf_counter() - t0)
    ours_cost = np.fromfile(d + "/cost.bin", dtype="<f8").reshape(n, len(BITS))
    t0 = time.perf_counter()
    lp_obj = [lp(ours_cost, params, b) for b in BUDGETS]
    lp_ms = 1000 * (time.perf_counter() - t0)
    print(json.dumps({"quant_ms": quant_ms, "quant_checksum": float(chk), "sweep_ms": sweep_ms,
                      "sweep_obj": sweep_obj, "lp_ms": lp_ms, "lp_obj": lp_obj, "blas": blas_library()}))


if __name__ == "__main__":
    main()
