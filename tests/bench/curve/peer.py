#!/usr/bin/env python3
"""numpy peer of bench_curve: the curve-scene-graph relation predictor (baseline: deterministic
edges, cross-entropy) with a hand-written backward pass (np.add.at for the edge scatters) and Adam,
on the batch and initial parameters bench_curve wrote as .npy files.
Usage: peer.py DIR LAYERS STEPS  -> prints JSON {step_ms, losses, numpy}."""
import json
import os
import sys
import time

import numpy as np


def main():
    d, layers, steps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    ld = lambda n: np.load(os.path.join(d, n + ".npy"))
    X, E = ld("nodeX"), ld("edgeX")
    src, dst = ld("src").astype(np.int64), ld("dst").astype(np.int64)
    pe, y = ld("pairEdge").astype(np.int64), ld("label").astype(np.int64)
    names = ["node.w", "node.b", "edge.w1", "edge.b1", "edge.w2", "edge.b2", "rel.w", "rel.b", "rel.wo", "rel.bo"]
    for l in range(layers):
        names += [f"mp{l}.wm", f"mp{l}.bm", f"mp{l}.wu", f"mp{l}.bu"]
    P = {n: ld("p_" + n) for n in names}
    M1 = {n: np.zeros_like(v) for n, v in P.items()}
    M2 = {n: np.zeros_like(v) for n, v in P.items()}
    ps, pd = src[pe], dst[pe]
    npairs = len(pe)
    rows = np.arange(npairs)

    def step(t):
        G = {}
        H = P["node.w"].shape[1]
        h0 = np.tanh(X @ P["node.w"] + P["node.b"])
        gin = np.concatenate([h0[src], h0[dst], E], 1)
        g = np.tanh(gin @ P["edge.w1"] + P["edge.b1"])
        out = g @ P["edge.w2"] + P["edge.b2"]
        z = out[:, 0:1]
        a = 1.0 / (1.0 + np.exp(-z))
        h = h0
        cache = []
        for l in range(layers):
            mi = np.concatenate([h[src], E], 1)
            msg = mi @ P[f"mp{l}.wm"] + P[f"mp{l}.bm"]
            M = np.zeros_like(h)
            np.add.at(M, dst, msg * a)
            ui = np.concatenate([h, M], 1)
            hn = np.tanh(h + ui @ P[f"mp{l}.wu"] + P[f"mp{l}.bu"])
            cache.append((mi, msg, ui, hn))
            h = hn
        rin = np.concatenate([h[ps], h[pd], E[pe]], 1)
        u = np.tanh(rin @ P["rel.w"] + P["rel.b"])
        logits = np.concatenate([np.zeros((npairs, 1)), u @ P["rel.wo"] + P["rel.bo"] + z[pe]], 1)
        mx = logits.max(1, keepdims=True)
        ex = np.exp(logits - mx)
        s = ex.sum(1, keepdims=True)
        loss = float(np.mean(np.log(s[:, 0]) + mx[:, 0] - logits[rows, y]))
        # backward
        dlog = ex / s
        dlog[rows, y] -= 1.0
        dlog /= npairs
        dtl = dlog[:, 1:]
        G["rel.wo"] = u.T @ dtl
        G["rel.bo"] = dtl.sum(0, keepdims=True)
        dr = (dtl @ P["rel.wo"].T) * (1 - u * u)
        G["rel.w"] = rin.T @ dr
        G["rel.b"] = dr.sum(0, keepdims=True)
        drin = dr @ P["rel.w"].T
        dh = np.zeros_like(h)
        np.add.at(dh, ps, drin[:, :H])
        np.add.at(dh, pd, drin[:, H:2 * H])
        dz = np.zeros_like(z)
        np.add.at(dz, pe, dtl.sum(1, keepdims=True))
        da = np.zeros_like(a)
        for l in reversed(range(layers)):
            mi, msg, ui, hn = cache[l]
            dpre = dh * (1 - hn * hn)
            G[f"mp{l}.wu"] = ui.T @ dpre
            G[f"mp{l}.bu"] = dpre.sum(0, keepdims=True)
            dui = dpre @ P[f"mp{l}.wu"].T
            dprev = dpre + dui[:, :H]
            dma = dui[:, H:][dst]
            dmsg = dma * a
            da += (dma * msg).sum(1, keepdims=True)
            G[f"mp{l}.wm"] = mi.T @ dmsg
            G[f"mp{l}.bm"] = dmsg.sum(0, keepdims=True)
            np.add.at(dprev, src, (dmsg @ P[f"mp{l}.wm"].T)[:, :H])
            dh = dprev
        dz += da * a * (1 - a)
        dout = np.zeros_like(out)
        dout[:, 0:1] = dz
        G["edge.w2"] = g.T @ dout
        G["edge.b2"] = dout.sum(0, keepdims=True)
        dg = (dout @ P["edge.w2"].T) * (1 - g * g)
        G["edge.w1"] = gin.T @ dg
        G["edge.b1"] = dg.sum(0, keepdims=True)
        dgin = dg @ P["edge.w1"].T
        np.add.at(dh, src, dgin[:, :H])
        np.add.at(dh, dst, dgin[:, H:2 * H])
        dpre0 = dh * (1 - h0 * h0)
        G["node.w"] = X.T @ dpre0
        G["node.b"] = dpre0.sum(0, keepdims=True)
        # Adam (lr 0.01, betas 0.9 / 0.999, eps 1e-8), as pl::nn::Adam
        c1, c2 = 1 - 0.9 ** t, 1 - 0.999 ** t
        for n in names:
            M1[n] = 0.9 * M1[n] + 0.1 * G[n]
            M2[n] = 0.999 * M2[n] + 0.001 * G[n] * G[n]
            P[n] -= 0.01 * (M1[n] / c1) / (np.sqrt(M2[n] / c2) + 1e-8)
        return loss

    losses = [step(1)]
    t0 = time.perf_counter()
    for t in range(2, steps + 2):
        losses.append(step(t))
    ms = (time.perf_counter() - t0) * 1000 / steps
    print(json.dumps({"step_ms": ms, "losses": losses, "numpy": np.__version__}))


if __name__ == "__main__":
    main()
