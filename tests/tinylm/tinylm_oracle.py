"""numpy transcription of the tinylm models (engines/tinylm/TinyModel.h), read from .safetensors
with the standard library and numpy only. Used by tst_tinylm as the oracle of the C++ forward passes.

usage: tinylm_oracle.py MODEL.safetensors CASE.json  ->  prints JSON {"logits": [[...], ...]}
CASE.json: {"tokens": [...], "mask": [[0/1]*T]*T} for a transformer (mask[r][c] = row r reads key c),
           {"contexts": [[...window ids...], ...]} for an mlp_lm.
"""
import json
import math
import struct
import sys

import numpy as np


def load_safetensors(path):
    raw = open(path, "rb").read()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + n])
    meta = header.pop("__metadata__", {})
    data = raw[8 + n:]
    tensors = {}
    for name, e in header.items():
        dt = {"F32": "<f4", "F64": "<f8"}[e["dtype"]]
        a, b = e["data_offsets"]
        tensors[name] = np.frombuffer(data[a:b], dtype=dt).astype(np.float64).reshape(e["shape"])
    return meta, tensors


def act(name, x):
    if name == "relu":
        return np.maximum(x, 0.0)
    if name == "tanh":
        return np.tanh(x)
    if name == "gelu":
        erf = np.vectorize(math.erf)
        return 0.5 * x * (1.0 + erf(x / math.sqrt(2.0)))
    raise ValueError(name)


def layernorm(x, w, b):
    mu = x.mean(axis=1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=1, keepdims=True)
    return (x - mu) / np.sqrt(var + 1e-5) * w + b


def transformer(meta, t, tokens, mask):
    L, H = int(meta["n_layers"]), int(meta.get("n_heads", "1"))
    ln = meta.get("norm", "none") == "layernorm"
    T = len(tokens)
    h = t["tok_emb"][tokens] + t["pos_emb"][np.arange(T)]
    d = h.shape[1]
    dh = d // H
    M = np.array(mask, dtype=bool)
    for l in range(L):
        p = "layers.%d." % l
        x = layernorm(h, t[p + "ln1.weight"], t[p + "ln1.bias"]) if ln else h
        q, k, v = x @ t[p + "attn.wq"], x @ t[p + "attn.wk"], x @ t[p + "attn.wv"]
        out = np.zeros_like(h)
        for hh in range(H):
            sl = slice(hh * dh, (hh + 1) * dh)
            s = q[:, sl] @ k[:, sl].T / math.sqrt(dh)
            s = np.where(M, s, -np.inf)
            s = np.exp(s - s.max(axis=1, keepdims=True))
            s = s / s.sum(axis=1, keepdims=True)
            out[:, sl] = s @ v[:, sl]
        h = h + out @ t[p + "attn.wo"]
        if p + "mlp.w1" in t:
            x = layernorm(h, t[p + "ln2.weight"], t[p + "ln2.bias"]) if ln else h
            h = h + act(meta.get("act", "relu"), x @ t[p + "mlp.w1"] + t[p + "mlp.b1"]) @ t[p + "mlp.w2"] + t[p + "mlp.b2"]
    if ln:
        h = layernorm(h, t["ln_f.weight"], t["ln_f.bias"])
    return h @ t["head"]


def mlp_lm(meta, t, contexts):
    a = meta.get("act", "tanh")
    x = np.stack([np.concatenate([t["tok_emb"][i] for i in c]) for c in contexts])
    h = act(a, x @ t["w1"] + t["b1"])
    h = act(a, h @ t["w2"] + t["b2"])
    return h @ t["head"] + t["head_bias"]


def main():
    meta, t = load_safetensors(sys.argv[1])
    case = json.load(open(sys.argv[2]))
    if meta["arch"] == "transformer":
        logits = transformer(meta, t, case["tokens"], case["mask"])
    else:
        logits = mlp_lm(meta, t, case["contexts"])
    print(json.dumps({"logits": logits.tolist()}))


if __name__ == "__main__":
    main()
