"""Numpy loops for the SAE codes, Markov transitions and baselines of sae-domain-ood (tst_sae).

usage: sae_oracle.py DIR SEED K ALPHA -> writes DIR/acts.npy [L,N,d], DIR/texts.csv and
DIR/sae.npz (deflated), then prints "<key> v1 v2 ..." (%.17g): score (Markov, all N), auroc_markov
(sklearn, test split, in-domain = 'A'), fvu per layer, nb_layer_auroc per layer.
"""
import sys

import numpy as np
from sklearn.metrics import roc_auc_score

out, seed, K, alpha = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
rng = np.random.default_rng(seed)
L, N, d, m = 3, 60, 5, 12
acts = rng.normal(size=(L, N, d))
dom = rng.choice(["A", "B", "C"], size=N)
dom[0] = "A"
split = np.where(rng.uniform(size=N) < 0.6, "train", "test")
split[0] = "train"
acts[:, dom == "A", :] += 0.7
np.save(out + "/acts.npy", acts)
with open(out + "/texts.csv", "w") as f:
    f.write("id,domain,split\n")
    for i in range(N):
        f.write("x%d,%s,%s\n" % (i, dom[i], split[i]))
We, be = rng.normal(size=(L, d, m)), 0.3 * rng.normal(size=(L, m))
Wd, bd = rng.normal(size=(L, m, d)), 0.2 * rng.normal(size=(L, d))
np.savez_compressed(out + "/sae.npz", W_enc=We, b_enc=be, W_dec=Wd, b_dec=bd)


def code(pre):
    pos = [j for j in range(len(pre)) if pre[j] > 0]
    pos.sort(key=lambda j: (-pre[j], j))
    keep = pos[:K]
    vals = np.array([pre[j] for j in keep])
    return keep, vals, (vals / vals.sum() if len(keep) else vals)


codes = []
fvu = []
for l in range(L):
    pre = (acts[l] - bd[l]) @ We[l] + be[l]
    cl = [code(pre[x]) for x in range(N)]
    codes.append(cl)
    rec = np.zeros((N, d))
    for x in range(N):
        rec[x] = bd[l] + sum(v * Wd[l][j] for j, v in zip(cl[x][0], cl[x][1]))
    fvu.append(((acts[l] - rec) ** 2).sum() / ((acts[l] - acts[l].mean(axis=0)) ** 2).sum())
train = [x for x in range(N) if split[x] == "train" and dom[x] == "A"]
n0 = np.zeros(m)
n = np.zeros((L - 1, m, m))
for x in train:
    for j, w in zip(codes[0][x][0], codes[0][x][2]):
        n0[j] += w
    for l in range(L - 1):
        for i, wi in zip(codes[l][x][0], codes[l][x][2]):
            for j, wj in zip(codes[l + 1][x][0], codes[l + 1][x][2]):
                n[l, i, j] += wi * wj
P0 = (n0 + alpha) / (n0.sum() + alpha * m)
Pl = (n + alpha) / (n.sum(axis=2, keepdims=True) + alpha * m)
score = []
for x in range(N):
    s = sum(w * np.log(P0[j]) for j, w in zip(codes[0][x][0], codes[0][x][2]))
    for l in range(L - 1):
        for i, wi in zip(codes[l][x][0], codes[l][x][2]):
            for j, wj in zip(codes[l + 1][x][0], codes[l + 1][x][2]):
                s += wi * wj * np.log(Pl[l, i, j])
    score.append(s / L)
test = [x for x in range(N) if split[x] == "test"]
y = np.array([dom[x] == "A" for x in test])
print("score", " ".join("%.17g" % s for s in score))
print("auroc_markov", "%.17g" % roc_auc_score(y, [score[x] for x in test]))
print("fvu", " ".join("%.17g" % v for v in fvu))
nb = []
for l in range(L):
    cnt = np.zeros(m)
    for x in train:
        cnt[codes[l][x][0]] += 1
    p = (cnt + alpha) / (len(train) + 2 * alpha)
    base = 0.0
    for v in p:
        base += np.log(1 - v)
    s = []
    for x in test:
        t = base
        for v in sorted(float(np.log(p[j]) - np.log(1 - p[j])) for j in codes[l][x][0]):
            t += v
        s.append(t)
    nb.append(roc_auc_score(y, s))
print("nb_layer_auroc", " ".join("%.17g" % v for v in nb))
