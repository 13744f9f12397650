"""Peer of bench_prefetchrag: scikit-learn TF-IDF + sparse product + argpartition for the top-3 of each
query, and a heapq event loop of the oracle policy (token steps of 25 ms, one retrieval per sentence
issued at its start, stall at the slot until the document arrived). Prints one JSON object."""
import heapq
import json
import sys
import time

import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer


def main():
    d = sys.argv[1]
    docs = open(d + "/docs.txt").read().split("\n")[:-1]
    queries = open(d + "/queries.txt").read().split("\n")[:-1]
    vec = TfidfVectorizer(token_pattern=r"[a-z0-9]+", lowercase=True)
    X = vec.fit_transform(docs).T.tocsr()  # terms x docs
    t0 = time.perf_counter()
    tops = []
    for q in queries:
        s = (vec.transform([q]) @ X).toarray().ravel()
        top = np.argpartition(-s, 3)[:3]
        tops.append(top[np.argsort(-s[top])][0])
    tfidf_ms = 1000 * (time.perf_counter() - t0)
    sim = []
    for line in open(d + "/sim.txt"):
        v = line.split()
        n, S = int(v[0]), int(v[1])
        sents = [(int(v[2 + 3 * i]), int(v[3 + 3 * i]), int(v[4 + 3 * i])) for i in range(S)]
        lat = [float(x) for x in v[2 + 3 * S:]]
        sim.append((n, sents, lat))
    t0 = time.perf_counter()
    total = 0.0
    for n, sents, lat in sim:
        starts = {s: (slot, doc) for s, slot, doc in sents}
        slots = {slot: doc for s, slot, doc in sents}
        heap, ctx, T, j = [], set(), 0.0, 0
        for t in range(n):
            if t in starts:
                heapq.heappush(heap, (T + lat[j % len(lat)], starts[t][1]))
                j += 1
            while heap and heap[0][0] <= T:
                ctx.add(heapq.heappop(heap)[1])
            if t in slots and slots[t] not in ctx:
                while heap and slots[t] not in ctx:
                    a, doc = heapq.heappop(heap)
                    T = max(T, a)
                    ctx.add(doc)
                    while heap and heap[0][0] <= T:
                        ctx.add(heapq.heappop(heap)[1])
            T += 25.0
        total += T
    sim_ms = 1000 * (time.perf_counter() - t0)
    print(json.dumps({"tfidf_ms": tfidf_ms, "sim_ms": sim_ms,
                      "sim_mean": total / len(sim)}))


if __name__ == "__main__":
    main()
