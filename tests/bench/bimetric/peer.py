#!/usr/bin/env python3
"""Peers of bench_bimetric on the files it writes (DIR): a pure-Python transcription of the
reference bi-metric search (Xu, Silwal & Indyk's bi_metric_search.py: greedy_search with a list of
L and a bisect-sorted visited list, then greedy_search_quota with a heapq frontier from the top
max(100, Q/2) candidates, stopping after Q expensive calls; distances by numpy per expansion, which
is kinder to Python than the reference's per-pair calls; a second timing on 20 queries makes one
numpy call per pair, as the reference does), and hnswlib on the expensive vectors with
ef swept until recall@10 reaches TARGET. Prints one JSON object. One thread."""
import bisect
import heapq
import json
import sys
import time

import numpy as np


def load(d):
    be = np.load(d + "/base_exp.npy").astype(np.float32)
    bp = np.load(d + "/base_proxy.npy").astype(np.float32)
    qe = np.load(d + "/q_exp.npy").astype(np.float32)
    qp = np.load(d + "/q_proxy.npy").astype(np.float32)
    with open(d + "/graph.txt") as f:
        start = int(f.readline())
        graph = [[int(x) for x in line.split()] for line in f]
    truth = [[int(x) for x in line.split()] for line in open(d + "/truth.txt")]
    return be, bp, qe, qp, graph, start, truth


PAIRWISE = False


def dists(base, q, ids):
    if PAIRWISE:  # one call per pair, as the reference code does
        return [float(np.dot(base[i] - q, base[i] - q)) for i in ids]
    diff = base[ids] - q
    return np.einsum("ij,ij->i", diff, diff).tolist()


def greedy_search(graph, base, q, start, L):
    """Best-first search keeping a sorted list of the L best expanded nodes (the reference's rule)."""
    seen = {start}
    frontier = [(dists(base, q, [start])[0], start)]
    vis = []
    while frontier:
        d, p = frontier[0]
        if len(vis) >= L and d > vis[L - 1][0]:
            break
        heapq.heappop(frontier)
        bisect.insort(vis, (d, p))
        new = [x for x in graph[p] if x not in seen]
        for x in new:
            seen.add(x)
        for dx, x in zip(dists(base, q, new), new):
            heapq.heappush(frontier, (dx, x))
    return [p for _, p in vis[:L]]


def greedy_search_quota(graph, base, q, starts, quota, k):
    starts = starts[:quota]
    seen = set(starts)
    frontier = list(zip(dists(base, q, starts), starts))
    heapq.heapify(frontier)
    evaluated = list(frontier)
    count = len(starts)
    while count < quota and frontier:
        _, p = heapq.heappop(frontier)
        new = [x for x in graph[p] if x not in seen][: quota - count]
        count += len(new)
        for x in new:
            seen.add(x)
        for dx, x in zip(dists(base, q, new), new):
            heapq.heappush(frontier, (dx, x))
            evaluated.append((dx, x))
    return [p for _, p in sorted(evaluated)[:k]]


def recall(found, truth):
    return sum(len(set(f[:10]) & set(t[:10])) / 10 for f, t in zip(found, truth)) / len(truth)


def main():
    d, target = sys.argv[1], float(sys.argv[2])
    be, bp, qe, qp, graph, start, truth = load(d)
    Q = 1500
    t0 = time.perf_counter()
    found = []
    for i in range(len(qe)):
        cands = greedy_search(graph, bp, qp[i], start, max(500, Q))
        s = min(max(100, Q // 2), len(cands))
        found.append(greedy_search_quota(graph, be, qe[i], cands[:s], Q, 10))
    ref_ms = (time.perf_counter() - t0) * 1000 / len(qe)
    out = {"ref_ms": ref_ms, "ref_recall": recall(found, truth)}
    global PAIRWISE
    PAIRWISE = True
    t0 = time.perf_counter()
    m = min(20, len(qe))
    for i in range(m):
        cands = greedy_search(graph, bp, qp[i], start, max(500, Q))
        greedy_search_quota(graph, be, qe[i], cands[:min(max(100, Q // 2), len(cands))], Q, 10)
    out["ref_pairwise_ms"] = (time.perf_counter() - t0) * 1000 / m
    PAIRWISE = False
    try:
        import hnswlib
        t0 = time.perf_counter()
        index = hnswlib.Index(space="l2", dim=be.shape[1])
        index.init_index(max_elements=len(be), M=16, ef_construction=200, random_seed=1)
        index.set_num_threads(1)
        index.add_items(be, np.arange(len(be)))
        out["hnsw_build_ms"] = (time.perf_counter() - t0) * 1000
        for ef in (10, 20, 40, 80, 160, 320, 640, 1280, 2560):
            index.set_ef(ef)
            t0 = time.perf_counter()
            labels = [index.knn_query(qe[i:i + 1], k=10)[0][0].tolist() for i in range(len(qe))]
            ms = (time.perf_counter() - t0) * 1000 / len(qe)
            r = recall(labels, truth)
            out.update({"hnsw_ef": ef, "hnsw_ms": ms, "hnsw_recall": r})
            if r >= target:
                break
    except ImportError:
        out.update({"hnsw_ef": float("nan"), "hnsw_ms": float("nan"), "hnsw_recall": float("nan")})
    print(json.dumps(out))


if __name__ == "__main__":
    main()
