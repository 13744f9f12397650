"""Peer of bench_lifsnn: the SNN step of lif-mmwave in numpy. x [T, B, C] time-major, I = x W1 + b1,
u_t = beta u_{t-1} + I_t - s_{t-1} (threshold 1, detached reset), s_t = (u_t > 1), rate = mean_t s,
logits = rate W2 + b2, mean softmax cross-entropy; BPTT with the fast-sigmoid surrogate
1 / (1 + k |u - 1|)^2. argv: x.npy w1.npy b1.npy w2.npy b2.npy y.npy beta slope repeats. Prints JSON."""
import json
import sys
import time

import numpy as np

x, w1, b1, w2, b2, y = (np.load(a) for a in sys.argv[1:7])
beta, slope, reps = float(sys.argv[7]), float(sys.argv[8]), int(sys.argv[9])
y = y.astype(int)
T, B, _ = x.shape


def step():
    cur = x @ w1 + b1
    u = np.empty_like(cur)
    s = np.empty_like(cur)
    prev_u = np.zeros_like(cur[0])
    prev_s = np.zeros_like(cur[0])
    for t in range(T):
        prev_u = beta * prev_u + cur[t] - prev_s
        u[t] = prev_u
        prev_s = (prev_u > 1.0).astype(float)
        s[t] = prev_s
    rate = s.mean(axis=0)
    z = rate @ w2 + b2
    z = z - z.max(axis=1, keepdims=True)
    p = np.exp(z)
    p /= p.sum(axis=1, keepdims=True)
    loss = -np.mean(np.log(p[np.arange(B), y]))
    gz = p
    gz[np.arange(B), y] -= 1
    gz /= B
    gw2 = rate.T @ gz
    grate = gz @ w2.T
    gs = grate / T
    gu_next = np.zeros_like(cur[0])
    gcur = np.empty_like(cur)
    for t in range(T - 1, -1, -1):
        gu = gs / (1 + slope * np.abs(u[t] - 1.0)) ** 2 + beta * gu_next
        gcur[t] = gu
        gu_next = gu
    gw1 = np.einsum("tbc,tbh->ch", x, gcur)
    return loss, gw1, gw2


best = float("inf")
for _ in range(reps):
    t0 = time.perf_counter()
    loss, gw1, gw2 = step()
    best = min(best, time.perf_counter() - t0)
print(json.dumps({"step_ms": best * 1e3, "loss": float(loss), "gw1_norm": float(np.linalg.norm(gw1)),
                  "numpy": np.__version__}))
