"""Peer of bench_robusttrain's federated case: FedAvg rounds of a numpy MLP (d-64-K ReLU) with
hand-written backprop, each client restarting Adam (lr 0.005) from the global weights for E local
epochs of batch-32 steps, then sample-size weighted averaging; and scikit-learn
MLPClassifier.partial_fit over the same minibatches (one model per client, no averaging: a timing
peer only). Reads clients.txt (features..., label, client). Prints one JSON object."""
import json
import sys
import time

import numpy as np

from numpy_mlp import adam_step


def main():
    d, rounds, epochs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    data = np.loadtxt(d + "/clients.txt")
    te = np.loadtxt(d + "/fedtest.txt")
    X, y, cl = data[:, :-2], data[:, -2].astype(int), data[:, -1].astype(int)
    Xt, yt = te[:, :-1], te[:, -1].astype(int)
    k, h, B, lr = int(max(y.max(), yt.max())) + 1, 64, 32, 0.005
    clients = [np.flatnonzero(cl == c) for c in range(cl.max() + 1)]
    rng = np.random.default_rng(0)
    s = np.sqrt(6 / (X.shape[1] + h)), np.sqrt(6 / (h + k))
    G = [rng.uniform(-s[0], s[0], (X.shape[1], h)), np.zeros((1, h)), rng.uniform(-s[1], s[1], (h, k)),
         np.zeros((1, k))]
    t0 = time.perf_counter()
    for _ in range(rounds):
        models, weights = [], []
        for rows in clients:
            P = [g.copy() for g in G]
            M = [np.zeros_like(p) for p in P]
            V = [np.zeros_like(p) for p in P]
            t = 0
            for _ in range(epochs):
                order = rows[rng.permutation(len(rows))]
                for lo in range(0, len(order), B):
                    idx = order[lo:lo + B]
                    xb, yb = X[idx], y[idx]
                    t += 1
                    adam_step(P, M, V, t, xb, yb, lr)
            models.append(P)
            weights.append(len(rows))
        w = np.array(weights, float) / sum(weights)
        G = [sum(w[c] * models[c][i] for c in range(len(models))) for i in range(4)]
    numpy_ms = (time.perf_counter() - t0) * 1e3
    acc = float(((np.maximum(Xt @ G[0] + G[1], 0) @ G[2] + G[3]).argmax(1) == yt).mean())

    from sklearn.neural_network import MLPClassifier
    clfs = [MLPClassifier(hidden_layer_sizes=(h,), learning_rate_init=lr, batch_size=B, random_state=0)
            for _ in clients]
    classes = np.arange(k)
    t0 = time.perf_counter()
    for _ in range(rounds):
        for clf, rows in zip(clfs, clients):
            for _ in range(epochs):
                order = rows[rng.permutation(len(rows))]
                for lo in range(0, len(order), B):
                    idx = order[lo:lo + B]
                    clf.partial_fit(X[idx], y[idx], classes=classes)
    sk_ms = (time.perf_counter() - t0) * 1e3
    print(json.dumps({"numpy_fedavg_ms": numpy_ms, "numpy_fedavg_acc": acc, "sklearn_local_ms": sk_ms,
                      "numpy": np.__version__}))


if __name__ == "__main__":
    main()
