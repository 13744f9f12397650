#!/usr/bin/env bash
# tests/bench/run-bench.sh [BUILD_DIR] [--quick]
# Builds and runs every bench_* executable (tests/bench/*/), the startup probe and the job
# runner's event-loop stall / cancel probes, prints one table (engine, size, ours, peer, ratio)
# and writes tests/bench/results.json (not committed). Not part of ctest. See README.md here.
# Benchmark environment rules: OpenBLAS tuning variables are unset for this command only, and
# the BLAS kernel numpy/scipy actually use is printed so peers are compared like with like.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
build="build"; quick=()
for a in "$@"; do
  case "$a" in
    --quick) quick=(--quick) ;;
    *) build="$a" ;;
  esac
done
export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
jobs="${PAPERLAB_JOBS:-$(nproc)}"
out="$build/bench"
mkdir -p "$out"
# Benchmarks are not part of the default build (PAPERLAB_BUILD_BENCH=OFF): switch them on here.
[ -f "$build/build.ninja" ] || cmake --preset default >/dev/null
cmake -S "$root" -B "$build" -DPAPERLAB_BUILD_BENCH=ON >/dev/null
benches=($(cmake --build "$build" --target help | sed -n 's/^\(bench_[A-Za-z0-9_]*\): .*/\1/p' | sort -u))
cmake --build "$build" -j"$jobs" --target "${benches[@]}" paperlab tst_jobrunner
run() { env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE "$@"; }

echo "== BLAS kernel (threadpoolctl)"
run python3 -c "import numpy, threadpoolctl, json; print(json.dumps(threadpoolctl.threadpool_info(), indent=1))" \
  | tee "$out/blas.json" || echo "threadpoolctl/numpy not available" | tee "$out/blas.json"

xvfb=()
command -v xvfb-run >/dev/null && xvfb=(xvfb-run -a -s "-screen 0 1600x1200x24")
for b in "${benches[@]}"; do
  echo "== $b"
  case "$b" in
    bench_widgets) (cd "$out" && QT_QPA_PLATFORM=offscreen run "$root/$build/bin/$b" "${quick[@]}") | tee "$out/$b.txt" ;;
    bench_visual) (cd "$out" && run "${xvfb[@]}" "$root/$build/bin/$b" "${quick[@]}") | tee "$out/$b.txt" || true ;;
    *) (cd "$out" && run "$root/$build/bin/$b" "${quick[@]}" --json "$root/$out/$b.json") | tee "$out/$b.txt" ;;
  esac
done

echo "== startup (ready in N ms)"
startup_ms=""
if [ ${#xvfb[@]} -gt 0 ]; then
  log="$out/startup.txt"; : >"$log"
  QT_LOGGING_RULES=paperlab.startup=true run "${xvfb[@]}" "$build/bin/paperlab" >"$log" 2>&1 &
  pid=$!
  for _ in $(seq 1 600); do
    grep -q "ready in" "$log" && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  startup_ms="$(grep -o 'ready in [0-9]* ms' "$log" | head -1 | grep -o '[0-9]*' || true)"
  # xvfb-run's child is the app: end the whole process group that xvfb-run started.
  pkill -TERM -P "$pid" 2>/dev/null || true
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  echo "startup: ${startup_ms:-?} ms"
fi

echo "== job runner probes"
QT_QPA_PLATFORM=offscreen run "$build/bin/tst_jobrunner" 2>&1 | tee "$out/jobrunner.txt" \
  | grep -E "largest event-loop stall|cancel-to-end" || true

python3 - "$out" "$root/tests/bench/results.json" "${startup_ms:-}" <<'PY'
import json, os, re, sys
out, dest, startup = sys.argv[1], sys.argv[2], sys.argv[3]
rows = []
def load(name):
    p = os.path.join(out, name)
    return json.load(open(p)) if os.path.exists(p) else None
ssn = load("bench_ssn_nash.json")
for c in (ssn or {}).get("cases", []):
    rows.append({"bench": "ssn_nash", "engine": c["engine"], "size": str(c["size"]), "unit": "ms",
                 "ours": c.get("ours_ms"), "peer": c.get("peer_ms"), "ratio": c.get("ratio")})
ftrl = load("bench_ftrl.json")
for r in (ftrl or {}).get("rows", []):
    rows.append({"bench": "ftrl", "engine": r["engine"], "size": r["size"], "unit": r["unit"],
                 "ours": r["ours"], "peer": r["peer"], "ratio": r["ratio"]})
for b in ("bench_widgets", "bench_visual"):
    p = os.path.join(out, b + ".txt")
    if not os.path.exists(p):
        continue
    last = [l for l in open(p).read().splitlines() if l.startswith("{")]
    if last:
        for k, v in json.loads(last[-1]).items():
            rows.append({"bench": b[6:], "engine": k, "size": "", "unit": "ms median",
                         "ours": v.get("median_ms") if isinstance(v, dict) else v, "peer": None, "ratio": None})
probes = {}
if startup:
    probes["startup_ms"] = int(startup)
jr = os.path.join(out, "jobrunner.txt")
if os.path.exists(jr):
    t = open(jr).read()
    for key, rx in (("event_loop_stall_ms", r"largest event-loop stall[^:]*: (\d+) ms"),
                    ("cancel_to_end_ms", r"cancel-to-end[^:]*: (\d+) ms")):
        m = re.search(rx, t)
        if m:
            probes[key] = int(m.group(1))
for k, v in probes.items():
    rows.append({"bench": "probe", "engine": k, "size": "", "unit": "ms", "ours": v, "peer": None, "ratio": None})
fmt = lambda x: "-" if x is None else (f"{x:.4g}" if isinstance(x, float) else str(x))
print(f"{'engine':<44} {'size':<14} {'ours':>12} {'peer':>12} {'ratio':>8}  unit")
for r in rows:
    print(f"{(r['bench'] + ': ' + r['engine'])[:44]:<44} {r['size'][:14]:<14} {fmt(r['ours']):>12} "
          f"{fmt(r['peer']):>12} {fmt(r['ratio']):>8}  {r['unit']}")
blas = open(os.path.join(out, "blas.json")).read()
try:
    blas = json.loads(blas)
except ValueError:
    pass
json.dump({"rows": rows, "probes": probes, "blas": blas}, open(dest, "w"), indent=2)
print("wrote", dest)
PY
