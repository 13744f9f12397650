#!/usr/bin/env python3
"""Peer of bench_gridworld (one thread): a pure-Python grid world whose navigator calls networkx BFS
every step (the same visiting loop as bench_gridworld.cpp), and a numpy 2-layer ReLU MLP trained by
softmax cross-entropy with hand-written backprop and Adam. Prints one JSON object."""
import json
import sys
import time

DIRS = [(-1, 0), (0, 1), (1, 0), (0, -1)]


def navigate(path, steps):
    import networkx as nx
    rows = open(path).read().split()
    R, C = len(rows), len(rows[0])
    tile = {(r, c): ch for r in range(R) for c, ch in enumerate(rows[r])}
    g = nx.Graph()
    start = None
    for (r, c), ch in tile.items():
        if ch in ".@":
            g.add_node((r, c))
            if ch == "@":
                start = (r, c)
            for dr, dc in ((0, 1), (1, 0)):
                if tile.get((r + dr, c + dc)) in (".", "@"):
                    g.add_edge((r, c), (r + dr, c + dc))
    targets = "TSCID"

    def touches(v, t):
        return any(tile.get((v[0] + dr, v[1] + dc)) == t for dr, dc in DIRS)

    cell, facing, target, used = start, 0, 0, 0
    t0 = time.perf_counter()
    for _ in range(steps):
        t = targets[target]
        if touches(cell, t):
            ahead = (cell[0] + DIRS[facing][0], cell[1] + DIRS[facing][1])
            if tile.get(ahead) == t:
                used += 1
                target = (target + 1) % 5
            else:
                facing = next(k for k, (dr, dc) in enumerate(DIRS) if tile.get((cell[0] + dr, cell[1] + dc)) == t)
            continue
        paths = nx.single_source_shortest_path(g, cell)
        goal = min((len(p), p) for v, p in paths.items() if touches(v, t)) if paths else None
        if goal is None:
            target = (target + 1) % 5
            continue
        nxt = goal[1][1]
        facing = DIRS.index((nxt[0] - cell[0], nxt[1] - cell[1]))
        cell = nxt
    sec = time.perf_counter() - t0
    return {"steps_per_s": steps / sec, "used": used}


def mlp(iters, n_in, hidden, classes, batch):
    import numpy as np
    rng = np.random.default_rng(3)
    n = 4096
    x = (rng.random((n, n_in)) < 0.1).astype(float)
    y = rng.integers(0, classes, n)

    def glorot(a, b):
        s = np.sqrt(6.0 / (a + b))
        return rng.uniform(-s, s, (a, b))

    params = [glorot(n_in, hidden), np.zeros(hidden), glorot(hidden, hidden), np.zeros(hidden),
              glorot(hidden, classes), np.zeros(classes)]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    t0 = time.perf_counter()
    for it in range(1, iters + 1):
        idx = rng.integers(0, n, batch)
        xb, yb = x[idx], y[idx]
        w1, b1, w2, b2, w3, b3 = params
        z1 = xb @ w1 + b1
        h1 = np.maximum(z1, 0)
        z2 = h1 @ w2 + b2
        h2 = np.maximum(z2, 0)
        z3 = h2 @ w3 + b3
        z3 -= z3.max(axis=1, keepdims=True)
        p = np.exp(z3)
        p /= p.sum(axis=1, keepdims=True)
        g3 = p.copy()
        g3[np.arange(batch), yb] -= 1
        g3 /= batch
        gw3, gb3 = h2.T @ g3, g3.sum(0)
        g2 = (g3 @ w3.T) * (z2 > 0)
        gw2, gb2 = h1.T @ g2, g2.sum(0)
        g1 = (g2 @ w2.T) * (z1 > 0)
        gw1, gb1 = xb.T @ g1, g1.sum(0)
        for k, g in enumerate([gw1, gb1, gw2, gb2, gw3, gb3]):
            m[k] = 0.9 * m[k] + 0.1 * g
            v[k] = 0.999 * v[k] + 0.001 * g * g
            params[k] -= 3e-3 * (m[k] / (1 - 0.9 ** it)) / (np.sqrt(v[k] / (1 - 0.999 ** it)) + 1e-8)
    ms = (time.perf_counter() - t0) * 1000 / iters
    try:
        from threadpoolctl import threadpool_info
        blas = [i.get("internal_api") for i in threadpool_info()]
    except Exception:
        blas = []
    return {"ms_per_step": ms, "blas": blas}


if __name__ == "__main__":
    if sys.argv[1] == "navigate":
        print(json.dumps(navigate(sys.argv[2], int(sys.argv[3]))))
    else:
        print(json.dumps(mlp(*[int(a) for a in sys.argv[2:7]])))
