"""Peer of bench_protovar: sklearn KMeans (lloyd, k-means++ seeds, n_init 1, fixed iterations) on the
pooled residuals, and a numpy sampling loop of the per-scale MLP generator (local and global context, CFG, prototype bias,
inverse-CDF token draws) with the engine's weights, written as the direct loop over the samples
(one-hot inputs through the first layer, both CFG branches through the whole MLP). Times are
process CPU times. Prints one JSON object."""
import json
import sys
import time

import numpy as np
from sklearn.cluster import KMeans


def load(d, name):
    return np.loadtxt(f"{d}/{name}.txt", ndmin=2)


def main():
    d, iters, pool = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    try:
        from threadpoolctl import threadpool_info
        blas = [i.get("internal_api") for i in threadpool_info()]
    except Exception:  # threadpoolctl missing
        blas = []
    X = load(d, "X")
    t0 = time.process_time()
    km = KMeans(n_clusters=128, init="k-means++", n_init=1, max_iter=iters, tol=0.0, algorithm="lloyd",
                random_state=0).fit(X)
    km_ms = 1000 * (time.process_time() - t0)

    E = load(d, "E")
    K, classes, cls, w, C = 4, 10, 2, 1.0, 16
    W = [[load(d, f"W{k}_{j}") for j in range(4)] for k in range(K)]
    D = [load(d, f"D{k}") for k in range(K)]
    U = [load(d, f"U{k}") for k in range(K)]
    P = [[load(d, f"P{k}_{m}") for m in range(3)] for k in range(K)]
    betas = [3, 1.5, 0.75, 0.375]
    scales = [1, 2, 3, 4]
    rng = np.random.default_rng(0)
    en = np.sum(E ** 2, axis=1)
    ent1 = 0.0
    t0 = time.process_time()
    for n in range(pool):
        m = rng.integers(3)
        fhat = np.zeros((16, C))
        for k, s in enumerate(scales):
            S = s * s
            ctx = D[k] @ fhat
            glob = (D[k - 1] @ fhat).reshape(-1) if k > 0 else np.zeros(0)
            G = glob.size

            def inputs(c):
                x = np.zeros((S, C + G + S + classes + 1))
                x[:, :C] = ctx
                x[:, C:C + G] = glob
                x[np.arange(S), C + G + np.arange(S)] = 1
                x[:, C + G + S + c] = 1
                return x

            def logits(x):
                h = np.maximum(x @ W[k][0] + W[k][1], 0)
                return h @ W[k][2] + W[k][3]

            L = (1 + w) * logits(inputs(cls)) - w * logits(inputs(classes))
            delta = D[k] @ (fhat - P[k][m])
            L -= betas[k] / C * (np.sum(delta ** 2, axis=1)[:, None] + 2 * delta @ E.T + en[None, :])
            L -= L.max(axis=1, keepdims=True)
            p = np.exp(L)
            p /= p.sum(axis=1, keepdims=True)
            if k == 0:
                ent1 -= np.sum(p * np.log2(np.maximum(p, 1e-300))) / pool
            u = rng.random(S)
            tok = np.minimum((np.cumsum(p, axis=1) > u[:, None]).argmax(axis=1), E.shape[0] - 1)
            fhat = fhat + U[k] @ E[tok]
    s_ms = 1000 * (time.process_time() - t0)
    print(json.dumps({"sklearn_kmeans_ms": km_ms, "sklearn_inertia": float(km.inertia_),
                      "numpy_sampling_ms": s_ms, "numpy_entropy_scale1": ent1, "blas": blas}))


if __name__ == "__main__":
    main()
