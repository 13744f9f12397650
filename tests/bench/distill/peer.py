"""Peer of bench_distill: a numpy minibatch loop of the LaViD student (768-32-16 ReLU backbone,
class head, question head; CE + MSE to the class signature; Adam lr 3e-3, batch 32) with
hand-written backprop. Prints one JSON object (with the BLAS numpy runs on)."""
import json
import sys
import time

import numpy as np


def main():
    d, epochs = sys.argv[1], int(sys.argv[2])
    tr = np.loadtxt(d + "/train.txt")
    S = np.loadtxt(d + "/signatures.txt")
    X, y = tr[:, :-1], tr[:, -1].astype(int)
    rng = np.random.default_rng(0)
    n, dim, h, f, k, qo, B = X.shape[0], X.shape[1], 32, 16, S.shape[0], S.shape[1], 32

    def glorot(a, b):
        s = np.sqrt(6 / (a + b))
        return rng.uniform(-s, s, (a, b))

    P = [glorot(dim, h), np.zeros((1, h)), glorot(h, f), np.zeros((1, f)), glorot(f, k), np.zeros((1, k)),
         glorot(f, qo), np.zeros((1, qo))]
    M = [np.zeros_like(p) for p in P]
    V = [np.zeros_like(p) for p in P]
    t = 0
    last = 0.0
    t0 = time.perf_counter()
    for _ in range(epochs):
        order = rng.permutation(n)
        total = 0.0
        for lo in range(0, n, B):
            idx = order[lo:lo + B]
            xb, yb, m = X[idx], y[idx], len(idx)
            z1 = xb @ P[0] + P[1]
            a1 = np.maximum(z1, 0)
            z2 = a1 @ P[2] + P[3]
            g = np.maximum(z2, 0)
            z = g @ P[4] + P[5]
            q = g @ P[6] + P[7]
            zs = z - z.max(axis=1, keepdims=True)
            p = np.exp(zs)
            p /= p.sum(axis=1, keepdims=True)
            diff = q - S[yb]
            total += (-np.log(p[np.arange(m), yb]).mean() + (diff ** 2).mean()) * m
            p[np.arange(m), yb] -= 1
            gz = p / m
            gq = 2 * diff / diff.size
            G = [None] * 8
            G[4], G[5] = g.T @ gz, gz.sum(axis=0, keepdims=True)
            G[6], G[7] = g.T @ gq, gq.sum(axis=0, keepdims=True)
            gg = (gz @ P[4].T + gq @ P[6].T) * (z2 > 0)
            G[2], G[3] = a1.T @ gg, gg.sum(axis=0, keepdims=True)
            g1 = (gg @ P[2].T) * (z1 > 0)
            G[0], G[1] = xb.T @ g1, g1.sum(axis=0, keepdims=True)
            t += 1
            for i in range(8):
                M[i] = 0.9 * M[i] + 0.1 * G[i]
                V[i] = 0.999 * V[i] + 0.001 * G[i] ** 2
                P[i] -= 3e-3 * (M[i] / (1 - 0.9 ** t)) / (np.sqrt(V[i] / (1 - 0.999 ** t)) + 1e-8)
        last = total / n
    numpy_ms = (time.perf_counter() - t0) * 1e3
    blas = "unknown"
    try:
        from threadpoolctl import threadpool_info
        blas = ",".join("%s/%s" % (i.get("internal_api"), i.get("architecture")) for i in threadpool_info())
    except Exception:
        pass
    print(json.dumps({"numpy_train_ms": numpy_ms, "numpy_final_loss": last, "blas": blas}))


if __name__ == "__main__":
    main()
