"""numpy peers of bench_hiddenstate (single BLAS thread; prints one JSON object).

  peer.py inslen DIR INSTR_LAYER  -> {"ms", "auroc": [L*L row-major], "blas"}
      the InsLen transcription (inslen_oracle.py's formulas, default settings) with the lens
      softmax cached per caption and layer, AUROC by scikit-learn, for every (image, text) layer.
  peer.py sae DIR K TRAIN         -> {"ms", "score": [N], "blas"}
      pre = (a - b_dec) W_enc + b_enc, TopK by argpartition among positive entries, weights,
      dense count matrices (W_l^T W_{l+1} over the first TRAIN texts), Markov scores.
"""
import json
import sys
import time

import numpy as np
from sklearn.metrics import roc_auc_score

try:
    from threadpoolctl import threadpool_info
    BLAS = [i.get("internal_api", "?") + " " + str(i.get("num_threads")) for i in threadpool_info()]
except Exception:  # pragma: no cover
    BLAS = ["unknown"]


def softmax_rows(z):
    m = z.max(axis=1, keepdims=True)
    e = np.exp(z - m)
    return e / e.sum(axis=1, keepdims=True)


def inslen(d, lins, k=8, ctx_num=4, bias=1.0, scale=0.1, weight=0.4):
    img, ins, ans = np.load(d + "/ins_image.npy"), np.load(d + "/ins_instr.npy"), np.load(d + "/ins_answer.npy")
    ids, objs, labs = np.load(d + "/ins_ids.npy"), np.load(d + "/ins_objects.npy"), np.load(d + "/ins_labels.npy")
    W = np.load(d + "/ins_head.npy")
    t0 = time.perf_counter()
    C, L = img.shape[0], img.shape[1]
    items = []  # (caption, pos, w, meanctx, ctxmean, top per layer)
    for c in range(C):
        p_img = [softmax_rows(scale * img[c, l] @ W.T) for l in range(L)]
        p_ins = softmax_rows(scale * ins[c, lins] @ W.T)
        seen = set()
        idl = list(ids[c])
        for t, y in zip(objs[c], labs[c]):
            t, y = int(t), int(y)
            if t not in idl or idl.index(t) == 0 or (t, y) in seen:
                continue
            seen.add((t, y))
            a = idl.index(t)
            pi = p_ins[:, t]
            ctx = np.argsort(-pi, kind="stable")[:ctx_num]
            top = [np.argsort(-p_img[l][:, t], kind="stable")[:k] for l in range(L)]
            items.append((c, a, pi.max(), pi[ctx].mean(), ins[c, lins][ctx].mean(axis=0), top, y))
    y = np.array([it[6] for it in items])
    auc = []
    for li in range(L):
        for lt in range(L):
            s = []
            for c, a, w, mcp, cm, top, _ in items:
                h = ans[c, lt, a - 1]
                P = img[c, li][top[li]]
                local = np.mean(P @ h / (np.linalg.norm(P, axis=1) * np.linalg.norm(h)))
                cc = (bias - np.linalg.norm(h - cm) / np.linalg.norm(h)) * mcp
                s.append((1 - weight) * w * local + weight * cc)
            auc.append(roc_auc_score(y, s))
    return {"ms": 1000 * (time.perf_counter() - t0), "auroc": auc, "blas": BLAS}


def sae(d, K, train):
    acts, We = np.load(d + "/sae_acts.npy"), np.load(d + "/sae_wenc.npy")
    be, bd = np.load(d + "/sae_benc.npy"), np.load(d + "/sae_bdec.npy")
    t0 = time.perf_counter()
    L, N, _ = acts.shape
    m = We.shape[2]
    alpha = 0.1
    dense = []
    for l in range(L):
        pre = (acts[l] - bd[l]) @ We[l] + be[l]
        idx = np.argpartition(-pre, K - 1, axis=1)[:, :K]
        val = np.take_along_axis(pre, idx, axis=1)
        val = np.where(val > 0, val, 0.0)
        w = val / np.maximum(val.sum(axis=1, keepdims=True), 1e-300)
        Wl = np.zeros((N, m))
        np.put_along_axis(Wl, idx, w, axis=1)
        dense.append(Wl)
    n0 = dense[0][:train].sum(axis=0)
    lp0 = np.log((n0 + alpha) / (n0.sum() + alpha * m))
    score = dense[0] @ lp0
    for l in range(L - 1):
        cnt = dense[l][:train].T @ dense[l + 1][:train]
        lp = np.log((cnt + alpha) / (cnt.sum(axis=1, keepdims=True) + alpha * m))
        score += np.einsum("xi,ij,xj->x", dense[l], lp, dense[l + 1], optimize=True)
    score /= L
    return {"ms": 1000 * (time.perf_counter() - t0), "score": score.tolist(), "blas": BLAS}


if __name__ == "__main__":
    if sys.argv[1] == "inslen":
        print(json.dumps(inslen(sys.argv[2], int(sys.argv[3]))))
    else:
        print(json.dumps(sae(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))))
