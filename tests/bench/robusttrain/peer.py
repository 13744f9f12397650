"""Peer of bench_robusttrain: a numpy minibatch MLP loop (20-64-10 ReLU, Adam lr 0.01, batch 64,
hand-written backprop), scikit-learn MLPClassifier.partial_fit once per minibatch, and a numpy
multiplicative weight-noise sweep with the benchmark's trained weights. Prints one JSON object."""
import json
import sys
import time

import numpy as np

from numpy_mlp import adam_step


def main():
    d, epochs, draws = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    tr = np.loadtxt(d + "/train.txt")
    te = np.loadtxt(d + "/test.txt")
    X, y = tr[:, :-1], tr[:, -1].astype(int)
    Xt, yt = te[:, :-1], te[:, -1].astype(int)
    rng = np.random.default_rng(0)
    n, dim, h, k, B = X.shape[0], X.shape[1], 64, 10, 64

    def glorot(a, b):
        s = np.sqrt(6 / (a + b))
        return rng.uniform(-s, s, (a, b))

    P = [glorot(dim, h), np.zeros((1, h)), glorot(h, k), np.zeros((1, k))]
    M = [np.zeros_like(p) for p in P]
    V = [np.zeros_like(p) for p in P]
    t = 0
    t0 = time.perf_counter()
    for _ in range(epochs):
        order = rng.permutation(n)
        for lo in range(0, n, B):
            idx = order[lo:lo + B]
            xb, yb = X[idx], y[idx]
            t += 1
            adam_step(P, M, V, t, xb, yb, 0.01)
    numpy_ms = (time.perf_counter() - t0) * 1e3
    numpy_acc = float(((np.maximum(X @ P[0] + P[1], 0) @ P[2] + P[3]).argmax(1) == y).mean())

    from sklearn.neural_network import MLPClassifier
    clf = MLPClassifier(hidden_layer_sizes=(h,), learning_rate_init=0.01, batch_size=B, random_state=0)
    classes = np.arange(k)
    t0 = time.perf_counter()
    for _ in range(epochs):
        order = rng.permutation(n)
        for lo in range(0, n, B):
            idx = order[lo:lo + B]
            clf.partial_fit(X[idx], y[idx], classes=classes)
    sk_ms = (time.perf_counter() - t0) * 1e3
    sk_acc = float((clf.predict(X) == y).mean())

    W = [np.loadtxt(d + "/W0.txt"), np.loadtxt(d + "/W1.txt")]
    b = [np.loadtxt(d + "/b0.txt").reshape(1, -1), np.loadtxt(d + "/b1.txt").reshape(1, -1)]
    clean = float(((np.maximum(Xt @ W[0] + b[0], 0) @ W[1] + b[1]).argmax(1) == yt).mean())
    t0 = time.perf_counter()
    means = []
    for s in np.arange(15) * 0.05:
        acc = []
        for _ in range(draws):
            W0 = W[0] * (1 + s * rng.standard_normal(W[0].shape))
            W1 = W[1] * (1 + s * rng.standard_normal(W[1].shape))
            acc.append(((np.maximum(Xt @ W0 + b[0], 0) @ W1 + b[1]).argmax(1) == yt).mean())
        means.append(float(np.mean(acc)))
    sweep_ms = (time.perf_counter() - t0) * 1e3
    print(json.dumps({"numpy_train_ms": numpy_ms, "numpy_train_acc": numpy_acc, "sklearn_train_ms": sk_ms,
                      "sklearn_train_acc": sk_acc, "sweep_ms": sweep_ms, "clean_acc": clean,
                      "numpy": np.__version__}))


if __name__ == "__main__":
    main()
