#!/usr/bin/env python3
"""numpy peer of bench_specexit: greedy decoding of the specexit-decoding models read from
DIR/target.safetensors (mlp_lm: window token embeddings, act(. w1 + b1), act(. w2 + b2) = hidden,
. head + head_bias) and DIR/draft.safetensors (g = tanh([F, emb(x)] wg + bg), token logits g wt + bt,
next feature g wf + bf) on DIR/prompts.txt, GEN tokens per prompt:
  AR: one target row per token, argmax;
  SD: GAMMA drafts fed forward on the draft's own feature (starting from the target's hidden state
      before the last token), one verification of GAMMA + 1 rows, accept while the draft equals
      the target's argmax, then the target's token (correction or bonus); the next feature is the
      target's hidden state at the first unaccepted row.
Decode loops are timed as the best of REPS. Then the draft's training (the engine's loss: CE +
w_conf BCE + w_prog MSE(sigmoid) + w_rem log-cosh(softplus - y) + w_feature MSE of the feature;
Adam, Glorot init, zero biases, a shuffle per epoch) on DIR/examples.safetensors.
  peer_specexit.py DIR GEN GAMMA REPS
  -> JSON {ar_ms, sd_ms, ar_tokens, sd_tokens, train_ms, train_loss, numpy, blas}"""
import json
import math
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tinylm"))
from tinylm_oracle import act, load_safetensors  # noqa: E402


def blas_library():
    try:
        from threadpoolctl import threadpool_info
        info = threadpool_info()
        if info:
            return "%s %s (%s)" % (info[0].get("internal_api"), info[0].get("version"), info[0].get("architecture"))
    except Exception:
        pass
    cand = "/etc/alternatives/libblas.so.3-x86_64-linux-gnu"
    return os.path.realpath(cand) if os.path.exists(cand) else "unknown"


class Target:
    def __init__(self, meta, t):
        self.W, self.pad, self.act = int(meta["window"]), int(meta["pad_id"]), meta.get("act", "tanh")
        self.emb, self.w1, self.b1, self.w2, self.b2 = t["tok_emb"], t["w1"], t["b1"], t["w2"], t["b2"]
        self.head, self.hb = t["head"], t["head_bias"]

    def rows(self, padded, start, count):
        """Hidden states and logits at positions start .. start + count - 1 (padded = W pads + seq)."""
        idx = [padded[p:p + self.W] for p in range(start, start + count)]
        x = self.emb[idx].reshape(count, -1)
        h = act(self.act, act(self.act, x @ self.w1 + self.b1) @ self.w2 + self.b2)
        return h, h @ self.head + self.hb


def decode_ar(tg, prompt, gen):
    padded = [tg.pad] * tg.W + list(prompt)
    out = []
    for _ in range(gen):
        _, logits = tg.rows(padded, len(padded) - tg.W, 1)
        x = int(np.argmax(logits[0]))
        padded.append(x)
        out.append(x)
    return out


def decode_sd(tg, d, prompt, gen, gamma):
    padded = [tg.pad] * tg.W + list(prompt)
    out = []
    feature = tg.rows(padded, len(padded) - tg.W - 1, 1)[0][0]
    while len(out) < gen:
        f, tok, drafts = feature, padded[-1], []
        for _ in range(gamma):
            g = np.tanh(np.concatenate([f, tg.emb[tok]]) @ d["wg"] + d["bg"])
            tok = int(np.argmax(g @ d["wt"] + d["bt"]))
            f = g @ d["wf"] + d["bf"]
            drafts.append(tok)
        n = len(padded) - tg.W
        hidden, logits = tg.rows(padded + drafts, n, gamma + 1)
        best = np.argmax(logits, axis=1)
        acc = 0
        while acc < gamma and int(best[acc]) == drafts[acc]:
            acc += 1
        feature = hidden[acc]
        for x in drafts[:acc] + [int(best[acc])]:
            padded.append(x)
            out.append(x)
            if len(out) >= gen:
                break
    return out


def softplus(z):
    return np.logaddexp(0.0, z)


def sigmoid(z):
    return 0.5 * (1.0 + np.tanh(0.5 * z))


def train_draft(meta, ex, emb):
    G, epochs, batch = int(meta["hidden"]), int(meta["epochs"]), int(meta["batch"])
    lr, wc_, wp_, wr_, wf_ = (float(meta[k]) for k in ("lr", "w_conf", "w_prog", "w_rem", "w_feature"))
    rs = float(meta["rem_scale"])
    F, NF = ex["feature"], ex["next_feature"]
    tok, nxt = ex["token"].astype(np.int64), ex["next"].astype(np.int64)
    yc, yp, yr = ex["conf"], ex["prog"], ex["rem"] / rs
    N, h, V = F.shape[0], F.shape[1], emb.shape[0]
    rng = np.random.default_rng(0)

    def glorot(r, c):
        a = math.sqrt(6.0 / (r + c))
        return rng.uniform(-a, a, size=(r, c))

    P = {"wg": glorot(h + emb.shape[1], G), "bg": np.zeros(G), "wt": glorot(G, V), "bt": np.zeros(V),
         "wc": glorot(G, 1), "bc": np.zeros(1), "wp": glorot(G, 1), "bp": np.zeros(1),
         "wr": glorot(G, 1), "br": np.zeros(1), "wf": glorot(G, h), "bf": np.zeros(h)}
    M = {k: np.zeros_like(v) for k, v in P.items()}
    S = {k: np.zeros_like(v) for k, v in P.items()}
    b1, b2, eps, step = 0.9, 0.999, 1e-8, 0
    losses = []
    for _ in range(epochs):
        order = rng.permutation(N)
        total = 0.0
        for s in range(0, N, batch):
            o = order[s:s + batch]
            n = len(o)
            x = np.concatenate([F[o], emb[tok[o]]], axis=1)
            g = np.tanh(x @ P["wg"] + P["bg"])
            lt = g @ P["wt"] + P["bt"]
            zc = (g @ P["wc"] + P["bc"])[:, 0]
            zp = (g @ P["wp"] + P["bp"])[:, 0]
            zr = (g @ P["wr"] + P["br"])[:, 0]
            zf = g @ P["wf"] + P["bf"]
            m = lt.max(axis=1, keepdims=True)
            e = np.exp(lt - m)
            lse = m[:, 0] + np.log(e.sum(axis=1))
            ce = np.mean(lse - lt[np.arange(n), nxt[o]])
            bce = np.mean(softplus(zc) - zc * yc[o])
            sp = sigmoid(zp)
            mse = np.mean((sp - yp[o]) ** 2)
            u = softplus(zr) - yr[o]
            hub = np.mean(softplus(2 * u) - u - math.log(2.0))
            fe = np.mean((zf - NF[o]) ** 2)
            total += (ce + wc_ * bce + wp_ * mse + wr_ * hub + wf_ * fe) * n
            dlt = e / e.sum(axis=1, keepdims=True)
            dlt[np.arange(n), nxt[o]] -= 1.0
            dlt /= n
            dzc = (wc_ / n) * (sigmoid(zc) - yc[o])
            dzp = (wp_ * 2.0 / n) * (sp - yp[o]) * sp * (1 - sp)
            dzr = (wr_ / n) * (2.0 * sigmoid(2 * u) - 1.0) * sigmoid(zr)
            dzf = (wf_ * 2.0 / (n * h)) * (zf - NF[o])
            grads = {"wt": g.T @ dlt, "bt": dlt.sum(axis=0), "wf": g.T @ dzf, "bf": dzf.sum(axis=0)}
            dg = dlt @ P["wt"].T + dzf @ P["wf"].T
            for k, dz in (("c", dzc), ("p", dzp), ("r", dzr)):
                grads["w" + k] = g.T @ dz[:, None]
                grads["b" + k] = np.array([dz.sum()])
                dg += dz[:, None] * P["w" + k][:, 0][None, :]
            da = dg * (1 - g * g)
            grads["wg"], grads["bg"] = x.T @ da, da.sum(axis=0)
            step += 1
            c1, c2 = 1 - b1 ** step, 1 - b2 ** step
            for k, gr in grads.items():
                M[k] = b1 * M[k] + (1 - b1) * gr
                S[k] = b2 * S[k] + (1 - b2) * gr * gr
                P[k] -= lr * (M[k] / c1) / (np.sqrt(S[k] / c2) + eps)
        losses.append(total / N)
    return losses


def main():
    d, gen, gamma, reps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    tg = Target(*load_safetensors(os.path.join(d, "target.safetensors")))
    _, draft = load_safetensors(os.path.join(d, "draft.safetensors"))
    prompts = [[int(x) for x in line.split()] for line in open(os.path.join(d, "prompts.txt")) if line.strip()]
    res = {"ar_ms": float("inf"), "sd_ms": float("inf")}
    for _ in range(reps):
        for name, fn in (("ar", lambda p: decode_ar(tg, p, gen)), ("sd", lambda p: decode_sd(tg, draft, p, gen, gamma))):
            t0 = time.perf_counter()
            toks = []
            for p in prompts:
                toks += fn(p)
            res[name + "_ms"] = min(res[name + "_ms"], 1000 * (time.perf_counter() - t0))
            res[name + "_tokens"] = toks
    meta, ex = load_safetensors(os.path.join(d, "examples.safetensors"))
    t0 = time.perf_counter()
    losses = train_draft(meta, ex, tg.emb)
    res["train_ms"] = 1000 * (time.perf_counter() - t0)
    res["train_loss"] = losses[-1]
    res["numpy"] = np.__version__
    res["blas"] = blas_library()
    print(json.dumps(res))


if __name__ == "__main__":
    main()
