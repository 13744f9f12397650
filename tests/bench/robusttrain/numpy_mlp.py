"""The numpy MLP step shared by the robusttrain peers: one minibatch of a one-hidden-layer ReLU MLP
(softmax cross-entropy, hand-written backprop) and the Adam update (beta 0.9 / 0.999, eps 1e-8)."""
import numpy as np


def adam_step(P, M, V, t, xb, yb, lr):
    """Updates P = [W0, b0, W1, b1] and the moments M, V in place; t is the 1-based step count."""
    z1 = xb @ P[0] + P[1]
    a1 = np.maximum(z1, 0)
    z2 = a1 @ P[2] + P[3]
    z2 -= z2.max(axis=1, keepdims=True)
    p = np.exp(z2)
    p /= p.sum(axis=1, keepdims=True)
    p[np.arange(len(yb)), yb] -= 1
    g2 = p / len(yb)
    G = [None] * 4
    G[2] = a1.T @ g2
    G[3] = g2.sum(axis=0, keepdims=True)
    g1 = (g2 @ P[2].T) * (z1 > 0)
    G[0] = xb.T @ g1
    G[1] = g1.sum(axis=0, keepdims=True)
    for i in range(4):
        M[i] = 0.9 * M[i] + 0.1 * G[i]
        V[i] = 0.999 * V[i] + 0.001 * G[i] ** 2
        P[i] -= lr * (M[i] / (1 - 0.9 ** t)) / (np.sqrt(V[i] / (1 - 0.999 ** t)) + 1e-8)
