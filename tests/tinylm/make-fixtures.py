"""Writes the small .safetensors fixtures of tests/tinylm into tests/data/tinylm (numpy + struct only).
Run once: /usr/bin/python3 tests/tinylm/make-fixtures.py  (the outputs are committed)."""
import json
import os
import struct

import numpy as np

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "tinylm")


def write(path, meta, tensors, dtype="F64"):
    header, blobs, off = {"__metadata__": meta}, [], 0
    for name in sorted(tensors):
        a = np.ascontiguousarray(tensors[name], dtype="<f8" if dtype == "F64" else "<f4")
        b = a.tobytes()
        header[name] = {"dtype": dtype, "shape": list(a.shape), "data_offsets": [off, off + len(b)]}
        blobs.append(b)
        off += len(b)
    h = json.dumps(header).encode()
    h += b" " * ((8 - len(h) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)) + h + b"".join(blobs))


def transformer(rng, V, d, P, L, H, ln, f, mlp_layers):
    t = {"tok_emb": rng.normal(0, 1, (V, d)), "pos_emb": rng.normal(0, 0.5, (P, d)), "head": rng.normal(0, 0.3, (d, V))}
    for l in range(L):
        p = "layers.%d." % l
        for w in ("wq", "wk", "wv", "wo"):
            t[p + "attn." + w] = rng.normal(0, 1 / np.sqrt(d), (d, d))
        if ln:
            t[p + "ln1.weight"] = 1 + 0.1 * rng.normal(size=d)
            t[p + "ln1.bias"] = 0.1 * rng.normal(size=d)
        if l in mlp_layers:
            t[p + "mlp.w1"] = rng.normal(0, 1 / np.sqrt(d), (d, f))
            t[p + "mlp.b1"] = 0.1 * rng.normal(size=f)
            t[p + "mlp.w2"] = rng.normal(0, 1 / np.sqrt(f), (f, d))
            t[p + "mlp.b2"] = 0.1 * rng.normal(size=d)
            if ln:
                t[p + "ln2.weight"] = 1 + 0.1 * rng.normal(size=d)
                t[p + "ln2.bias"] = 0.1 * rng.normal(size=d)
    if ln:
        t["ln_f.weight"] = 1 + 0.1 * rng.normal(size=d)
        t["ln_f.bias"] = 0.1 * rng.normal(size=d)
    return t


def mlp(rng, V, e, w, h1, h2):
    return {"tok_emb": rng.normal(0, 1, (V, e)), "w1": rng.normal(0, 1 / np.sqrt(w * e), (w * e, h1)),
            "b1": 0.1 * rng.normal(size=h1), "w2": rng.normal(0, 1 / np.sqrt(h1), (h1, h2)),
            "b2": 0.1 * rng.normal(size=h2), "head": rng.normal(0, 0.5, (h2, V)), "head_bias": 0.1 * rng.normal(size=V)}


def main():
    os.makedirs(OUT, exist_ok=True)
    rng = np.random.default_rng(19)
    write(os.path.join(OUT, "tf-layernorm-gelu.safetensors"),
          {"arch": "transformer", "n_layers": "2", "n_heads": "2", "norm": "layernorm", "act": "gelu"},
          transformer(rng, 20, 12, 40, 2, 2, True, 24, {0, 1}))
    write(os.path.join(OUT, "tf-none-relu.safetensors"),
          {"arch": "transformer", "n_layers": "3", "n_heads": "3", "norm": "none", "act": "relu"},
          transformer(rng, 17, 12, 40, 3, 3, False, 16, {1}))
    write(os.path.join(OUT, "tf-f32.safetensors"),
          {"arch": "transformer", "n_layers": "1", "n_heads": "1", "norm": "layernorm", "act": "relu"},
          transformer(rng, 15, 8, 24, 1, 1, True, 8, {0}), dtype="F32")
    write(os.path.join(OUT, "mlp-tanh.safetensors"), {"arch": "mlp_lm", "window": "3", "pad_id": "0", "act": "tanh"},
          mlp(rng, 23, 6, 3, 16, 10))
    write(os.path.join(OUT, "mlp-relu-f32.safetensors"), {"arch": "mlp_lm", "window": "2", "pad_id": "4", "act": "relu"},
          mlp(rng, 11, 5, 2, 12, 8), dtype="F32")


if __name__ == "__main__":
    main()
