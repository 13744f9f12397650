#!/usr/bin/env bash
# Build cost from a Ninja build tree: CPU-seconds per folder and the slowest build steps, read from
# BUILD_DIR/.ninja_log (the last entry of every output, so run it after a cold build for absolute
# numbers, or after any build to see what that build spent). One compile step is one process on one
# core, so the sum of step durations is the build's CPU time (ccache hits count as what they cost).
# Usage: tests/build-cost.sh [BUILD_DIR] [N]     (defaults: build 20)
#        tests/build-cost.sh BUILD_DIR N --json  (machine-readable, for issue notes and CI logs)
set -euo pipefail
build="${1:-build}"
top="${2:-20}"
fmt="${3:-text}"
log="$build/.ninja_log"
[ -f "$log" ] || { echo "build-cost: no $log (not a Ninja build tree?)" >&2; exit 1; }
exec /usr/bin/python3 - "$log" "$top" "$fmt" <<'PY'
import json, re, sys
log, top, fmt = sys.argv[1], int(sys.argv[2]), sys.argv[3]
last = {}
with open(log) as f:
    for line in f:
        if line.startswith("#"):
            continue
        parts = line.rstrip("\n").split("\t")
        if len(parts) < 4:
            continue
        start, end, path = int(parts[0]), int(parts[1]), parts[3]
        cmd = parts[4] if len(parts) > 4 else path
        last[path] = (start, end, cmd)

# A step with several outputs (moc/rcc, a link with its import files) has one line per output:
# count each (start, end, command) once, under its first output.
seen, steps_once = set(), {}
for path, (start, end, cmd) in last.items():
    if (start, end, cmd) in seen:
        continue
    seen.add((start, end, cmd))
    steps_once[path] = (end - start) / 1000.0
last = steps_once

def source_of(path):
    # "engines/games/CMakeFiles/paperlab_games.dir/DrsOperator.cpp.o" -> ("engines/games", "DrsOperator.cpp")
    m = re.match(r"(.*?)/?CMakeFiles/[^/]+\.dir/(.*)\.o$", path)
    if not m:
        return None, path
    folder, rel = m.group(1), m.group(2)
    if rel.startswith("__/") or "/__/" in rel:
        rel = rel.replace("__/", "../")
    return folder or ".", rel

def area(folder):
    # Group by the project's areas: engines/<x>, plugins/<x>, widgets, app/<x>, tests/<x>, tests/bench/<x>.
    p = folder.split("/")
    if p[0] == "tests" and len(p) > 2 and p[1] in ("bench", "plugins", "fuzz"):
        return "/".join(p[:3])
    return "/".join(p[:2]) if len(p) > 1 else p[0]

total = 0.0
compile_s, link_s, other_s = 0.0, 0.0, 0.0
per_area, steps = {}, []
for path, secs in last.items():
    total += secs
    folder, rel = source_of(path)
    if folder is None:
        kind = "link" if not path.endswith((".h", ".cpp", ".stamp")) else "other"
        if kind == "link":
            link_s += secs
        else:
            other_s += secs
        a = "link/other"
    else:
        compile_s += secs
        a = area(folder)
    per_area[a] = per_area.get(a, 0.0) + secs
    steps.append((secs, path if folder is None else f"{folder}/{rel}"))
steps.sort(reverse=True)
areas = sorted(per_area.items(), key=lambda kv: -kv[1])
if fmt == "--json":
    print(json.dumps({"total_cpu_s": round(total, 1), "compile_cpu_s": round(compile_s, 1),
                      "link_cpu_s": round(link_s, 1), "steps": len(last),
                      "areas": {k: round(v, 1) for k, v in areas},
                      "slowest": [{"cpu_s": round(s, 1), "step": p} for s, p in steps[:top]]}, indent=1))
    sys.exit(0)
print(f"build cost of {log}: {len(last)} steps, {total:.0f} CPU-s "
      f"(compile {compile_s:.0f}, link {link_s:.0f}, other {other_s:.0f})")
print("\nCPU-seconds per area:")
for k, v in areas:
    print(f"  {v:8.1f}  {k}")
print(f"\n{top} slowest steps:")
for s, p in steps[:top]:
    print(f"  {s:8.1f}  {p}")
PY
