#!/usr/bin/env python3
"""Peers of bench_streams (Debian's numpy, one thread).

care FILE ALPHA ETA N_CAL KAPPA H N_MIN MAX_SIZE: a numpy per-interaction loop over a CARE CSV
(parsing not timed): per row min-max normalisation, stable ranking, capped sets for static, ACI and
CARE, CUSUM with recalibration by CRC; prints the time and the mean risks.

sketch FILE K T EPS: a Python dict multi-level sampling sketch (baseline) and the robust sketch with a
list-based binary tree per level over a `t,op,key,delta` file (parsing not timed); prints ops/s.
"""
import json, math, random, sys, time

import numpy as np


def blas():
    try:
        from threadpoolctl import threadpool_info
        return ",".join(sorted({i.get("internal_api", "?") for i in threadpool_info()}))
    except Exception:
        return "unknown"


def care(path, alpha, eta, n_cal, kappa, h, n_min, max_size):
    trues, scores, items = [], [], []
    with open(path) as f:
        next(f)
        for line in f:
            p = line.rstrip("\n").split(",")
            trues.append(int(p[2]))
            items.append(np.array([int(x) for x in p[3].split()]))
            scores.append(np.array([float(x) for x in p[4].split()]))
    N = len(trues)
    t0 = time.perf_counter()
    need_true = np.empty(N)
    needs = []
    for t in range(N):  # the per-interaction preprocessing
        s = scores[t]
        lo, hi = s.min(), s.max()
        need = 1.0 - (s - lo) / (hi - lo) if hi > lo else np.zeros(len(s))
        order = np.argsort(need, kind="stable")[:max_size]
        ns = need[order]
        hit = np.nonzero(items[t][order] == trues[t])[0]
        need_true[t] = ns[hit[0]] if len(hit) else math.inf
        needs.append(ns)

    def crc(v):
        n = len(v)
        k = math.ceil((n + 1) * (1 - alpha) - 1e-12)
        if k > n:
            return 1.0
        q = np.sort(v)[k - 1] if k >= 1 else 0.0
        return float(q) if math.isfinite(q) else 1.0

    lam_s = crc(need_true[:n_cal])
    la = lc = lcal = lam_s
    S, last_zero, pause_end, change = 0.0, n_cal - 1, -1, -1
    risk = np.zeros(3)
    size = np.zeros(3)
    for t in range(n_cal, N):
        for m, lam in enumerate((lam_s, la, lc)):
            risk[m] += need_true[t] > lam
            size[m] += np.searchsorted(needs[t], lam, side="right")
        la = min(1.0, max(0.0, la + eta * (float(need_true[t] > la) - alpha)))
        lc = min(1.0, max(0.0, lc + eta * (float(need_true[t] > lc) - alpha)))
        if t < pause_end:
            if t == pause_end - 1:
                lcal = crc(need_true[max(change, t + 1 - n_cal):t + 1])
                lc, S, last_zero = lcal, 0.0, t
            continue
        S += float(need_true[t] > lcal) - alpha - kappa
        if S <= 0:
            S, last_zero = 0.0, t
        if S > h:
            change, pause_end = last_zero + 1, t + 1 + n_min
    ms = 1000 * (time.perf_counter() - t0)
    return {"ms": ms, "risk": list(risk / (N - n_cal)), "size": list(size / (N - n_cal)), "rows": N, "blas": blas()}


def laplace(rng, b):
    u = rng.random() - 0.5
    return -b * math.copysign(1.0, u) * math.log1p(-2 * abs(u))


class Sketch:
    def __init__(self, k, levels, salt, tree_b=None, rng=None):
        self.k, self.salt, self.levels = k, salt, [dict() for _ in range(levels)]
        self.sums, self.dead, self.live = [0.0] * levels, [False] * levels, 0
        self.b, self.rng = tree_b, rng
        if tree_b is not None:  # per level: list of exact node sums and noises, step counter
            self.alpha = [[0.0] * 20 for _ in range(levels)]
            self.noise = [[0.0] * 20 for _ in range(levels)]
            self.t = 0

    def depth(self, key):
        h = hash((key, self.salt)) & 0xFFFFFFFFFFFFFFFF
        return 64 - h.bit_length()

    def apply(self, reset, key, delta):
        d = [0.0] * len(self.levels)
        top = min(self.depth(key), len(self.levels) - 1)
        for j in range(self.live, top + 1):
            if self.dead[j]:
                continue
            lvl = self.levels[j]
            if reset:
                if key in lvl:
                    d[j] = -1.0
                    self.sums[j] -= 1.0
                    del lvl[key]
                continue
            if key not in lvl:
                if len(lvl) >= self.k:
                    self.dead[j], self.levels[j], self.sums[j] = True, {}, 0.0
                    while self.live < len(self.levels) and self.dead[self.live]:
                        self.live += 1
                    continue
                lvl[key] = 0.0
                d[j] = 1.0
                self.sums[j] += 1.0
            lvl[key] += delta
        if self.b is not None:
            self.t += 1
            i = (self.t & -self.t).bit_length() - 1
            for j in range(self.live, len(self.levels)):
                a, nz = self.alpha[j], self.noise[j]
                s = d[j] + sum(a[:i])
                for q in range(i):
                    a[q], nz[q] = 0.0, 0.0
                a[i], nz[i] = s, laplace(self.rng, self.b)

    def estimate(self):
        if self.live >= len(self.levels):
            return float("nan")
        if self.b is None:
            return self.sums[self.live] * 2 ** self.live
        a, nz = self.alpha[self.live], self.noise[self.live]
        return sum(a[q] + nz[q] for q in range(20) if (self.t >> q) & 1) * 2 ** self.live


def sketch(path, k, T, eps):
    ops = []
    with open(path) as f:
        next(f)
        for line in f:
            t, op, key, delta = line.rstrip("\n").split(",")
            ops.append((op == "reset", int(key), float(delta) if delta else 0.0))
    levels = max(1, math.ceil(math.log2(T))) + 4
    L = math.ceil(math.log2(T))
    base = Sketch(k, levels, 1)
    robust = Sketch(k, levels, 2, tree_b=(L + 1) * 2.0 / eps, rng=random.Random(3))
    t0 = time.perf_counter()
    est = 0.0
    for reset, key, delta in ops:
        base.apply(reset, key, delta)
        robust.apply(reset, key, delta)
        est += base.estimate() + robust.estimate()
    ms = 1000 * (time.perf_counter() - t0)
    return {"ms": ms, "ops": len(ops), "ops_per_s": len(ops) / (ms / 1000), "checksum": est, "blas": blas()}


if __name__ == "__main__":
    if sys.argv[1] == "care":
        a = sys.argv[2:]
        print(json.dumps(care(a[0], float(a[1]), float(a[2]), int(a[3]), float(a[4]), float(a[5]), int(a[6]), int(a[7]))))
    else:
        a = sys.argv[2:]
        print(json.dumps(sketch(a[0], int(a[1]), int(a[2]), float(a[3]))))
