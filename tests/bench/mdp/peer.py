#!/usr/bin/env python3
"""Peer of bench_mdp (numpy/scipy, single thread).

metric FILE SWEEPS: the Ferns metric d <- max_a |R_s - R_t| + gamma W1_d(P_s, P_t) from d = 0 for
SWEEPS sweeps, each W1 by scipy.optimize.linprog (HiGHS) on the supports; prints the time per sweep
and d after the sweeps.
chains FILE N REPS SEED: REPS chains of N transitions under the file's policy from the stationary
law, vectorised over repetitions (one numpy step for all chains), and the empirical risk of a fixed
per-transition loss table; prints the time and the mean empirical risk.
sac UPDATES HIDDEN BATCH SEED: soft actor-critic updates (twin critics with Polyak targets,
tanh-Gaussian actor, temperature) in numpy with hand-written backprop, the same sizes and steps as
engines/mdp/SacAgent on a buffer of random pendulum transitions; prints the time per update.
"""
import json
import sys
import time

import numpy as np
from scipy.optimize import linprog


def load(path):
    d = json.load(open(path))
    S, A = d["states"], d["actions"]
    P = np.zeros((A, S, S))
    R = np.zeros((S, A))
    for s, a, t, p in d["P"]:
        P[a, s, t] += p
    for s, a, r in d["R"]:
        R[s, a] = r
    pol = np.zeros((S, A))
    for s, a, p in d.get("policy", []):
        pol[s, a] += p
    return S, A, P, R, pol


def w1(p, q, D):
    i, j = np.nonzero(p)[0], np.nonzero(q)[0]
    if len(i) == 1 or len(j) == 1:
        return float(p[i] @ D[np.ix_(i, j)] @ q[j])
    n, m = len(i), len(j)
    A = np.vstack([np.kron(np.eye(n), np.ones(m)), np.kron(np.ones(n), np.eye(m))])
    r = linprog(D[np.ix_(i, j)].ravel(), A_eq=A[:-1], b_eq=np.concatenate([p[i], q[j]])[:-1],
                bounds=(0, None), method="highs")
    return r.fun


def metric(path, sweeps, gamma=0.9):
    S, A, P, R, _ = load(path)
    d = np.zeros((S, S))
    t0 = time.perf_counter()
    for _ in range(sweeps):
        nd = np.zeros((S, S))
        for s in range(S):
            for t in range(s + 1, S):
                nd[s, t] = nd[t, s] = max(abs(R[s, a] - R[t, a]) + gamma * w1(P[a, s], P[a, t], d) for a in range(A))
        d = nd
    ms = (time.perf_counter() - t0) * 1000 / sweeps
    print(json.dumps({"ms_per_sweep": ms, "d": d.tolist()}))


def chains(path, n, reps, seed, gamma=0.5):
    S, A, P, R, pol = load(path)
    rng = np.random.default_rng(seed)
    J = np.einsum("sa,ast->sat", pol, P).reshape(S, A * S)  # joint law of (a, s') per state
    cum = np.cumsum(J, axis=1)
    Pb = J.reshape(S, A, S).sum(1)
    w, v = np.linalg.eig(Pb.T)
    pi = np.real(v[:, np.argmin(abs(w - 1))])
    pi /= pi.sum()
    loss = np.repeat(np.minimum(1.0, R ** 2), S, axis=1)  # critic h = 0, sigma = 0: min(1, r^2)
    t0 = time.perf_counter()
    s = np.searchsorted(np.cumsum(pi), rng.random(reps), side="right").clip(0, S - 1)
    acc = np.zeros(reps)
    for _ in range(n):
        u = rng.random(reps) * cum[s, -1]
        k = (cum[s] <= u[:, None]).sum(1).clip(0, A * S - 1)
        acc += loss[s, k]
        s = k % S
    ms = (time.perf_counter() - t0) * 1000
    print(json.dumps({"ms": ms, "mean_empirical_risk": float(acc.mean() / n)}))


def sac(updates, hidden, batch, seed, lr=1e-3, gamma=0.99, tau=0.005):
    rng = np.random.default_rng(seed)
    N = 5000
    th = rng.uniform(-np.pi, np.pi, N); td = rng.uniform(-8, 8, N)
    obs = np.stack([np.cos(th), np.sin(th), td], 1)
    act = rng.uniform(-2, 2, (N, 1)); rew = -rng.random((N, 1)); nxt = obs[rng.permutation(N)]

    def glorot(i, o):
        a = np.sqrt(6 / (i + o)); return rng.uniform(-a, a, (i, o))

    def net(i, o):
        return [glorot(i, hidden), np.zeros(hidden), glorot(hidden, hidden), np.zeros(hidden), glorot(hidden, o), np.zeros(o)]

    def fwd(p, x):
        h1 = np.maximum(x @ p[0] + p[1], 0); h2 = np.maximum(h1 @ p[2] + p[3], 0)
        return h2 @ p[4] + p[5], (x, h1, h2)

    def bwd(p, cache, g):  # grads of params and of the input
        x, h1, h2 = cache
        gW3 = h2.T @ g; gb3 = g.sum(0); g2 = (g @ p[4].T) * (h2 > 0)
        gW2 = h1.T @ g2; gb2 = g2.sum(0); g1 = (g2 @ p[2].T) * (h1 > 0)
        return [x.T @ g1, g1.sum(0), gW2, gb2, gW3, gb3], g1 @ p[0].T

    class Adam:
        def __init__(self, ps): self.m = [np.zeros_like(q) for q in ps]; self.v = [np.zeros_like(q) for q in ps]; self.t = 0
        def step(self, ps, gs):
            self.t += 1
            for q, g, m, v in zip(ps, gs, self.m, self.v):
                m *= 0.9; m += 0.1 * g; v *= 0.999; v += 0.001 * g * g
                q -= lr * (m / (1 - 0.9 ** self.t)) / (np.sqrt(v / (1 - 0.999 ** self.t)) + 1e-8)

    actor = net(3, 2); q1 = net(4, 1); q2 = net(4, 1)
    t1 = [w.copy() for w in q1]; t2 = [w.copy() for w in q2]
    oa, o1, o2 = Adam(actor), Adam(q1), Adam(q2)
    log_alpha, ma, va = 0.0, 0.0, 0.0

    def sample(x):
        out, cache = fwd(actor, x)
        mu, s = out[:, :1], out[:, 1:]
        ts = np.tanh(s); logsd = -5 + 3.5 * (ts + 1); sd = np.exp(logsd)
        eps = rng.standard_normal(mu.shape); u = mu + sd * eps; tu = np.tanh(u)
        logp = -0.5 * eps ** 2 - 0.5 * np.log(2 * np.pi) - logsd - np.log(2) - 2 * (np.log(2) - u - np.logaddexp(0, -2 * u))
        return 2 * tu, logp, (cache, ts, sd, eps, u, tu)

    t0 = time.perf_counter()
    for k in range(updates):
        idx = rng.integers(0, N, batch)
        S, A, R, S2 = obs[idx], act[idx], rew[idx], nxt[idx]
        alpha = np.exp(log_alpha)
        a2, lp2, _ = sample(S2)
        x2 = np.hstack([S2, a2])
        y = R + gamma * (np.minimum(fwd(t1, x2)[0], fwd(t2, x2)[0]) - alpha * lp2)
        x = np.hstack([S, A])
        for q, o in ((q1, o1), (q2, o2)):
            v, c = fwd(q, x)
            g, _ = bwd(q, c, 2 * (v - y) / batch)
            o.step(q, g)
        a, lp, (ca, ts, sd, eps, u, tu) = sample(S)
        xa = np.hstack([S, a])
        v1, c1 = fwd(q1, xa); v2, c2 = fwd(q2, xa)
        pick = (v1 <= v2).astype(float)
        _, gx1 = bwd(q1, c1, -pick / batch); _, gx2 = bwd(q2, c2, -(1 - pick) / batch)
        ga = (gx1 + gx2)[:, 3:]
        # d/du of 2 tanh u and of log p (through u and log sd); alpha * logp / batch
        glp = alpha / batch
        # log p = ... − log sd + 2u + 2 softplus(−2u) + const: d/du = 2 − 4σ(−2u)·... = 2 tanh(u)
        dlogp_du = 2 * np.tanh(u)
        gu = ga * 2 * (1 - tu ** 2) + glp * dlogp_du
        gmu = gu
        glogsd = gu * sd * eps - glp
        gs = glogsd * 3.5 * (1 - ts ** 2)
        gact, _ = bwd(actor, ca, np.hstack([gmu, gs]))
        oa.step(actor, gact)
        g_alpha = -(lp.mean() - 1.0)
        ma = 0.9 * ma + 0.1 * g_alpha; va = 0.999 * va + 0.001 * g_alpha ** 2
        log_alpha -= lr * (ma / (1 - 0.9 ** (k + 1))) / (np.sqrt(va / (1 - 0.999 ** (k + 1))) + 1e-8)
        for t, q in ((t1, q1), (t2, q2)):
            for w, wq in zip(t, q):
                w *= 1 - tau; w += tau * wq
    ms = (time.perf_counter() - t0) * 1000 / updates
    print(json.dumps({"ms_per_update": ms}))


if __name__ == "__main__":
    if sys.argv[1] == "metric":
        metric(sys.argv[2], int(sys.argv[3]))
    elif sys.argv[1] == "sac":
        sac(int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]))
    else:
        chains(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]))
