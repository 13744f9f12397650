#!/usr/bin/env python3
"""Writes the generated example inputs of resources/examples/ (standard library only).

Deterministic: every file depends only on the fixed seeds below, so running it again gives the
same bytes. Run from anywhere: resources/examples/make-examples.py. The outputs are committed;
nothing in the build or the tests runs this script.

- torus-graph/coupled-oscillators.csv and the set torus-graph/oscillators-on-electrodes/:
  phases of six noisy Kuramoto oscillators (two coupled groups and one free oscillator);
- tilesparse/decode-step/: Q, K, V of one attention decode step whose keys come in topic runs;
- curve-scene-graph/two-cities.jsonl: road scenes labelled by the panel's invariant rules, with a
  background-object cue that is predictive in the training cities and reversed out of distribution;
- promise-protein-states/*: the NMR ensemble 1NI7 without hydrogens and the crystal structure 5EEP,
  taken from Debian's tm-align examples (/usr/share/doc/tm-align/examples) when that is installed;
- behavioral-abstraction/*.json, pac-bayes-sac/*.json: small JSON MDPs (one entry per line).
- continual-forgetting/*: XOR-cluster tasks (task,y,x1..x8), orthogonal and overlapping;
- eefp-early-exit/synthetic-4-exits/: logits [N, K, C] of a made-up 4-exit network, labels, manifest.
- inslen-hallucination/synthetic-captions/: an LM head and 10 caption archives of made-up states;
- sae-domain-ood/three-domains/: activations [3, 150, 8] of three made-up domains, texts, SAEs;
- tests/data/bad/inslen-hallucination-*.npz, sae-domain-ood-*: bad files of those two panels.
- fafo-decoding/copy-prompts.txt: token-id prompts (V = 128) that repeat a segment at distances 60-300;
  fafo-decoding/random-transformer/: a small random 2-layer transformer (.safetensors, F32) and prompts.
- aporia-hallucination/*: templated answers to made-up fact prompts (JSONL, all labelled) and a set
  with matching embeddings (Gaussian around a prompt direction, genuine tighter);
- negative-label-ood/tiny-clip.npz: a CLIP-like toy (ID labels, negatives, images, is_id).
- specexit-decoding/random-mlp-lm/: a small random mlp_lm target (.safetensors, F32) and prompts;
  specexit-decoding/trace-prompts.txt: `Q a1 a2 a3 ;` prompts (sums mod 10) for the built-in target;
  tests/data/bad/specexit-decoding-*: bad files of that panel.
- olaf-world/three-rooms/: 24 SpriteWorld-like clips in three contexts with contexts.csv and actions.csv;
  tests/data/bad/olaf-world-*, tests/data/olaf-world/: bad files and mismatched frame sizes of that panel.
- deepha-agent/river-crossing.txt: a CraftGrid map whose diamonds sit on an island (infeasible task);
  deepha-agent/bronze-age/: a small recipe book of our own and a map for it;
  tests/data/bad/deepha-agent-*: bad recipe books and maps of that panel.
- lavid-distillation/six-classes/: class signatures (JSON), questions (.txt) and 40-d features (CSV)
  of six made-up bird classes; tests/data/bad/lavid-distillation-*: bad files of that panel.
- gemq-moe-quant/made-up-importance.csv: an importance table (layer,expert,bits,cost,params) of a
  made-up 8 x 8 MoE; gemq-moe-quant/random-moe-lm/: a small random moe_lm (.safetensors, F32) and
  calibration token ids; tests/data/bad/gemq-moe-quant-*: bad files of that panel.
"""
import gzip
import json
import math
import os
import random
import shutil
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def out(*parts):
    path = os.path.join(HERE, *parts)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    return path


def write_npy(path, rows, dtype="<f4"):
    """A C-order 2-d .npy (format 1.0) of float32 or float64 values."""
    shape = (len(rows), len(rows[0]))
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%d, %d), }" % (dtype, *shape)
    pad = 64 - (10 + len(header) + 1) % 64
    header += " " * pad + "\n"
    code = "f" if dtype == "<f4" else "d"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1"))
        for r in rows:
            f.write(struct.pack("<%d%s" % (len(r), code), *r))


# ---------------------------------------------------------------- torus-graph
def oscillators():
    """Six Kuramoto oscillators with phase noise, Euler-Maruyama at dt = 4 ms, thinned by 50.

    Couplings: 1-2, 2-3, 1-3 (strong group), 4-5 (weaker pair), 6 free. Natural frequencies near
    6 Hz; one sample every 0.2 s, 2000 samples.
    """
    rng = random.Random(20261201)
    d, dt, thin, n = 6, 0.004, 50, 2000
    omega = [2 * math.pi * f for f in (5.8, 6.0, 6.3, 5.5, 5.9, 6.6)]
    K = [[0.0] * d for _ in range(d)]
    for (i, j, k) in ((0, 1, 2.0), (1, 2, 2.0), (0, 2, 1.5), (3, 4, 1.2)):
        K[i][j] = K[j][i] = k
    sigma = 1.6
    theta = [rng.uniform(0, 2 * math.pi) for _ in range(d)]
    rows = []
    step = 0
    while len(rows) < n:
        drift = [omega[i] + sum(K[i][j] * math.sin(theta[j] - theta[i]) for j in range(d)) for i in range(d)]
        theta = [theta[i] + drift[i] * dt + sigma * math.sqrt(dt) * rng.gauss(0, 1) for i in range(d)]
        step += 1
        if step % thin == 0:
            rows.append([t % (2 * math.pi) for t in theta])
    return rows


def write_torus():
    rows = oscillators()
    names = ["osc%d" % (k + 1) for k in range(6)]
    comment = ("# Phases (radians) of six noisy Kuramoto oscillators, written by "
               "resources/examples/make-examples.py.\n"
               "# Coupled: osc1-osc2, osc2-osc3, osc1-osc3 (strong), osc4-osc5 (weaker); osc6 is free.\n")
    body = ",".join(names) + "\n" + "".join(",".join("%.6f" % v for v in r) + "\n" for r in rows)
    with open(out("torus-graph", "coupled-oscillators.csv"), "w") as f:
        f.write(comment + body)
    # The same phases with electrode positions (x, y in cm on a 10-20-like layout).
    with open(out("torus-graph", "oscillators-on-electrodes", "1-phases.csv"), "w") as f:
        f.write(comment + body)
    with open(out("torus-graph", "oscillators-on-electrodes", "2-electrodes.csv"), "w") as f:
        f.write("# Electrode positions (x, y in cm) of the six channels of 1-phases.csv, one row each.\n")
        f.write("x,y\n")
        for x, y in ((-3, 6), (0, 7), (3, 6), (-5, 0), (5, 0), (0, -6)):
            f.write("%d,%d\n" % (x, y))


# ---------------------------------------------------------------- tilesparse
def write_tilesparse():
    """One decode step: 16 query heads, 1024 keys of dimension 64 in runs of 8 topics.

    Each head prefers two topics; keys of a run share a topic direction plus noise. V holds the
    first 64 coordinates of a second random projection of the keys (MLA-like latent values).
    """
    rng = random.Random(7)
    heads, tokens, d, topics = 16, 1024, 64, 8

    def unit():
        v = [rng.gauss(0, 1) for _ in range(d)]
        s = math.sqrt(sum(x * x for x in v))
        return [x / s for x in v]

    topic = [unit() for _ in range(topics)]
    K = []
    while len(K) < tokens:
        run = max(4, int(rng.expovariate(1 / 48)))
        tp = rng.randrange(topics)
        for _ in range(min(run, tokens - len(K))):
            noise = unit()
            K.append([2.0 * topic[tp][k] + 0.6 * noise[k] for k in range(d)])
    Q = []
    for h in range(heads):
        a, b = h % topics, (3 * h + 1) % topics
        noise = unit()
        Q.append([3.0 * topic[a][k] + 2.0 * topic[b][k] + 0.5 * noise[k] for k in range(d)])
    W = [[rng.gauss(0, 1 / math.sqrt(d)) for _ in range(d)] for _ in range(d)]
    V = [[sum(row[k] * W[k][j] for k in range(d)) for j in range(d)] for row in K]
    write_npy(out("tilesparse", "decode-step", "1-queries.npy"), Q)
    write_npy(out("tilesparse", "decode-step", "2-keys.npy"), K)
    write_npy(out("tilesparse", "decode-step", "3-values.npy"), V)


# ---------------------------------------------------------------- curve-scene-graph
AGENT_TYPES = ("car", "pedestrian", "cyclist")


def relation(a, b):
    """The panel's invariant rules (help.md): approaching, else following, else none."""
    px, py = b["x"] - a["x"], b["y"] - a["y"]
    vx, vy = b["vx"] - a["vx"], b["vy"] - a["vy"]
    vv = vx * vx + vy * vy
    t = 0.0 if vv == 0 else min(3.0, max(0.0, -(px * vx + py * vy) / vv))
    dmin = math.hypot(px + vx * t, py + vy * t)
    limit = 2.0 if a["type"] == "car" and b["type"] == "car" else 1.5
    if dmin < limit:
        return "approaching"
    sa, sb = math.hypot(a["vx"], a["vy"]), math.hypot(b["vx"], b["vy"])
    if sa > 0 and sb > 0:
        cos = (a["vx"] * b["vx"] + a["vy"] * b["vy"]) / (sa * sb)
        ux, uy = a["vx"] / sa, a["vy"] / sa
        ahead = px * ux + py * uy
        lateral = abs(-px * uy + py * ux)
        if cos > 0.9 and 3 <= ahead <= 20 and lateral <= 1.5:
            return "following"
    return "none"


def scene(rng, env, split, rho, speed_up):
    objs = [{"id": "ego", "type": "car", "x": 0.0, "y": -1.75, "vx": 10.0 + speed_up, "vy": 0.0}]
    for k in range(rng.randint(3, 5)):
        kind = rng.choice(AGENT_TYPES)
        if kind == "car":
            lane = rng.choice((-1.75, 1.75))
            v = (rng.uniform(6, 12) + speed_up) * (1 if lane < 0 else -1)
            o = {"x": rng.uniform(-10, 40), "y": lane + rng.uniform(-0.3, 0.3), "vx": v, "vy": 0.0}
        else:
            o = {"x": rng.uniform(5, 35), "y": rng.choice((-5.0, 5.0)), "vx": rng.uniform(-0.5, 0.5),
                 "vy": rng.uniform(0.8, 2.0) * (1 if rng.random() < 0.5 else -1)}
            if kind == "cyclist":
                o["vx"], o["vy"] = o["vy"] * 2.5, o["vx"]
        objs.append({"id": "a%d" % (k + 1), "type": kind, **o})
    rels, involved = [], set()
    for a in objs:
        for b in objs:
            if a is not b:
                r = relation(a, b)
                if r != "none":
                    rels.append({"source": a["id"], "target": b["id"], "relation": r})
                    if r == "approaching":
                        involved.update((a["id"], b["id"]))
    # The spurious cue: a kiosk next to agents in an approaching pair with probability rho.
    n_bg = 0
    for a in list(objs):  # the agents only, not the kiosks added below
        p = rho if a["id"] in involved else 1 - rho
        if rng.random() < p:
            n_bg += 1
            objs.append({"id": "kiosk%d" % n_bg, "type": "background", "x": a["x"] + rng.uniform(-2, 2),
                         "y": a["y"] + rng.uniform(-2, 2)})
    rain = rng.random() < (rho if involved else 1 - rho)
    objs.append({"id": "sky", "type": "weather", "rain": int(rain)})
    for o in objs:
        for k in ("x", "y", "vx", "vy"):
            if k in o:
                o[k] = round(o[k], 2)
    return {"env": env, "split": split, "objects": objs, "relations": rels}


def dump(obj):
    return json.dumps(obj, separators=(",", ":"))


def write_curve():
    rng = random.Random(11)
    lines = ["# Road scenes for curve-scene-graph, written by resources/examples/make-examples.py.",
             "# Relations follow the panel's invariant rules; kiosks sit next to colliding agents with",
             "# probability 0.9 in city-A and 0.75 in city-B (training) but 0.1 in city-C (test_ood)."]
    plan = [("city-A", "train", 0.9, 0, 60), ("city-B", "train", 0.75, 0, 60),
            ("city-A", "test_id", 0.9, 0, 15), ("city-B", "test_id", 0.75, 0, 15),
            ("city-C", "test_ood", 0.1, 5, 40)]
    for env, split, rho, speed_up, count in plan:
        for _ in range(count):
            lines.append(dump(scene(rng, env, split, rho, speed_up)))
    with open(out("curve-scene-graph", "two-cities.jsonl"), "w") as f:
        f.write("\n".join(lines) + "\n")


# ---------------------------------------------------------------- promise-protein-states
def write_protein():
    src = "/usr/share/doc/tm-align/examples"
    if not os.path.isdir(src):
        print("skipping the protein examples: %s not found (Debian package tm-align)" % src)
        return
    with gzip.open(os.path.join(src, "1ni7.pdb.gz"), "rt") as f:
        lines = f.read().splitlines(keepends=True)

    def heavy(line):  # hydrogens go; MASTER would count them
        return not (line.startswith("ATOM") and line[76:78].strip() == "H") and not line.startswith("MASTER")

    def write_gz(path, text):
        with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as g:
            g.write(text.encode("ascii"))

    write_gz(out("promise-protein-states", "1ni7-nmr-ensemble.pdb.gz"), "".join(l for l in lines if heavy(l)))
    # Models 1-5 only, for the pair example (scored against 5EEP).
    kept, model = [], 0
    for line in lines:
        if line.startswith("MODEL"):
            model += 1
        if heavy(line) and (model <= 5 or not line.startswith(("MODEL", "ATOM", "TER", "ENDMDL"))):
            if not line.startswith("NUMMDL"):
                kept.append(line)
    write_gz(out("promise-protein-states", "1ni7-models-vs-5eep", "1-1ni7-models-1-5.pdb.gz"), "".join(kept))
    shutil.copyfile(os.path.join(src, "5eep.pdb.gz"),
                    out("promise-protein-states", "1ni7-models-vs-5eep", "2-5eep.pdb.gz"))

# ---------------------------------------------------------------- continual-forgetting
def xor_task_rows(rng, task, means, n, sigma, d):
    """n rows task,y,x1..xd: clusters +-means[0] (y = +1), +-means[1] (y = -1) plus noise."""
    rows = []
    for _ in range(n):
        c = rng.randrange(4)
        mu = means[c // 2]
        sign = 1.0 if c % 2 == 0 else -1.0
        x = [sign * mu[j] + rng.gauss(0.0, sigma) for j in range(d)]
        rows.append("%d,%d," % (task, 1 if c < 2 else -1) + ",".join("%.6f" % v for v in x))
    return rows


def write_forgetting():
    d = 8
    e = [[1.0 if j == i else 0.0 for j in range(d)] for i in range(d)]
    header = "task,y," + ",".join("x%d" % (j + 1) for j in range(d))
    for name, seed in (("1-train.csv", 171), ("2-test.csv", 172)):
        rng = random.Random(seed)
        rows = [header]
        for k in range(3):
            rows += xor_task_rows(rng, k + 1, (e[2 * k], e[2 * k + 1]), 100, 0.3, d)
        with open(out("continual-forgetting", "three-xor-tasks", name), "w") as f:
            f.write("\n".join(rows) + "\n")
    rng = random.Random(173)
    shared = [(e[0][j] + e[2][j]) / math.sqrt(2.0) for j in range(d)]
    rows = ["# two XOR tasks in d = 8 whose means share the direction x1 (not orthogonal)", header]
    rows += xor_task_rows(rng, 1, (e[0], e[1]), 100, 0.1, d)
    rows += xor_task_rows(rng, 2, (shared, e[3]), 100, 0.1, d)
    with open(out("continual-forgetting", "overlapping-tasks.csv"), "w") as f:
        f.write("\n".join(rows) + "\n")


# ---------------------------------------------------------------- eefp-early-exit
def write_npy_nd(path, shape, values, dtype):
    """A C-order .npy (format 1.0) of any shape, '<f4' or '<i8'."""
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        dtype, ", ".join(str(s) for s in shape) + ("," if len(shape) == 1 else ""))
    pad = 64 - (10 + len(header) + 1) % 64
    header += " " * pad + "\n"
    code = {"<f4": "f", "<i8": "q"}[dtype]
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1"))
        f.write(struct.pack("<%d%s" % (len(values), code), *values))


def write_eefp():
    """Logits of a made-up 4-exit, 10-class network: each sample has a difficulty u; exit k's
    logit of the true class grows with depth and shrinks with u, plus Gaussian noise."""
    rng = random.Random(174)
    N, K, C = 1000, 4, 10
    logits, labels = [], []
    for _ in range(N):
        y = rng.randrange(C)
        u = rng.random()
        labels.append(y)
        base = [rng.gauss(0.0, 1.0) for _ in range(C)]
        for k in range(K):
            signal = (1.0 + 1.2 * k) * (1.2 - u) * 1.5
            for c in range(C):
                logits.append(0.6 * base[c] + rng.gauss(0.0, 1.0) + (signal if c == y else 0.0))
    folder = ("eefp-early-exit", "synthetic-4-exits")
    write_npy_nd(out(*folder, "logits.npy"), (N, K, C), logits, "<f4")
    write_npy_nd(out(*folder, "labels.npy"), (N,), labels, "<i8")
    manifest = {"logits": "logits.npy", "labels": "labels.npy", "flops": [1.0, 2.0, 3.0, 4.0]}
    with open(out(*folder, "1-network.eenn.json"), "w") as f:
        f.write(json.dumps(manifest, indent=2) + "\n")


def unit_rows(rng, k, d):
    rows = []
    for _ in range(k):
        v = [abs(rng.gauss(0, 1)) for _ in range(d)]
        n = math.sqrt(sum(x * x for x in v))
        rows.append([x / n for x in v])
    return rows


def write_fair_bandits():
    """Arm sets for fair-linear-bandits: non-negative unit arms, a positive unit theta*."""
    rng = random.Random(2301)
    theta = [0.6, 0.5, 0.4, 0.3, 0.2, 0.1]
    arms = unit_rows(rng, 20, 4)
    t4 = theta[:4]
    n4 = math.sqrt(sum(x * x for x in t4))
    with open(out("fair-linear-bandits", "unit-arms.csv"), "w", newline="\n") as f:
        f.write("x1,x2,x3,x4,mu\n")
        for a in arms:
            mu = sum(x * t / n4 for x, t in zip(a, t4))
            f.write(",".join("%.6f" % x for x in a) + ",%.6f\n" % mu)
    arms = unit_rows(rng, 30, 6)
    n6 = math.sqrt(sum(x * x for x in theta))
    with open(out("fair-linear-bandits", "arms-with-theta", "1-arms.csv"), "w", newline="\n") as f:
        f.write("f1,f2,f3,f4,f5,f6\n")
        for a in arms:
            f.write(",".join("%.6f" % x for x in a) + "\n")
    with open(out("fair-linear-bandits", "arms-with-theta", "2-theta.csv"), "w", newline="\n") as f:
        f.write("t1,t2,t3,t4,t5,t6\n" + ",".join("%.6f" % (t / n6) for t in theta) + "\n")


def write_boba():
    """A small scored library for boba-screening: 40 scaffolds x 120 decorations, 32-bit fingerprints
    (hex), score = scaffold effect + decoration effect + noise."""
    rng = random.Random(2302)
    fa = [rng.getrandbits(16) & rng.getrandbits(16) for _ in range(40)]
    fb = [rng.getrandbits(16) & rng.getrandbits(16) for _ in range(120)]
    ua = [rng.gauss(0, 1) for _ in range(40)]
    vb = [0.5 * bin(f).count("1") / 4.0 + rng.gauss(0, 0.3) for f in fb]
    with open(out("boba-screening", "scaffold-library.csv"), "w", newline="\n") as f:
        f.write("id,partition_key,fingerprint,score\n")
        for a in range(40):
            for b in range(120):
                fp = (fa[a] << 16) | fb[b]
                f.write("C%03d-%03d,scaffold%02d,%08x,%.4f\n" % (a, b, a, fp, ua[a] + vb[b] + rng.gauss(0, 0.1)))
def write_mdp_json(path, states, actions, P, R, labels, policy=None, critic=None):
    """A JSON MDP with one transition, reward or policy entry per line."""
    def rows(name, items):
        return '  "%s": [\n' % name + ",\n".join("    " + json.dumps(x) for x in items) + "\n  ]"
    parts = ['  "states": %d' % states, '  "actions": %d' % actions, rows("P", P), rows("R", R),
             '  "labels": ' + json.dumps(labels)]
    if policy is not None:
        parts.append(rows("policy", policy))
    if critic is not None:
        parts.append('  "critic": ' + json.dumps(critic))
    with open(path, "w") as f:
        f.write("{\n" + ",\n".join(parts) + "\n}\n")


def write_mdp():
    # Aliased chain: 0 -> 1 -> ... -> 5 (goal), with states 6..9 copies of 1..4 (aliases) that
    # behave identically; action 1 slips back. Bisimulation merges each state with its alias.
    P, R = [], []
    succ = {0: 1, 1: 2, 2: 3, 3: 4, 4: 5, 6: 7, 7: 8, 8: 9, 9: 5}
    alias = {6: 1, 7: 2, 8: 3, 9: 4}
    for s in range(10):
        if s == 5:
            P += [[5, 0, 5, 1.0], [5, 1, 5, 1.0]]
            continue
        nxt = succ[s]
        P.append([s, 0, nxt, 0.8])
        P.append([s, 0, s, 0.2])
        back = 0 if s in (0, 1, 6) else (s - 1)
        P.append([s, 1, back, 1.0])
        depth = alias.get(s, s)
        R.append([s, 0, 1.0 if nxt == 5 else 0.0])
        R.append([s, 1, 0.1 * depth])
    write_mdp_json(out("behavioral-abstraction", "aliased-chain.json"), 10, 2, P, R,
                   {"goal": [5], "safe": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]})
    # Two mirrored rooms joined by a door cell (state 0); rooms 1-4 and 5-8 mirror each other;
    # 4 and 8 are traps (absorbing, not safe); 3 and 7 are goals (absorbing, reward 1 to enter).
    P, R = [], []
    room = {1: (2, 4), 2: (3, 1), 3: (3, 3), 4: (4, 4)}
    for a in (0, 1):
        P += [[0, a, 1, 0.5], [0, a, 5, 0.5]]
        R.append([0, a, 0.0])
    for base in (0, 4):
        for s, (fwd, side) in room.items():
            st = s + base
            if s in (3, 4):
                P += [[st, 0, st, 1.0], [st, 1, st, 1.0]]
                continue
            P += [[st, 0, fwd + base, 0.9], [st, 0, st, 0.1], [st, 1, side + base, 0.7], [st, 1, 0, 0.3]]
            R.append([st, 0, 0.9 if fwd == 3 else (-0.9 if fwd == 4 else 0.0)])
            R.append([st, 1, -0.7 if side == 4 else 0.0])
    write_mdp_json(out("behavioral-abstraction", "mirrored-rooms.json"), 9, 2, P, R,
                   {"goal": [3, 7], "safe": [0, 1, 2, 3, 5, 6, 7]})


def write_pac_bayes():
    # Sticky 12-state ring (the panel's ring world with 2 actions, kappa = 0.9), its behaviour policy
    # and a data-independent critic initialisation h0 = mean reward / (1 - 0.5).
    N, kappa, jump = 12, 0.9, 3
    P, R, pol = [], [], []
    for s in range(N):
        r = round(0.5 * (1 + math.cos(2 * math.pi * s / N)), 6)
        for e, pe in ((-1, 0.25), (0, 0.5), (1, 0.25)):
            P.append([s, 0, (s + e) % N, pe])
            P.append([s, 1, (s + jump + e) % N, pe / 2])
            P.append([s, 1, (s - jump + e) % N, pe / 2])
        R += [[s, 0, r], [s, 1, r]]
        pol += [[s, 0, kappa], [s, 1, round(1 - kappa, 12)]]
    write_mdp_json(out("pac-bayes-sac", "sticky-ring.json"), N, 2, P, R, {"goal": [0]}, pol, [1.0] * N)


# ---------------------------------------------------------------- lif-mmwave

def write_lif():
    """120 micro-Doppler-like sequences (64 frames x 4 channels, 3 classes at 20 Hz): each class a
    low-frequency modulation with its own channel pattern, plus high-frequency clutter and a few
    NaN (dropped) frames."""
    rng = random.Random(18)
    n, t_len, chans, classes = 120, 64, 4, 3
    pattern = [[(0.5 + 0.1 * k, [math.cos(0.9 * c * (k + 1)) for c in range(chans)]) for k in range(2)]
               for _ in range(classes)]
    freqs = [[0.03 + 0.015 * c + 0.01 * k for k in range(2)] for c in range(classes)]
    x, y = [], []
    for i in range(n):
        cls = i % classes
        y.append(cls)
        ph = [rng.uniform(0, 2 * math.pi) for _ in range(2)]
        for t in range(t_len):
            dropped = rng.random() < 0.03
            for c in range(chans):
                v = sum(amp * w[c] * math.sin(2 * math.pi * freqs[cls][k] * t + ph[k])
                        for k, (amp, w) in enumerate(pattern[cls]))
                v += 0.8 * math.sin(2 * math.pi * 0.4 * t + rng.uniform(0, 6.3)) + rng.gauss(0, 0.2)
                x.append(float("nan") if dropped else v)
    folder = ("lif-mmwave", "walking-radar")
    write_npy_nd(out(*folder, "x.npy"), (n, t_len, chans), x, "<f4")
    write_npy_nd(out(*folder, "y.npy"), (n,), y, "<i8")
    with open(out(*folder, "walking.seq.json"), "w") as f:
        f.write('{"x": "x.npy", "y": "y.npy", "fs": 20}\n')


# ---------------------------------------------------------------- equivariant-covariance

def write_equicov():
    """12 point clouds (solid ellipsoids and boxes, 60 points each, randomly turned and moved) with
    the second-moment tensor of each underlying solid for 10 of them (two clouds are left to predict)."""
    rng = random.Random(9)
    clouds, tensors = ["id,x,y,z"], ["id,T11,T22,T33,T23,T13,T12"]
    for k in range(12):
        box = k % 2 == 1
        dims = [rng.uniform(0.5, 2.0) for _ in range(3)]
        q = [rng.gauss(0, 1) for _ in range(4)]
        n = math.sqrt(sum(v * v for v in q))
        w, x, y, z = (v / n for v in q)
        rot = [[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
               [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
               [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]]
        shift = [rng.uniform(-3, 3) for _ in range(3)]
        name = "%s-%02d" % ("box" if box else "ellipsoid", k)
        got = 0
        while got < 60:
            u = [rng.uniform(-1, 1) for _ in range(3)]
            if not box and sum(v * v for v in u) > 1:
                continue
            p = [u[i] * dims[i] * (0.5 if box else 1.0) for i in range(3)]
            r = [sum(rot[i][j] * p[j] for j in range(3)) + shift[i] for i in range(3)]
            clouds.append("%s,%.6f,%.6f,%.6f" % (name, *r))
            got += 1
        lam = [d * d / (12.0 if box else 5.0) for d in dims]
        t = [[sum(rot[i][m] * lam[m] * rot[j][m] for m in range(3)) for j in range(3)] for i in range(3)]
        if k < 10:
            tensors.append("%s,%.8f,%.8f,%.8f,%.8f,%.8f,%.8f" % (name, t[0][0], t[1][1], t[2][2], t[1][2], t[0][2], t[0][1]))
    folder = ("equivariant-covariance", "turned-solids")
    with open(out(*folder, "1-clouds.csv"), "w") as f:
        f.write("\n".join(clouds) + "\n")
    with open(out(*folder, "2-tensors.csv"), "w") as f:
        f.write("\n".join(tensors) + "\n")


# ---------------------------------------------------------------- inslen-hallucination, sae-domain-ood
def npy_bytes(shape, values, dtype):
    """A C-order .npy (format 1.0) as bytes, '<f8' or '<i8'."""
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        dtype, ", ".join(str(s) for s in shape) + ("," if len(shape) == 1 else ""))
    header += " " * (64 - (10 + len(header) + 1) % 64) + "\n"
    code = {"<f8": "d", "<i8": "q"}[dtype]
    return (b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1") +
            struct.pack("<%d%s" % (len(values), code), *values))


def write_npz(path, arrays, deflate):
    """An np.savez (stored) or np.savez_compressed (deflated) archive of (name, shape, values, dtype)."""
    import zipfile
    mode = zipfile.ZIP_DEFLATED if deflate else zipfile.ZIP_STORED
    with zipfile.ZipFile(path, "w", mode) as z:
        for name, shape, values, dtype in arrays:
            info = zipfile.ZipInfo(name + ".npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = mode
            z.writestr(info, npy_bytes(shape, values, dtype))


def write_inslen():
    """Hidden states of 10 made-up captions (L = 3, d = 8): patch states carry the LM-head rows of
    the scene's objects, instruction states lean towards them; each caption names 4 objects, one
    of which is absent from the scene (hallucinated) and one named at answer position 0 (skipped)."""
    rng = random.Random(2112)
    L, d, V, P, I = 3, 8, 24, 9, 4
    head = [[rng.gauss(0, 1) for _ in range(d)] for _ in range(V)]
    folder = ("inslen-hallucination", "synthetic-captions")
    os.makedirs(out(*folder, "captions"), exist_ok=True)
    with open(out(*folder, "lm_head.npy"), "wb") as f:
        f.write(npy_bytes((V, d), [v for row in head for v in row], "<f8"))
    for c in range(10):
        present = rng.sample(range(V), 3)
        absent = rng.choice([v for v in range(V) if v not in present])
        named = [present[0], present[1], absent, present[2]]
        answer = [named[3], 0, named[0], 1, named[1], named[2], 2, 3]  # named[3] at position 0
        def state(toward, w):
            return [w * (toward[j] if toward else 0) + rng.gauss(0, 1) for j in range(d)]
        image, instr, ans = [], [], []
        for l in range(L):
            w = 0.5 + 0.5 * l
            for p in range(P):
                image += state(head[present[p % 3]] if p < 6 else None, w)
            for i in range(I):
                instr += state(head[present[i % 3]] if i < 3 else None, 0.5 * w)
            for a in range(len(answer)):
                ans += state(head[answer[a + 1]] if a + 1 < len(answer) else None, 0.3 * w)
        labels = [1, 1, 0, 1]
        svar = [rng.random() for _ in answer]
        write_npz(out(*folder, "captions", "caption-%02d.npz" % (c + 1)), [
            ("image_states", (L, P, d), image, "<f8"), ("instr_states", (L, I, d), instr, "<f8"),
            ("answer_states", (L, len(answer), d), ans, "<f8"), ("answer_ids", (len(answer),), answer, "<i8"),
            ("objects", (4,), named, "<i8"), ("labels", (4,), labels, "<i8"), ("svar", (len(answer),), svar, "<f8")],
            deflate=c % 2 == 1)


def write_sae_domains():
    """Pooled activations [L = 3, N = 150, d = 8] of texts from three made-up domains (each a
    Gaussian blob whose centre drifts with the layer), texts.csv (60 % train) and random TopK
    SAEs of width 32 in the Gemma Scope layout."""
    rng = random.Random(1811)
    L, N, d, m = 3, 150, 8, 32
    centres = [[[rng.gauss(0, 1.5) for _ in range(d)] for _ in range(L)] for _ in range(3)]
    dom = [i % 3 for i in range(N)]
    acts = [centres[dom[n]][l][j] + rng.gauss(0, 1) for l in range(L) for n in range(N) for j in range(d)]
    folder = ("sae-domain-ood", "three-domains")
    os.makedirs(out(*folder), exist_ok=True)
    with open(out(*folder, "activations.npy"), "wb") as f:
        f.write(npy_bytes((L, N, d), acts, "<f8"))
    with open(out(*folder, "texts.csv"), "w") as f:
        f.write("id,domain,split\n")
        for n in range(N):
            f.write("text%03d,%s,%s\n" % (n + 1, "news sport science".split()[dom[n]], "train" if n < 90 else "test"))
    g = lambda k: [rng.gauss(0, 1) / math.sqrt(d) for _ in range(k)]
    write_npz(out(*folder, "sae.npz"), [
        ("W_enc", (L, d, m), g(L * d * m), "<f8"), ("b_enc", (L, m), [0.0] * (L * m), "<f8"),
        ("W_dec", (L, m, d), g(L * m * d), "<f8"), ("b_dec", (L, d), [0.0] * (L * d), "<f8")], deflate=True)


def write_hiddenstate_bad():
    """Bad files of the two hidden-state panels in tests/data/bad/ (each exits 3 on its own)."""
    bad = os.path.join(HERE, "..", "..", "tests", "data", "bad")
    ok = lambda: [("image_states", (2, 3, 2), [0.1] * 12, "<f8"), ("instr_states", (2, 2, 2), [0.2] * 8, "<f8"),
                  ("answer_states", (2, 3, 2), [0.3] * 12, "<f8"), ("answer_ids", (3,), [1, 2, 3], "<i8"),
                  ("objects", (1,), [2], "<i8"), ("labels", (1,), [1], "<i8")]
    def variant(name, change):
        arrays = ok()
        change(arrays)
        write_npz(os.path.join(bad, "inslen-hallucination-%s.npz" % name), arrays, deflate=False)
    variant("missing-labels", lambda a: a.pop(5))
    variant("label-two", lambda a: a.__setitem__(5, ("labels", (1,), [2], "<i8")))
    variant("nan-state", lambda a: a.__setitem__(0, ("image_states", (2, 3, 2), [float("nan")] + [0.1] * 11, "<f8")))
    variant("layer-mismatch", lambda a: a.__setitem__(1, ("instr_states", (1, 2, 2), [0.2] * 4, "<f8")))
    variant("width-mismatch", lambda a: a.__setitem__(2, ("answer_states", (2, 3, 1), [0.3] * 6, "<f8")))
    with open(os.path.join(bad, "sae-domain-ood-split.csv"), "w") as f:
        f.write("id,domain,split\na,news,train\nb,sport,validation\n")
    with open(os.path.join(bad, "sae-domain-ood-header.csv"), "w") as f:
        f.write("id,topic,split\na,news,train\n")
    with open(os.path.join(bad, "sae-domain-ood-fields.csv"), "w") as f:
        f.write("id,domain,split\na,news\n")
    with open(os.path.join(bad, "sae-domain-ood-rank2.npy"), "wb") as f:
        f.write(npy_bytes((4, 3), [0.5] * 12, "<f8"))
    write_npz(os.path.join(bad, "sae-domain-ood-sae-shape.npz"), [
        ("W_enc", (2, 3, 4), [0.1] * 24, "<f8"), ("b_enc", (2, 5), [0.0] * 10, "<f8"),
        ("W_dec", (2, 4, 3), [0.1] * 24, "<f8"), ("b_dec", (2, 3), [0.0] * 6, "<f8")], deflate=True)
# ---------------------------------------------------------------- fafo-decoding
def write_safetensors(path, meta, tensors):
    """tensors: name -> (shape, flat values); written as F32, little-endian, sorted by name."""
    header, blobs, off = {"__metadata__": meta}, [], 0
    for name in sorted(tensors):
        shape, vals = tensors[name]
        b = struct.pack("<%df" % len(vals), *vals)
        header[name] = {"dtype": "F32", "shape": list(shape), "data_offsets": [off, off + len(b)]}
        blobs.append(b)
        off += len(b)
    h = json.dumps(header).encode()
    h += b" " * ((8 - len(h) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)) + h + b"".join(blobs))


def write_fafo():
    rng = random.Random(619)
    lines = []
    for dist in (60, 140, 220, 300):
        seg = [rng.randrange(128) for _ in range(32 + dist)]
        lines.append(" ".join(str(t) for t in seg + seg[32:40]))
    with open(out("fafo-decoding", "copy-prompts.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    V, d, P, f_ = 32, 16, 160, 32
    g = lambda n, sd: [rng.gauss(0.0, sd) for _ in range(n)]
    t = {"tok_emb": ((V, d), g(V * d, 1.0)), "pos_emb": ((P, d), g(P * d, 0.5)), "head": ((d, V), g(d * V, 0.5)),
         "ln_f.weight": ((d,), [1.0] * d), "ln_f.bias": ((d,), [0.0] * d)}
    for l in range(2):
        p = "layers.%d." % l
        for w in ("wq", "wk", "wv", "wo"):
            t[p + "attn." + w] = ((d, d), g(d * d, 1.0 / math.sqrt(d)))
        for n in ("ln1", "ln2"):
            t[p + n + ".weight"] = ((d,), [1.0] * d)
            t[p + n + ".bias"] = ((d,), [0.0] * d)
        t[p + "mlp.w1"] = ((d, f_), g(d * f_, 1.0 / math.sqrt(d)))
        t[p + "mlp.b1"] = ((f_,), [0.0] * f_)
        t[p + "mlp.w2"] = ((f_, d), g(f_ * d, 1.0 / math.sqrt(f_)))
        t[p + "mlp.b2"] = ((d,), [0.0] * d)
    folder = ("fafo-decoding", "random-transformer")
    write_safetensors(out(*folder, "model.safetensors"),
                      {"arch": "transformer", "n_layers": "2", "n_heads": "2", "norm": "layernorm", "act": "gelu"}, t)
    lines = []
    for _ in range(3):
        motif = [rng.randrange(V) for _ in range(12)]
        lines.append(" ".join(str(x) for x in motif * 4))
    with open(out(*folder, "prompts.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
def write_care():
    """Two recommenders' CARE streams for care-recsets (1,600 interactions of 80 users over 300
    items; a drift at row 1,250 turns the preferences of half the users), and an increment/reset
    stream for resettable-sketches (8,000 operations: Zipf increments, random resets)."""
    rng = random.Random(2401)
    users, items, d = 80, 300, 4
    uf = [[rng.gauss(0, 1) for _ in range(d)] for _ in range(users)]
    vf = [[rng.gauss(0, 1) for _ in range(d)] for _ in range(items)]
    pop = [rng.gauss(0, 1) for _ in range(items)]
    def scores(u, noise, seed):
        r = random.Random(seed)
        return [8 * sum(a * b for a, b in zip(u, v)) / 2 + p + noise * r.gauss(0, 1) for v, p in zip(vf, pop)]
    lists = []
    for m, noise in enumerate((1.0, 3.0)):
        per_user = []
        for k in range(users):
            s = scores(uf[k], noise, 1000 * m + k)
            top = sorted(range(items), key=lambda i: -s[i])[:10]
            per_user.append((top, [s[i] for i in top]))
        lists.append(per_user)
    truth = [list(u) for u in uf]
    rows, steps = [], [0] * users
    for t in range(1600):
        if t == 1250:
            for k in range(0, users, 2):
                truth[k] = [0.8 * x + 0.6 * rng.gauss(0, 1) for x in truth[k]]
        k = rng.randrange(users)
        w = [math.exp(8 * sum(a * b for a, b in zip(truth[k], v)) / 2 + p) for v, p in zip(vf, pop)]
        item = rng.choices(range(items), weights=w)[0]
        rows.append((k, steps[k], item))
        steps[k] += 1
    for m in range(2):
        with open(out("care-recsets", "drifting-shop", "%d-recommender-%s.csv" % (m + 1, "ab"[m])), "w", newline="\n") as f:
            f.write("user_idx,step,true_item,candidate_items,scores\n")
            for k, step, item in rows:
                top, sc = lists[m][k]
                f.write("%d,%d,%d,%s,%s\n" % (k, step, item, " ".join(map(str, top)), " ".join("%.2f" % x for x in sc)))
    zipf = [1.0 / (i + 1) ** 1.1 for i in range(5000)]
    with open(out("resettable-sketches", "zipf-resets.csv"), "w", newline="\n") as f:
        f.write("t,op,key,delta\n")
        for t in range(8000):
            key = rng.choices(range(5000), weights=zipf)[0]
            if rng.random() < 0.85:
                f.write("%d,inc,%d,%d\n" % (t, key, rng.randint(1, 4)))
            else:
                f.write("%d,reset,%d,\n" % (t, key))
# ---------------------------------------------------------------- dwp-cim-robustness
GLYPHS = [[0x3C, 0x66, 0x6E, 0x76, 0x66, 0x66, 0x3C, 0x00], [0x18, 0x38, 0x18, 0x18, 0x18, 0x18, 0x7E, 0x00],
          [0x3C, 0x66, 0x06, 0x0C, 0x30, 0x60, 0x7E, 0x00], [0x3C, 0x66, 0x06, 0x1C, 0x06, 0x66, 0x3C, 0x00],
          [0x0C, 0x1C, 0x3C, 0x6C, 0x7E, 0x0C, 0x0C, 0x00], [0x7E, 0x60, 0x7C, 0x06, 0x06, 0x66, 0x3C, 0x00],
          [0x3C, 0x60, 0x7C, 0x66, 0x66, 0x66, 0x3C, 0x00], [0x7E, 0x06, 0x0C, 0x18, 0x30, 0x30, 0x30, 0x00],
          [0x3C, 0x66, 0x66, 0x3C, 0x66, 0x66, 0x3C, 0x00], [0x3C, 0x66, 0x66, 0x3E, 0x06, 0x0C, 0x38, 0x00]]


def glyph_bytes(rng, n):
    """n procedural 8x8 digit glyphs (class i % 10, shifted by up to a pixel, noisy) as IDX bytes."""
    pixels, labels = bytearray(), bytearray()
    for i in range(n):
        c = i % 10
        dx, dy = rng.randint(-1, 1), rng.randint(-1, 1)
        for r in range(8):
            for col in range(8):
                sr, sc = r - dy, col - dx
                on = 0 <= sr < 8 and 0 <= sc < 8 and (GLYPHS[c][sr] >> (7 - sc)) & 1
                v = (200 if on else 20) + rng.gauss(0, 25)
                pixels.append(max(0, min(255, int(v))))
        labels.append(c)
    return pixels, labels


def write_dwp():
    rng = random.Random(29)
    centres = [(2.0, 0.0), (-1.0, 1.7), (-1.0, -1.7)]
    rows = ["x1,x2,label"]
    for i in range(300):
        c = i % 3
        rows.append("%.5f,%.5f,%d" % (centres[c][0] + rng.gauss(0, 0.8), centres[c][1] + rng.gauss(0, 0.8), c))
    with open(out("dwp-cim-robustness", "three-blobs.csv"), "w") as f:
        f.write("\n".join(rows) + "\n")
    # A hand-built nearest-centre MLP: relu([x, -x]) then the linear discriminant c.x - |c|^2 / 2.
    folder = ("dwp-cim-robustness", "user-mlp")
    with open(out(*folder, "1-data.csv"), "w") as f:
        f.write("\n".join(rows) + "\n")
    with open(out(*folder, "2-layer1.csv"), "w") as f:
        f.write("1,0,0\n0,1,0\n-1,0,0\n0,-1,0\n")
    with open(out(*folder, "3-layer2.csv"), "w") as f:
        for cx, cy in centres:
            f.write("%g,%g,%g,%g,%g\n" % (cx, cy, -cx, -cy, -(cx * cx + cy * cy) / 2))
    n = 200
    pixels, labels = glyph_bytes(rng, n)
    folder = ("dwp-cim-robustness", "glyphs-idx")
    with open(out(*folder, "1-images.idx"), "wb") as f:
        f.write(struct.pack(">IIII", 0x803, n, 8, 8) + bytes(pixels))
    with open(out(*folder, "2-labels.idx"), "wb") as f:
        f.write(struct.pack(">II", 0x801, n) + bytes(labels))
# ---------------------------------------------------------------- aporia-hallucination / negative-label-ood
def npy_bytes(shape, flat, dtype="<f8"):
    """A C-order .npy (format 1.0) of float64 ('<f8') or int64 ('<i8') values, as bytes."""
    dims = "(%s)" % (", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else ""))
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (dtype, dims)
    header += " " * (64 - (10 + len(header) + 1) % 64) + "\n"
    code = "d" if dtype == "<f8" else "q"
    return (b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1") +
            struct.pack("<%d%s" % (len(flat), code), *flat))


def unit(v):
    n = math.sqrt(sum(x * x for x in v))
    return [x / n for x in v]


def write_aporia():
    rng = random.Random(22)
    syl = ["ka", "lo", "mi", "ren", "tos", "vu", "zer", "pa", "sel", "dor", "an", "bel"]
    word = lambda k: "".join(rng.choice(syl) for _ in range(k)).capitalize()
    genuine = ["The capital of {e} is {v}.", "{v} is the capital of {e}.", "{e} has {v} as its capital.",
               "As far as I know, the capital of {e} is {v}."]
    lines, emb = [], []
    d = 16
    for p in range(8):
        e, v = word(3), word(3)
        wrong = [word(3) for _ in range(3)]
        mu = unit([rng.gauss(0, 1) for _ in range(d)])
        for r in range(12):
            hall = rng.random() < 0.3
            if hall:
                fill = " ".join(word(2).lower() for _ in range(rng.randint(5, 9)))
                text = "Legend has it that the capital of %s was %s, because %s." % (e, rng.choice(wrong), fill)
                c = unit([m + 0.9 * rng.gauss(0, 1) / math.sqrt(d) * 3 for m in mu])
            else:
                text = rng.choice(genuine).format(e=e, v=v)
                c = unit([m + 0.25 * rng.gauss(0, 1) / math.sqrt(d) * 3 for m in mu])
            lines.append({"prompt_id": "q%d" % p, "response": text, "label": "hallucinated" if hall else "genuine"})
            emb.append(c)
    body = "".join(json.dumps(l) + "\n" for l in lines)
    for path in (out("aporia-hallucination", "capital-facts.jsonl"),
                 out("aporia-hallucination", "with-embeddings", "1-responses.jsonl")):
        with open(path, "w") as f:
            f.write(body)
    write_npy(out("aporia-hallucination", "with-embeddings", "2-embeddings.npy"), emb, "<f8")


def write_negood():
    rng = random.Random(23)
    d, K, M, n = 32, 10, 200, 100
    gap = unit([rng.gauss(0, 1) for _ in range(d)])
    concepts = [unit([rng.gauss(0, 1) for _ in range(d)]) for _ in range(K + 30)]
    words = [unit([rng.gauss(0, 1) for _ in range(d)]) for _ in range(M - 20)]
    neg = concepts[K + 10:] + words  # 20 OOD concepts and random words
    images, is_id = [], []
    for i in range(2 * n):
        c = concepts[rng.randrange(K)] if i < n else concepts[K + rng.randrange(30)]
        mu = unit([a + 1.5 * g for a, g in zip(c, gap)])
        images.append(unit([m + rng.gauss(0, 1) * 0.12 for m in mu]))
        is_id.append(1 if i < n else 0)
    flat = lambda rows: [x for r in rows for x in r]
    arrays = [("id_text", npy_bytes((K, d), flat(concepts[:K]))), ("neg_text", npy_bytes((M, d), flat(neg))),
              ("images", npy_bytes((2 * n, d), flat(images))), ("is_id", npy_bytes((2 * n,), is_id, "<i8"))]
    import zipfile
    with zipfile.ZipFile(out("negative-label-ood", "tiny-clip.npz"), "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in arrays:
            info = zipfile.ZipInfo(name + ".npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)


# ---------------------------------------------------------------- specexit-decoding
def write_specexit():
    rng = random.Random(1917)
    V, e, w, h1, h2 = 24, 6, 3, 16, 12
    g = lambda n, sd: [rng.gauss(0.0, sd) for _ in range(n)]
    t = {"tok_emb": ((V, e), g(V * e, 1.0)), "w1": ((w * e, h1), g(w * e * h1, 1.0 / math.sqrt(w * e))),
         "b1": ((h1,), g(h1, 0.1)), "w2": ((h1, h2), g(h1 * h2, 1.0 / math.sqrt(h1))), "b2": ((h2,), g(h2, 0.1)),
         "head": ((h2, V), g(h2 * V, 2.0 / math.sqrt(h2))), "head_bias": ((V,), g(V, 0.3))}
    meta = {"arch": "mlp_lm", "window": str(w), "pad_id": "0", "act": "tanh"}
    folder = ("specexit-decoding", "random-mlp-lm")
    write_safetensors(out(*folder, "model.safetensors"), meta, t)
    with open(out(*folder, "prompts.txt"), "w") as f:
        f.write("\n".join(" ".join(str(rng.randrange(1, V)) for _ in range(6)) for _ in range(4)) + "\n")
    lines = []
    for _ in range(6):
        a = [rng.randrange(10) for _ in range(3)]
        lines.append(" ".join(["100"] + [str(x) for x in a] + ["102"]))
    with open(out("specexit-decoding", "trace-prompts.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    bad = os.path.join(HERE, "..", "..", "tests", "data", "bad")
    os.makedirs(bad, exist_ok=True)
    missing = dict(t)
    del missing["head_bias"]
    write_safetensors(os.path.join(bad, "specexit-decoding-missing-tensor.safetensors"), meta, missing)
    tr = {"tok_emb": ((V, 4), g(V * 4, 1.0)), "pos_emb": ((8, 4), g(32, 1.0)), "head": ((4, V), g(4 * V, 1.0)),
          "layers.0.attn.wq": ((4, 4), g(16, 0.5)), "layers.0.attn.wk": ((4, 4), g(16, 0.5)),
          "layers.0.attn.wv": ((4, 4), g(16, 0.5)), "layers.0.attn.wo": ((4, 4), g(16, 0.5))}
    write_safetensors(os.path.join(bad, "specexit-decoding-transformer-arch.safetensors"),
                      {"arch": "transformer", "n_layers": "1", "n_heads": "1", "norm": "none", "act": "relu"}, tr)
    with open(os.path.join(bad, "specexit-decoding-id-too-large.txt"), "w") as f:
        f.write("100 1 2 3 102\n100 4 200 102\n")
    with open(os.path.join(bad, "specexit-decoding-not-integer.txt"), "w") as f:
        f.write("100 1 2 3 102\n100 x 2 102\n")
    with open(os.path.join(bad, "specexit-decoding-empty-line.txt"), "w") as f:
        f.write("100 1 2 3 102\n\n100 1 2 102\n")


def write_repa():
    """repa-physics: a layered permeability (CSV), three channelised fields (.npy, n x N x N) with a
    compatible well-pair source, and bad files (K <= 0, not square, int64, NaN)."""
    n = 16
    rows = [[math.exp(0.8 * math.sin(2 * math.pi * (y + 0.5) / n * 2)) for x in range(n)] for y in range(n)]
    with open(out("repa-physics", "layered-k.csv"), "w") as f:
        for r in rows:
            f.write(",".join("%.6f" % v for v in r) + "\n")
    rng = random.Random(6)
    fields = []
    for k in range(3):
        y0 = rng.uniform(0.3, 0.7)
        slope = rng.uniform(-0.3, 0.3)
        for y in range(n):
            for x in range(n):
                cx, cy = (x + 0.5) / n, (y + 0.5) / n
                d = abs(cy - (y0 + slope * (cx - 0.5)))
                fields.append(math.exp(2.0 if d < 0.1 else -0.5) * (1 + 0.1 * rng.random()))
    write_npy_nd(out("repa-physics", "channels-with-wells", "1-k.npy"), (3, n, n), fields, "<f4")
    src = [[0.0] * n for _ in range(n)]
    src[3][2], src[12][13] = 20.0, -20.0
    with open(out("repa-physics", "channels-with-wells", "2-source.csv"), "w") as f:
        for r in src:
            f.write(",".join("%g" % v for v in r) + "\n")
    bad = os.path.join(HERE, "..", "..", "tests", "data", "bad")
    with open(os.path.join(bad, "repa-physics-negative-k.csv"), "w") as f:
        for y in range(4):
            f.write(",".join("-0.5" if (y, x) == (2, 1) else "1" for x in range(4)) + "\n")
    with open(os.path.join(bad, "repa-physics-not-square.csv"), "w") as f:
        f.write("1,1,1\n1,1,1\n")
    with open(os.path.join(bad, "repa-physics-nan.csv"), "w") as f:
        f.write("1,1\n1,nan\n")
    write_npy_nd(os.path.join(bad, "repa-physics-int64.npy"), (4, 4), [1] * 16, "<i8")
# ---------------------------------------------------------------- fedgr-noisy-labels
def write_fedgr():
    rng = random.Random(30)
    centres = [(2.5, 0, 0, 0), (0, 2.5, 0, 0), (0, 0, 2.5, 0), (0, 0, 0, 2.5)]
    rates = [0.0, 0.1, 0.2, 0.3, 0.45]
    rows = ["x1,x2,x3,x4,label,client_id,clean_label,split"]
    for k, rate in enumerate(rates):
        for i in range(100):
            c = rng.randrange(4) if rng.random() < 0.5 else (k + i % 2) % 4  # skewed class mix per client
            x = [centres[c][j] + rng.gauss(0, 1.0) for j in range(4)]
            test = i >= 80
            y = c if test or rng.random() >= rate else (c + 1 + rng.randrange(3)) % 4
            rows.append("%.4f,%.4f,%.4f,%.4f,%d,%d,%d,%s" % (*x, y, 10 * (k + 1), c, "test" if test else "train"))
    with open(out("fedgr-noisy-labels", "noisy-clients.csv"), "w") as f:
        f.write("\n".join(rows) + "\n")
    n = 300
    pixels, labels = glyph_bytes(rng, n)
    folder = ("fedgr-noisy-labels", "glyphs-idx")
    with open(out(*folder, "1-images.idx"), "wb") as f:
        f.write(struct.pack(">IIII", 0x803, n, 8, 8) + bytes(pixels))
    with open(out(*folder, "2-labels.idx"), "wb") as f:
        f.write(struct.pack(">II", 0x801, n) + bytes(labels))
# ---------------------------------------------------------------- deepha-agent
def write_deepha():
    river = [
        "TT....~~..SS",
        "T..@..~~..S.",
        "......~~....",
        "..C...~~..I.",
        "..C.......I.",
        "......~~....",
        "SS....~~..TT",
        "......~~~~~~",
        "..I...~.....",
        "......~.~~~.",
        "CC....~.~D~.",
        "......~.~~~.",
    ]
    with open(out("deepha-agent", "river-crossing.txt"), "w") as f:
        f.write("\n".join(river) + "\n")
    book = {
        "items": [
            {"name": "log", "skill": "collect", "tile": "T"},
            {"name": "planks", "skill": "craft", "inputs": {"log": 1}, "yield": 2},
            {"name": "table", "skill": "craft", "inputs": {"planks": 2}},
            {"name": "flint", "skill": "collect", "tile": "S"},
            {"name": "axe", "skill": "craft", "inputs": {"planks": 1, "flint": 1}, "station": "table"},
            {"name": "copper_ore", "skill": "collect", "tile": "I", "tool": "axe"},
            {"name": "kiln", "skill": "craft", "inputs": {"flint": 2}, "station": "table"},
            {"name": "copper", "skill": "smelt", "inputs": {"copper_ore": 1, "log": 1}, "station": "kiln"},
        ],
        "tasks": ["planks", "axe", "copper_ore", "kiln", "copper"],
    }
    with open(out("deepha-agent", "bronze-age", "recipes.json"), "w") as f:
        f.write("{\n  \"items\": [\n")
        f.write(",\n".join("    " + json.dumps(it) for it in book["items"]))
        f.write("\n  ],\n  \"tasks\": " + json.dumps(book["tasks"]) + "\n}\n")
    bronze = [
        "T.......S.",
        "T..~~....S",
        "...~~.....",
        ".....@....",
        "..I.......",
        "..I...~~..",
        "......~~.T",
        "S.........",
        "....T...I.",
        "..........",
    ]
    with open(out("deepha-agent", "bronze-age", "map.txt"), "w") as f:
        f.write("\n".join(bronze) + "\n")
    bad = os.path.join(HERE, "..", "..", "tests", "data", "bad")
    files = {
        "deepha-agent-cycle.json": '{"items": [\n {"name": "a", "skill": "collect", "tile": "T"},\n'
        ' {"name": "b", "skill": "craft", "inputs": {"c": 1}},\n'
        ' {"name": "c", "skill": "craft", "inputs": {"b": 1}}\n], "tasks": ["c"]}\n',
        "deepha-agent-unknown-item.json": '{"items": [\n {"name": "a", "skill": "collect", "tile": "T"},\n'
        ' {"name": "b", "skill": "craft", "inputs": {"gold": 1}}\n], "tasks": ["b"]}\n',
        "deepha-agent-two-recipes.json": '{"items": [\n {"name": "a", "skill": "collect", "tile": "T"},\n'
        ' {"name": "a", "skill": "collect", "tile": "S"}\n], "tasks": ["a"]}\n',
        "deepha-agent-ragged.txt": "@...\n.T.\n....\n",
        "deepha-agent-two-starts.txt": "@..\n.T.\n..@\n",
        "deepha-agent-no-start.txt": "...\n.T.\n...\n",
    }
    for name, text in files.items():
        with open(os.path.join(bad, name), "w") as f:
            f.write(text)
# ---------------------------------------------------------------- lavid-distillation
def write_lavid():
    """Six classes described by three attributes; 40-d features = a class centre built from the
    attributes + noise; a teacher's signatures (8 questions x 4 options) from the same attributes."""
    rng = random.Random(30)
    names = ["blue_jay", "cardinal", "gull", "heron", "pelican", "sparrow"]
    attrs = {"blue_jay": (0, 1, 0), "cardinal": (1, 1, 0), "gull": (2, 0, 1), "heron": (3, 2, 1),
             "pelican": (2, 3, 1), "sparrow": (1, 0, 0)}
    basis = [[rng.gauss(0, 1) for _ in range(40)] for _ in range(12)]
    folder = ("lavid-distillation", "six-classes")
    sig, questions = {}, []
    for q in range(8):
        a = q % 3
        questions.append("Q%d: which %s does the class have?\n(a) one (b) two (c) three (d) four"
                         % (q + 1, ["colour", "size", "habitat"][a]))
    for n in names:
        rows = []
        for q in range(8):
            ans = (attrs[n][q % 3] + q) % 4
            rows.append([round((3.0 if o == ans else 0.0) + rng.gauss(0, 0.5), 4) for o in range(4)])
        sig[n] = rows
    with open(out(*folder, "1-signatures.json"), "w") as f:
        f.write("{\n" + ",\n".join('  "%s": %s' % (n, json.dumps(sig[n])) for n in names) + "\n}\n")
    with open(out(*folder, "2-questions.txt"), "w") as f:
        f.write("\n\n".join(questions) + "\n")
    header = ["f%d" % (i + 1) for i in range(40)] + ["label", "split", "group", "background"]
    lines = [",".join(header)]
    for n in names:
        centre = [0.0] * 40
        for k, v in enumerate(attrs[n]):
            for i in range(40):
                centre[i] += basis[4 * k + v][i]
        group = "water" if attrs[n][2] == 1 else "land"
        for split, count, rho in (("train", 20, 0.9), ("test", 20, 0.5)):
            for i in range(count):
                bg = group if i < round(rho * count) else ("land" if group == "water" else "water")
                shift = 1.5 if bg == "water" else -1.5
                x = [centre[j] + rng.gauss(0, 1.6) + (shift if j < 5 else 0.0) for j in range(40)]
                lines.append(",".join("%.4f" % v for v in x) + ",%s,%s,%s,%s" % (n, split, group, bg))
    with open(out(*folder, "3-features.csv"), "w") as f:
        f.write("\n".join(lines) + "\n")
    bad = os.path.join(HERE, "..", "..", "tests", "data", "bad")
    with open(os.path.join(bad, "lavid-distillation-unequal.json"), "w") as f:
        f.write('{\n  "a": [[1, 0], [0, 1]],\n  "b": [[1, 0, 0], [0, 1, 0]]\n}\n')
    with open(os.path.join(bad, "lavid-distillation-nonnumeric.json"), "w") as f:
        f.write('{\n  "a": [[1, 0], [0, 1]],\n  "b": [[1, "NaN"], [0, 1]]\n}\n')
    with open(os.path.join(bad, "lavid-distillation-syntax.json"), "w") as f:
        f.write('{\n  "a": [[1, 0], [0, 1]\n')
    with open(os.path.join(bad, "lavid-distillation-nonfinite.csv"), "w") as f:
        f.write("f1,f2,label,split\n0.1,0.2,a,train\n0.3,inf,b,test\n")
    with open(os.path.join(bad, "lavid-distillation-nolabel.csv"), "w") as f:
        f.write("f1,f2,split\n0.1,0.2,train\n0.3,0.4,test\n")
    with open(os.path.join(bad, "lavid-distillation-split.csv"), "w") as f:
        f.write("f1,f2,label,split\n0.1,0.2,a,train\n0.3,0.4,b,validation\n")
# ---------------------------------------------------------------- prefetch-rag
def write_prefetchrag():
    rng = random.Random(2605)
    domains = {"rivers": ["length", "source", "mouth", "basin"],
               "comets": ["period", "discoverer", "perihelion", "colour"],
               "orchids": ["petals", "habitat", "scent", "bloom"]}
    syll = ["vel", "mor", "ast", "qui", "lan", "dor", "ebr", "ist", "ond", "par", "rhu", "sil"]
    filler = ["the", "records", "note", "that", "its", "survey", "lists", "of", "an", "old", "atlas", "says"]
    docs, questions, n = [], [], 0
    for dom, attrs in domains.items():
        vals = ["%s%d" % (dom[:3], k) for k in range(6)]
        for e in range(8):
            name = (syll[rng.randrange(12)] + syll[rng.randrange(12)]).capitalize() + str(e)
            for a in attrs:
                v = rng.choice(vals)
                fid = "%s-%s-%s" % (dom, name.lower(), a)
                pad = " ".join(rng.choice(filler) for _ in range(rng.randrange(3, 8)))
                docs.append({"id": fid, "domain": dom, "text": "%s %s %s is %s, %s." % (dom, name, a, v, pad)})
                wrong = rng.choice([x for x in vals if x != v])
                docs.append({"id": "rumour-%d" % n, "domain": "rumours",
                             "text": "Some say the %s of %s was %s." % (a, name, wrong)})
                n += 1
                if rng.random() < 0.4:
                    q = {"id": "q%d" % len(questions), "entity": "%s %s" % (dom, name), "attribute": a,
                         "value": v, "doc": fid}
                    if rng.random() < 0.3:
                        q["query"] = "What is the %s of the %s %s?" % (a, dom[:-1], name)
                    questions.append(q)
    folder = ("prefetch-rag", "made-up-atlas")
    docs.insert(5, {"id": "blank-page", "domain": "rivers", "text": "   "})
    with open(out(*folder, "1-corpus.jsonl"), "w") as f:
        f.write("".join(json.dumps(d) + "\n" for d in docs))
    with open(out(*folder, "2-questions.jsonl"), "w") as f:
        f.write("".join(json.dumps(q) + "\n" for q in questions))
    bad = os.path.join(HERE, "..", "..", "tests", "data", "bad")
    os.makedirs(bad, exist_ok=True)
    good = json.dumps(docs[0]) + "\n"
    files = {"bad-json.jsonl": good + '{"id": "x", "text": "unterminated\n',
             "duplicate-id.jsonl": good + json.dumps(docs[0]) + "\n",
             "missing-text.jsonl": good + '{"id": "y", "domain": "rivers"}\n',
             "all-empty.jsonl": '{"id": "a", "text": ""}\n{"id": "b", "text": "  "}\n',
             "question-missing-value.jsonl": '{"id": "q1", "entity": "x", "attribute": "y", "value": "z"}\n'
                                             '{"id": "q2", "entity": "x", "attribute": "y"}\n'}
    for name, text in files.items():
        with open(os.path.join(bad, "prefetch-rag-" + name), "w") as f:
            f.write(text)
    with open(os.path.join(bad, "prefetch-rag-not-utf8.jsonl"), "wb") as f:
        f.write(good.encode() + b'{"id": "z", "text": "caf\xe9"}\n')


# ---------------------------------------------------------------- visual-persuasion
def write_persuasion():
    """visual-persuasion: a choice log of a simulated agent (planted utilities, first-shown bias 0.4)
    over six product shots, every pair asked in both orders; and bad logs (header, tokens, field
    count, an image against itself)."""
    rng = random.Random(14)
    util = {"mug-beige-shadow": 1.2, "mug-centred": 0.6, "mug-original": 0.0, "mug-dark": -0.8,
            "shoe-wood": 0.9, "shoe-clutter": -0.4}
    names = sorted(util)
    rows = ["image_a,image_b,chosen,order"]
    for rep in range(6):
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                for order in ("ab", "ba"):
                    o = 1 if order == "ab" else -1
                    z = util[a] - util[b] + 0.4 * o
                    chosen = "a" if rng.random() < 1 / (1 + math.exp(-z)) else "b"
                    rows.append("%s,%s,%s,%s" % (a, b, chosen, order))
    with open(out("visual-persuasion", "agent-choices.csv"), "w") as f:
        f.write("\n".join(rows) + "\n")
    bad = os.path.join(HERE, "..", "..", "tests", "data", "bad")
    head = "image_a,image_b,chosen,order\n"
    for name, text in [("bad-header.csv", "left,right,chosen,order\nx,y,a,ab\n"),
                       ("bad-chosen.csv", head + "x,y,a,ab\nx,y,left,ab\n"),
                       ("bad-order.csv", head + "x,y,a,ab\ny,x,b,xy\n"),
                       ("field-count.csv", head + "x,y,a,ab\nx,y,a\n"),
                       ("self-duel.csv", head + "x,y,a,ab\nx,x,a,ba\n")]:
        with open(os.path.join(bad, "visual-persuasion-" + name), "w") as f:
            f.write(text)


# ---------------------------------------------------------------- gemq-moe-quant
def write_gemq():
    """gemq-moe-quant: a made-up importance table (8 layers x 8 experts x {2,3,4,8} bits, layer
    sensitivities spread 7x, cost ~ sens 4^-b), a small random moe_lm with calibration ids, and bad files."""
    rng = random.Random(2605)
    lines = ["layer,expert,bits,cost,params"]
    for l in range(8):
        sens = 7.0 ** (-l / 7.0)
        for e in range(8):
            u = sens * rng.uniform(0.5, 2.0)
            for b in (2, 3, 4, 8):
                lines.append("%d,%d,%d,%.6g,%d" % (l, e, b, u * 4.0 ** (-b) * rng.uniform(0.8, 1.25), 4096))
    with open(out("gemq-moe-quant", "made-up-importance.csv"), "w") as f:
        f.write("\n".join(lines) + "\n")
    V, e, w, d, f_, L, E = 16, 4, 3, 16, 32, 2, 4
    g = lambda n, sd: [rng.gauss(0.0, sd) for _ in range(n)]
    t = {"tok_emb": ((V, e), g(V * e, 1.0)), "w_in": ((w * e, d), g(w * e * d, 1.0 / math.sqrt(w * e))),
         "b_in": ((d,), g(d, 0.1)), "head": ((d, V), g(d * V, 1.0 / math.sqrt(d))), "head_bias": ((V,), g(V, 0.1))}
    for l in range(L):
        p = "layers.%d." % l
        t[p + "router"] = ((d, E), g(d * E, 1.0 / math.sqrt(d)))
        for k in range(E):
            q = p + "experts.%d." % k
            t[q + "w1"] = ((d, f_), g(d * f_, 1.0 / math.sqrt(d)))
            t[q + "b1"] = ((f_,), g(f_, 0.1))
            t[q + "w2"] = ((f_, d), g(f_ * d, 1.0 / math.sqrt(f_)))
            t[q + "b2"] = ((d,), g(d, 0.1))
    meta = {"arch": "moe_lm", "window": str(w), "pad_id": "0", "n_layers": str(L), "n_experts": str(E), "top_k": "2"}
    folder = ("gemq-moe-quant", "random-moe-lm")
    write_safetensors(out(*folder, "model.safetensors"), meta, t)
    with open(out(*folder, "calibration.txt"), "w") as f:
        f.write("\n".join(" ".join(str(rng.randrange(1, V)) for _ in range(24)) for _ in range(16)) + "\n")
    bad = os.path.join(HERE, "..", "..", "tests", "data", "bad")
    os.makedirs(bad, exist_ok=True)
    head = "layer,expert,bits,cost,params\n"
    good = "".join("0,%d,%d,%g,64\n" % (k, b, 4.0 ** -b) for k in range(2) for b in (2, 4))
    for name, text in [("missing-combination.csv", head + good.replace("0,1,4,0.00390625,64\n", "")),
                       ("negative-cost.csv", head + good + "1,0,2,-0.5,64\n"),
                       ("inconsistent-params.csv", head + good.replace("0,1,4,0.00390625,64", "0,1,4,0.00390625,65")),
                       ("bad-header.csv", "layer,expert,bits,cost\n0,0,2,0.1\n"),
                       ("not-a-number.csv", head + "0,0,2,abc,64\n"),
                       ("duplicate-row.csv", head + good + "0,0,2,0.0625,64\n")]:
        with open(os.path.join(bad, "gemq-moe-quant-" + name), "w") as f:
            f.write(text)
    wrong = dict(t)
    wrong["layers.1.router"] = ((d, E + 1), g(d * (E + 1), 0.1))
    write_safetensors(os.path.join(bad, "gemq-moe-quant-router-shape.safetensors"), meta, wrong)
    mlp = {"tok_emb": ((V, e), g(V * e, 1.0)), "w1": ((w * e, 8), g(w * e * 8, 0.3)), "b1": ((8,), g(8, 0.1)),
           "w2": ((8, 8), g(64, 0.3)), "b2": ((8,), g(8, 0.1)), "head": ((8, V), g(8 * V, 0.3)),
           "head_bias": ((V,), g(V, 0.1))}
    write_safetensors(os.path.join(bad, "gemq-moe-quant-mlp-arch.safetensors"),
                      {"arch": "mlp_lm", "window": str(w), "pad_id": "0", "act": "tanh"}, mlp)
# ---------------------------------------------------------------- bimetric-ann
def write_fvecs(path, rows):
    """An .fvecs file: per row a little-endian int32 dimension and that many float32."""
    with open(path, "wb") as f:
        for r in rows:
            f.write(struct.pack("<i", len(r)) + struct.pack("<%df" % len(r), *r))


def write_bimetric():
    """bimetric-ann/mlp-features/: 1200 base points and 40 queries of raw data x in R^12 (a mixture
    of 8 Gaussian clusters); expensive vectors = 32 features of a fixed random 3-layer tanh MLP of x,
    proxy vectors = 8 random linear features of x (spec option c). Base files are .npy (<f4), query
    files .fvecs. tests/data/bimetric/: sets whose rows or dimensions disagree with it;
    tests/data/bad/bimetric-ann-*: bad vector files."""
    rng = random.Random(2406)
    dim, hidden, feat, lin = 12, 24, 32, 8
    centres = [[rng.gauss(0, 1.2) for _ in range(dim)] for _ in range(8)]
    def layer(n_in, n_out):
        return [[rng.gauss(0, 1.6 / math.sqrt(n_in)) for _ in range(n_in)] for _ in range(n_out)]
    w1, w2, w3 = layer(dim, hidden), layer(hidden, hidden), layer(hidden, feat)
    a = layer(dim, lin)
    def mlp(x):
        h = [math.tanh(sum(w * v for w, v in zip(row, x))) for row in w1]
        h = [math.tanh(sum(w * v for w, v in zip(row, h))) for row in w2]
        return [sum(w * v for w, v in zip(row, h)) for row in w3]
    def linear(x):
        return [sum(w * v for w, v in zip(row, x)) for row in a]
    def draw(n):
        xs = []
        for _ in range(n):
            c = centres[rng.randrange(8)]
            xs.append([m + rng.gauss(0, 0.7) for m in c])
        return [mlp(x) for x in xs], [linear(x) for x in xs]
    be, bp = draw(1200)
    qe, qp = draw(40)
    write_npy(out("bimetric-ann", "mlp-features", "1-base-expensive.npy"), be)
    write_npy(out("bimetric-ann", "mlp-features", "2-base-proxy.npy"), bp)
    write_fvecs(out("bimetric-ann", "mlp-features", "3-queries-expensive.fvecs"), qe)
    write_fvecs(out("bimetric-ann", "mlp-features", "4-queries-proxy.fvecs"), qp)
    data = os.path.join(HERE, "..", "..", "tests", "data", "bimetric")
    os.makedirs(data, exist_ok=True)
    write_npy(os.path.join(data, "base-proxy-short.npy"), bp[:10])
    write_fvecs(os.path.join(data, "queries-expensive-wide.fvecs"), [r[:5] for r in qe])
    write_fvecs(os.path.join(data, "queries-proxy-short.fvecs"), qp[:39])
    bad = os.path.join(HERE, "..", "..", "tests", "data", "bad")
    write_npy(os.path.join(bad, "bimetric-ann-nan-row.npy"), [[1, 2, 3], [4, float("nan"), 6], [7, 8, 9]])
    write_fvecs(os.path.join(bad, "bimetric-ann-nan-row.fvecs"), [[1, 2], [3, 4], [float("inf"), 5]])
    with open(os.path.join(bad, "bimetric-ann-truncated.fvecs"), "wb") as f:
        f.write(struct.pack("<i", 4) + struct.pack("<4f", 1, 2, 3, 4) + struct.pack("<i", 4) + struct.pack("<2f", 1, 2))
    with open(os.path.join(bad, "bimetric-ann-mixed-dims.fvecs"), "wb") as f:
        f.write(struct.pack("<i", 3) + struct.pack("<3f", 1, 2, 3) + struct.pack("<i", 2) + struct.pack("<3f", 1, 2, 3))
    with open(os.path.join(bad, "bimetric-ann-dim-over-cap.fvecs"), "wb") as f:
        f.write(struct.pack("<i", 100000) + struct.pack("<f", 1))
    open(os.path.join(bad, "bimetric-ann-empty.fvecs"), "wb").close()
    with open(os.path.join(bad, "bimetric-ann-3d.npy"), "wb") as f:
        f.write(npy_bytes((2, 2, 2), [float(i) for i in range(8)], "<f8"))
    header = "{'descr': '<f8', 'fortran_order': True, 'shape': (2, 2), }"
    header += " " * (64 - (10 + len(header) + 1) % 64) + "\n"
    with open(os.path.join(bad, "bimetric-ann-fortran.npy"), "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1") +
                struct.pack("<4d", 1, 2, 3, 4))
def write_olaf():
    """olaf-world: 24 clips (3 contexts x 8, 10 frames of 12 x 12, float32) of a bright 3 x 3 sprite with a
    soft glow moving by one pixel per frame over a static background of its context, contexts.csv and
    actions.csv; and bad files (NaN, too-short clips, a 2-D array, a ragged contexts.csv, an unknown action)."""
    rng = random.Random(2602)
    side, frames, per = 12, 10, 8
    looks = {"meadow": (0.25, 0.10, 0.9), "cave": (0.05, 0.03, 0.6), "snow": (0.55, 0.06, 0.95)}
    moves = [(0, 1), (0, -1), (-1, 0), (1, 0), (0, 0)]  # right, left, up, down, stay
    values, contexts, actions = [], ["clip,context"], ["clip,t,action"]
    clip = 0
    for name, (level, contrast, bright) in looks.items():
        fx, fy, ph = rng.uniform(-0.8, 0.8), rng.uniform(-0.8, 0.8), rng.uniform(0, 6.28)
        bg = [[level + contrast * math.sin(fx * c + fy * r + ph) for c in range(side)] for r in range(side)]
        for _ in range(per):
            pr, pc = rng.randrange(side - 2), rng.randrange(side - 2)
            for t in range(frames):
                for r in range(side):
                    for c in range(side):
                        v = bg[r][c] + rng.gauss(0, 0.01)
                        d2 = (r - pr - 1) ** 2 + (c - pc - 1) ** 2
                        v += 0.35 * bright * math.exp(-d2 / 18.0)
                        if pr <= r < pr + 3 and pc <= c < pc + 3:
                            v += bright
                        values.append(v)
                if t + 1 == frames:
                    break
                ok = [a for a, (dr, dc) in enumerate(moves) if 0 <= pr + dr <= side - 3 and 0 <= pc + dc <= side - 3]
                a = rng.choice(ok)
                pr, pc = pr + moves[a][0], pc + moves[a][1]
                actions.append("clip_%d,%d,%s" % (clip, t, ["right", "left", "up", "down", "stay"][a]))
            contexts.append("clip_%d,%s" % (clip, name))
            clip += 1
    base = out("olaf-world", "three-rooms", "1-clips.npy")
    write_npy_nd(base, (clip, frames, side, side), values, "<f4")
    with open(out("olaf-world", "three-rooms", "2-contexts.csv"), "w") as f:
        f.write("\n".join(contexts) + "\n")
    with open(out("olaf-world", "three-rooms", "3-actions.csv"), "w") as f:
        f.write("\n".join(actions) + "\n")
    bad = os.path.join(HERE, "..", "..", "tests", "data", "bad")
    nan = [0.5] * (2 * 6 * 4 * 4)
    nan[37] = float("nan")
    write_npy_nd(os.path.join(bad, "olaf-world-nan.npy"), (2, 6, 4, 4), nan, "<f4")
    write_npy_nd(os.path.join(bad, "olaf-world-short-clips.npy"), (3, 3, 4, 4), [0.5] * (3 * 3 * 16), "<f4")
    write_npy_nd(os.path.join(bad, "olaf-world-2d.npy"), (6, 16), [0.5] * 96, "<f4")
    with open(os.path.join(bad, "olaf-world-ragged.csv"), "w") as f:
        f.write("clip,context\nclip_0,day\nclip_1,night,extra\n")
    with open(os.path.join(bad, "olaf-world-action.csv"), "w") as f:
        f.write("clip,t,action\nclip_0,0,right\nclip_0,1,jump\n")
    data = os.path.join(HERE, "..", "..", "tests", "data", "olaf-world")
    os.makedirs(data, exist_ok=True)
    write_npy_nd(os.path.join(data, "size12.npy"), (2, 6, 12, 12), [0.5] * (2 * 6 * 144), "<f4")
    write_npy_nd(os.path.join(data, "size10.npy"), (2, 6, 10, 10), [0.5] * (2 * 6 * 100), "<f4")
def write_metadistill():
    """metadistill-bbo: teacher trajectories (mean and covariance per generation) of a standard-library
    CMA-ES (Hansen's tutorial with a Cholesky factor in place of the eigendecomposition: y = L z, p_sigma
    whitened by L^-1) on a 10-D sphere and a 10-D Rosenbrock, lambda = 32, sigma0 = 2, 25 generations."""
    rng = random.Random(1909)
    d, lam, gens = 10, 32, 25
    mu = lam // 2
    w = [math.log((lam + 1) / 2) - math.log(i + 1) for i in range(mu)]
    sw = sum(w)
    w = [x / sw for x in w]
    mueff = 1 / sum(x * x for x in w)
    cs = (mueff + 2) / (d + mueff + 5)
    ds = 1 + 2 * max(0, math.sqrt((mueff - 1) / (d + 1)) - 1) + cs
    cc = (4 + mueff / d) / (d + 4 + 2 * mueff / d)
    c1 = 2 / ((d + 1.3) ** 2 + mueff)
    cmu = min(1 - c1, 2 * (mueff - 2 + 1 / mueff) / ((d + 2) ** 2 + mueff))
    chi = math.sqrt(d) * (1 - 1 / (4 * d) + 1 / (21 * d * d))

    def chol(a):
        n = len(a)
        low = [[0.0] * n for _ in range(n)]
        for i in range(n):
            for j in range(i + 1):
                s = a[i][j] - sum(low[i][k] * low[j][k] for k in range(j))
                low[i][j] = math.sqrt(s) if i == j else s / low[j][j]
        return low

    def solve_lower(low, b):
        x = [0.0] * len(b)
        for i in range(len(b)):
            x[i] = (b[i] - sum(low[i][k] * x[k] for k in range(i))) / low[i][i]
        return x

    xopt = [rng.uniform(-4, 4) for _ in range(d)]
    funcs = {
        "sphere": lambda x: sum((a - b) ** 2 for a, b in zip(x, xopt)),
        "rosenbrock": lambda x: sum(100 * ((x[i] - xopt[i] + 1) ** 2 - (x[i + 1] - xopt[i + 1] + 1)) ** 2
                                    + (x[i] - xopt[i]) ** 2 for i in range(d - 1)),
    }
    out = []
    for name, f in funcs.items():
        m = [rng.uniform(-4, 4) for _ in range(d)]
        sigma, C = 2.0, [[float(i == j) for j in range(d)] for i in range(d)]
        ps, pc = [0.0] * d, [0.0] * d
        traj = []
        for g in range(gens):
            traj.append({"generation": g, "mean": [float("%.9g" % v) for v in m],
                         "covariance": [[float("%.9g" % (sigma * sigma * C[i][j])) for j in range(d)]
                                        for i in range(d)]})
            low = chol(C)
            pop = []
            for _ in range(lam):
                z = [rng.gauss(0, 1) for _ in range(d)]
                y = [sum(low[i][k] * z[k] for k in range(i + 1)) for i in range(d)]
                x = [m[i] + sigma * y[i] for i in range(d)]
                pop.append((f(x), y))
            pop.sort(key=lambda t: t[0])
            yw = [sum(w[k] * pop[k][1][i] for k in range(mu)) for i in range(d)]
            m = [m[i] + sigma * yw[i] for i in range(d)]
            white = solve_lower(low, yw)
            ps = [(1 - cs) * ps[i] + math.sqrt(cs * (2 - cs) * mueff) * white[i] for i in range(d)]
            nps = math.sqrt(sum(v * v for v in ps))
            hs = nps / math.sqrt(1 - (1 - cs) ** (2 * (g + 1))) < (1.4 + 2 / (d + 1)) * chi
            pc = [(1 - cc) * pc[i] + (math.sqrt(cc * (2 - cc) * mueff) * yw[i] if hs else 0.0) for i in range(d)]
            dh = 0.0 if hs else cc * (2 - cc)
            C = [[(1 + c1 * dh - c1 - cmu) * C[i][j] + c1 * pc[i] * pc[j]
                  + cmu * sum(w[k] * pop[k][1][i] * pop[k][1][j] for k in range(mu)) for j in range(d)]
                 for i in range(d)]
            sigma *= math.exp(cs / ds * (nps / chi - 1))
        out.append({"function": name, "generations": traj})
    path = os.path.join(HERE, "metadistill-bbo", "cmaes-teacher-d10.json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as fh:
        fh.write('{"dim": %d, "functions": [\n' % d)
        for fi, t in enumerate(out):
            fh.write('{"function": "%s", "generations": [\n' % t["function"])
            fh.write(",\n".join(json.dumps(g) for g in t["generations"]))
            fh.write("]}" + (",\n" if fi + 1 < len(out) else "\n"))
        fh.write("]}\n")


if __name__ == "__main__":
    write_torus()
    write_tilesparse()
    write_curve()
    write_protein()
    write_fair_bandits()
    write_boba()
    write_mdp()
    write_pac_bayes()
    write_forgetting()
    write_eefp()
    write_lif()
    write_equicov()
    write_inslen()
    write_sae_domains()
    write_hiddenstate_bad()
    write_fafo()
    write_care()
    write_dwp()
    write_aporia()
    write_negood()
    write_specexit()
    write_repa()
    write_fedgr()
    write_deepha()
    write_lavid()
    write_prefetchrag()
    write_persuasion()
    write_gemq()
    write_bimetric()
    write_olaf()
    write_metadistill()
