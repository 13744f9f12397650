#!/usr/bin/env bash
# packaging/new-panel.sh: --dry-run writes nothing; a real run into a temporary tree writes the
# renamed plugin and engine folders with no trace of the template's names; the copied engine
# compiles on its own (no Qt); bad ids and existing folders are refused.
#   check-new-panel.sh <source dir> [<c++ compiler>]
set -euo pipefail
src="$1"
cxx="${2:-}"
script="$src/packaging/new-panel.sh"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# --dry-run lists the files and writes none.
out="$("$script" --dry-run --root "$tmp" my-paper)"
grep -q "would write plugins/my-paper/MyPaperFigures.cpp" <<<"$out" || fail "dry run does not list the figures: $out"
grep -q "would write engines/mypaper/MyPaperEngine.cpp" <<<"$out" || fail "dry run does not list the engine: $out"
[ -z "$(ls -A "$tmp")" ] || fail "--dry-run wrote files"

"$script" --root "$tmp" my-paper >/dev/null
p="$tmp/plugins/my-paper"
e="$tmp/engines/mypaper"
for f in "$p/CMakeLists.txt" "$p/paper.json" "$p/help.md" "$p/MyPaperFigures.cpp" \
    "$e/CMakeLists.txt" "$e/MyPaperEngine.h" "$e/MyPaperEngine.cpp" "$e/MyPaperKeys.h"; do
    [ -s "$f" ] || fail "missing $f"
done
[ ! -e "$p/README.md" ] || fail "the template's README was copied"
# No trace of the template's names (the C++ keyword "template" would be fine, but none is used).
if grep -rnE 'Template|\btempl\b|"template"|ID template|paperlab_templ\b|"engine/' "$p" "$e"; then
    fail "template names left in the copy"
fi
grep -q '"id": "my-paper"' "$p/paper.json" || fail "paper.json id not renamed"
grep -q '"apiVersion": 2' "$p/paper.json" || fail "paper.json apiVersion"
grep -q 'paperlab_add_plugin(ID my-paper NAMESPACE pl::mypaper SOURCES MyPaperFigures.cpp LIBS paperlab_mypaper)' \
    "$p/CMakeLists.txt" || fail "plugin CMakeLists.txt: $(cat "$p/CMakeLists.txt")"
grep -q 'add_library(paperlab_mypaper STATIC' "$e/CMakeLists.txt" || fail "engine target not renamed"
grep -q '#include "mypaper/MyPaperEngine.h"' "$p/MyPaperFigures.cpp" || fail "engine include not renamed"
grep -q 'namespace pl::mypaper {' "$p/MyPaperFigures.cpp" || fail "figures namespace not renamed"
grep -q 'return "my-paper";' "$e/MyPaperEngine.h" || fail "engine id not renamed"
grep -q 'namespace pl::mypaper::keys' "$e/MyPaperKeys.h" || fail "keys namespace not renamed"

# The copied engine compiles against the repository's engines/core (pure C++, a second or so).
if [ -n "$cxx" ] && [ -x "$(command -v "$cxx")" ]; then
    "$cxx" -std=c++20 -fsyntax-only -I"$tmp/engines" -I"$src/engines" "$e/MyPaperEngine.cpp" ||
        fail "the copied engine does not compile"
fi

# Refusals: an existing panel, a bad id, a bad engine name.
if "$script" --root "$tmp" my-paper >/dev/null 2>&1; then fail "overwrote an existing panel"; fi
if "$script" --root "$tmp" My_Paper >/dev/null 2>&1; then fail "accepted a bad id"; fi
if "$script" --root "$tmp" --engine core other >/dev/null 2>&1; then fail "accepted engine name core"; fi
"$script" --root "$tmp" --engine othername other-paper >/dev/null
[ -f "$tmp/engines/othername/OtherPaperEngine.h" ] || fail "--engine ignored"
grep -q 'namespace pl::othername {' "$tmp/plugins/other-paper/OtherPaperFigures.cpp" || fail "--engine namespace"
echo "new-panel.sh: ok"
