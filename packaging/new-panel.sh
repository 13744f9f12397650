#!/usr/bin/env bash
# Starts a new panel from the template: copies plugins/template to plugins/<id>/ and its engine
# (plugins/template/engine/) to engines/<name>/, renaming files, classes, namespace, targets and
# ids. See "Add a panel" in README.md for the steps after this one.
#
#   packaging/new-panel.sh [--dry-run] [--root DIR] [--engine NAME] ID
#
#   ID           panel id = plugin folder name: lower case, digits and dashes (e.g. my-paper)
#   --engine     engine folder and C++ namespace (pl::NAME); default: ID without dashes
#   --root DIR   repository to write into (default: the one holding this script)
#   --dry-run    print the files that would be written, write nothing
set -euo pipefail

usage() {
    sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 1
}

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
root="$here"
dry=0
engine=""
id=""
while [ $# -gt 0 ]; do
    case "$1" in
    --dry-run) dry=1 ;;
    --root) root="${2:?--root needs a directory}"; shift ;;
    --engine) engine="${2:?--engine needs a name}"; shift ;;
    -h | --help) usage ;;
    -*) echo "new-panel.sh: unknown option $1" >&2; usage ;;
    *) [ -z "$id" ] || usage; id="$1" ;;
    esac
    shift
done
[ -n "$id" ] || usage
if ! [[ "$id" =~ ^[a-z][a-z0-9]*(-[a-z0-9]+)*$ ]] || [ "$id" = template ]; then
    echo "new-panel.sh: '$id' is not a panel id (lower case letters, digits and single dashes, e.g. my-paper)" >&2
    exit 1
fi
[ -n "$engine" ] || engine="${id//-/}"
if ! [[ "$engine" =~ ^[a-z][a-z0-9]*$ ]] || [ "$engine" = core ]; then
    echo "new-panel.sh: '$engine' is not an engine folder name (lower case letters and digits, not 'core')" >&2
    exit 1
fi
# ID -> CamelCase file and class prefix: my-paper -> MyPaper.
camel=""
IFS='-' read -r -a words <<<"$id"
for w in "${words[@]}"; do camel+="${w^}"; done
[[ "$camel" =~ ^[A-Za-z] ]] || camel="Panel$camel"

src="$here/plugins/template"
[ -f "$src/paper.json" ] && [ -d "$src/engine" ] || { echo "new-panel.sh: no template in $src" >&2; exit 1; }
plugin_dst="$root/plugins/$id"
engine_dst="$root/engines/$engine"
for d in "$plugin_dst" "$engine_dst"; do
    if [ -e "$d" ]; then
        echo "new-panel.sh: $d exists already; choose another id or --engine" >&2
        exit 1
    fi
done

# Renaming, in this order: the id where the template names itself, file/class prefix, the
# engine target, the namespace, the engine include folder.
rename() {
    sed -e "s/\"template\"/\"$id\"/g" \
        -e "s/ID template\b/ID $id/g" \
        -e "s/Template/$camel/g" \
        -e "s/paperlab_templ\b/paperlab_$engine/g" \
        -e "s/\btempl\b/$engine/g" \
        -e "s#\"engine/#\"$engine/#g"
}

# The files a panel starts from (the template's README.md stays behind).
plugin_files=(CMakeLists.txt paper.json help.md TemplateFigures.cpp)
while IFS= read -r f; do plugin_files+=("${f#"$src/"}"); done < <(find "$src/tours" -type f -name '*.json' 2>/dev/null | sort)
engine_files=()
while IFS= read -r f; do engine_files+=("${f#"$src/engine/"}"); done < <(find "$src/engine" -maxdepth 1 -type f | sort)

copy() { # copy <from> <to>
    local to="$2"
    to="$(dirname "$to")/$(basename "$to" | sed "s/Template/$camel/g")"
    if [ "$dry" = 1 ]; then
        echo "would write ${to#"$root/"}"
    else
        mkdir -p "$(dirname "$to")"
        rename <"$1" >"$to"
        echo "wrote ${to#"$root/"}"
    fi
}
for f in "${plugin_files[@]}"; do copy "$src/$f" "$plugin_dst/$f"; done
for f in "${engine_files[@]}"; do copy "$src/engine/$f" "$engine_dst/$f"; done

if [ "$dry" = 0 ]; then
    cat <<MSG

Panel '$id' created: plugins/$id/ (figures: ${camel}Figures.cpp) and engines/$engine/
(engine ${camel}Engine, keys ${camel}Keys.h, namespace pl::$engine, target paperlab_$engine).
Next: edit paper.json (title, paper, idea, figures, presets), write help.md, replace the
random walk in engines/$engine/ with the paper's method, then build:
  cmake --build build --target paperlab_${id//-/_}
MSG
fi
