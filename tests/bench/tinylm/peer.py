#!/usr/bin/env python3
"""numpy peer of bench_tinylm: greedy autoregressive decoding with a KV cache of a transformer read
from DIR/model.safetensors (the tinylm conventions: y = x W, heads as column slices, norm none or
layernorm, MLP act relu|gelu) on DIR/prompts.txt, GEN tokens per prompt (prefill of all but the
last prompt token in one masked pass, then one row per step).
  peer.py DIR GEN -> JSON {ms (decode loop), prefill_ms, tokens, numpy}"""
import json
import math
import os
import struct
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tinylm"))
from tinylm_oracle import act, layernorm, load_safetensors  # noqa: E402


def decode(meta, t, prompt, gen):
    L, H = int(meta["n_layers"]), int(meta.get("n_heads", "1"))
    ln = meta.get("norm", "none") == "layernorm"
    a = meta.get("act", "relu")
    d = t["tok_emb"].shape[1]
    dh = d // H
    K = [np.zeros((0, d)) for _ in range(L)]
    V = [np.zeros((0, d)) for _ in range(L)]

    def step(tokens, start):
        T = len(tokens)
        h = t["tok_emb"][tokens] + t["pos_emb"][start:start + T]
        for l in range(L):
            p = "layers.%d." % l
            x = layernorm(h, t[p + "ln1.weight"], t[p + "ln1.bias"]) if ln else h
            q, k, v = x @ t[p + "attn.wq"], x @ t[p + "attn.wk"], x @ t[p + "attn.wv"]
            K[l] = np.vstack([K[l], k])
            V[l] = np.vstack([V[l], v])
            n = K[l].shape[0]
            mask = np.arange(n)[None, :] <= (start + np.arange(T))[:, None]
            out = np.empty_like(h)
            for hh in range(H):
                sl = slice(hh * dh, (hh + 1) * dh)
                s = np.where(mask, q[:, sl] @ K[l][:, sl].T / math.sqrt(dh), -np.inf)
                s = np.exp(s - s.max(axis=1, keepdims=True))
                out[:, sl] = (s / s.sum(axis=1, keepdims=True)) @ V[l][:, sl]
            h = h + out @ t[p + "attn.wo"]
            if p + "mlp.w1" in t:
                x = layernorm(h, t[p + "ln2.weight"], t[p + "ln2.bias"]) if ln else h
                h = h + act(a, x @ t[p + "mlp.w1"] + t[p + "mlp.b1"]) @ t[p + "mlp.w2"] + t[p + "mlp.b2"]
        if ln:
            h = layernorm(h, t["ln_f.weight"], t["ln_f.bias"])
        return h[-1] @ t["head"]

    t0 = time.perf_counter()
    if len(prompt) > 1:
        step(prompt[:-1], 0)
    t1 = time.perf_counter()
    cur, out = prompt[-1], []
    for i in range(gen):
        logits = step([cur], len(prompt) - 1 + i)
        cur = int(np.argmax(logits))
        out.append(cur)
    return out, t1 - t0, time.perf_counter() - t1


def main():
    d, gen = sys.argv[1], int(sys.argv[2])
    meta, t = load_safetensors(os.path.join(d, "model.safetensors"))
    prompts = [[int(x) for x in line.split()] for line in open(os.path.join(d, "prompts.txt")) if line.strip()]
    tokens, pre, dec = [], 0.0, 0.0
    for p in prompts:
        out, a, b = decode(meta, t, p, gen)
        tokens += out
        pre += a
        dec += b
    print(json.dumps({"ms": 1000 * dec, "prefill_ms": 1000 * pre, "tokens": tokens, "numpy": np.__version__}))


if __name__ == "__main__":
    main()
