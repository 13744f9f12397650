"""Numpy transcription of the InsLen detector (the issue's reading of detector.py) for tst_inslen.

usage: inslen_oracle.py DIR SEED  -> writes DIR/head.npy and DIR/cap_NNN.npz (even captions
stored, odd deflated), then prints one line per result: "<key> v1 v2 ..." (%.17g) for the default
settings (last layers, k 8, context 4, bias 1, scale 0.1, weight 0.4, glsim_w 0.5) except
image_layer 1 and instruction_layer 2, plus auroc_* from sklearn and the layer-sweep matrix.
"""
import sys

import numpy as np
from sklearn.metrics import average_precision_score, roc_auc_score, roc_curve

out, seed = sys.argv[1], int(sys.argv[2])
rng = np.random.default_rng(seed)
L, d, V = 4, 6, 30
W = rng.normal(size=(V, d))
np.save(out + "/head.npy", W)
caps = []
for c in range(7):
    P, I, A = int(rng.integers(5, 12)), int(rng.integers(3, 7)), int(rng.integers(6, 12))
    ids = rng.integers(0, V, size=A)
    objs = list(rng.choice(ids[1:], size=3))  # present (maybe repeated)
    objs += [int(ids[0])]                      # only at position 0 unless repeated: often skipped
    objs += [int(rng.integers(0, V))]          # maybe absent
    objs += [objs[0]]                          # same token again (skipped if same label)
    labels = list(rng.integers(0, 2, size=len(objs)))
    cap = dict(image_states=rng.normal(size=(L, P, d)), instr_states=rng.normal(size=(L, I, d)),
               answer_states=rng.normal(size=(L, A, d)), answer_ids=ids.astype(np.int64),
               objects=np.array(objs, dtype=np.int64), labels=np.array(labels, dtype=np.int64),
               svar=rng.uniform(size=A))
    (np.savez if c % 2 == 0 else np.savez_compressed)(out + "/cap_%03d.npz" % c, **cap)
    caps.append(cap)


def softmax_rows(z):
    m = z.max(axis=1, keepdims=True)
    e = np.exp(z - m)
    return e / e.sum(axis=1, keepdims=True)


def cos(a, b):
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


def score(li, lt, lins, k=8, ctx_num=4, bias=1.0, scale=0.1, weight=0.4, gw=0.5):
    res = {n: [] for n in ["inslen", "calibrated_local", "context_consistency", "mean_prob", "glsim", "svar", "label"]}
    skipped = 0
    for cap in caps:
        seen = set()
        ids = list(cap["answer_ids"])
        for t, y in zip(cap["objects"], cap["labels"]):
            t, y = int(t), int(y)
            if t not in ids or ids.index(t) == 0 or (t, y) in seen:
                skipped += 1
                continue
            seen.add((t, y))
            a = ids.index(t)
            h = cap["answer_states"][lt, a - 1]
            instr = cap["instr_states"][lins]
            p_instr = softmax_rows(scale * instr @ W.T)[:, t]
            w = p_instr.max()
            img = cap["image_states"][li]
            p_img = softmax_rows(scale * img @ W.T)[:, t]
            top = np.argsort(-p_img, kind="stable")[: min(k, len(p_img))]
            local = np.mean([cos(h, img[p]) for p in top])
            ctx = np.argsort(-p_instr, kind="stable")[: min(ctx_num, len(p_instr))]
            c = instr[ctx].mean(axis=0)
            diff = np.linalg.norm(h - c) / np.linalg.norm(h)
            mcp = p_instr[ctx].mean()
            cl, cc = w * local, (bias - diff) * mcp
            glob = cos(cap["instr_states"][lt][-1], cap["answer_states"][li, a - 1])
            res["inslen"].append((1 - weight) * cl + weight * cc)
            res["calibrated_local"].append(cl)
            res["context_consistency"].append(cc)
            res["mean_prob"].append(mcp)
            res["glsim"].append(gw * glob + (1 - gw) * local)
            res["svar"].append(cap["svar"][a])
            res["label"].append(y)
    return res, skipped


res, skipped = score(1, L - 1, 2)
for k, v in res.items():
    print(k, " ".join("%.17g" % x for x in v))
print("objects_skipped", skipped)
y = np.array(res["label"])
for k in ["inslen", "glsim", "mean_prob", "svar"]:
    print("auroc_" + k, "%.17g" % roc_auc_score(y, res[k]))
print("aupr_inslen", "%.17g" % average_precision_score(y, res["inslen"]))
fpr, tpr, _ = roc_curve(y, res["inslen"])
print("fpr95_inslen", "%.17g" % fpr[np.argmax(tpr >= 0.95)])
sweep = [roc_auc_score(y, score(li, lt, 2)[0]["inslen"]) for li in range(L) for lt in range(L)]
print("auroc_layers", " ".join("%.17g" % x for x in sweep))
