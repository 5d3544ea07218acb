#!/usr/bin/env bash
# Compares our possibly-unbound analysis (bench/unbound_dump) with Pyright's
# reportPossiblyUnboundVariable on one Python checkout, and times parse vs parse+analysis.
#   bench/unbound_vs_pyright.sh CHECKOUT [OUTDIR]
# Needs: a build with the unbound_dump target (BUILD_DIR, default ./build), node + npm.
# Pyright is installed at a pinned version into $PYRIGHT_CACHE (outside the repository).
# Writes OUTDIR/{ours,pyright,only_ours,only_pyright,both}.txt (default /tmp/unbound-vs-pyright)
# as `path:line name` lines, and prints the agreement figures.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
checkout=$(cd "${1:?usage: unbound_vs_pyright.sh CHECKOUT [OUTDIR]}" && pwd)
out=${2:-/tmp/unbound-vs-pyright}
build=${BUILD_DIR:-$here/build}
pyright_version=1.1.409
cache=${PYRIGHT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/review-action/pyright-$pyright_version}
mkdir -p "$out" "$cache"

if [ ! -x "$cache/node_modules/.bin/pyright" ]; then
  npm install --silent --prefix "$cache" "pyright@$pyright_version" >/dev/null
fi
cmake --build "$build" --target unbound_dump -j2 >/dev/null

# Pyright: type checking off, but both unbound rules on (the possibly-unbound rule reports
# nothing unless reportUnboundVariable is enabled too in "off" mode).
cfg=$(mktemp -d)
trap 'rm -rf "$cfg"' EXIT
rel=$(python3 -c 'import os,sys; print(os.path.relpath(sys.argv[1], sys.argv[2]))' "$checkout" "$cfg")
cat > "$cfg/pyrightconfig.json" <<JSON
{
  "include": ["$rel"],
  "exclude": ["**/.git", "**/node_modules", "**/__pycache__"],
  "typeCheckingMode": "off",
  "reportUnboundVariable": "error",
  "reportPossiblyUnboundVariable": "error",
  "pythonVersion": "3.12"
}
JSON
[ -n "${SKIP_PYRIGHT:-}" ] || ( cd "$cfg" && "$cache/node_modules/.bin/pyright" --outputjson -p "$cfg/pyrightconfig.json" > "$out/pyright.json" ) || true
python3 - "$out/pyright.json" "$checkout" > "$out/pyright.txt" <<'PY'
import json, os, sys, re
data = json.load(open(sys.argv[1]))
root = sys.argv[2]
rows = set()
for d in data.get("generalDiagnostics", []):
    if d.get("rule") != "reportPossiblyUnboundVariable":
        continue
    m = re.match(r'"([^"]+)" is possibly unbound', d["message"])
    if not m:
        continue
    rel = os.path.relpath(d["file"], root)
    rows.add(f'{rel}:{d["range"]["start"]["line"] + 1} {m.group(1)}')
print("\n".join(sorted(rows)))
PY
n_py=$(grep -c . "$out/pyright.txt" || true)
if [ "$n_py" = 0 ]; then
  echo "pyright reported nothing: check the configuration (see $out/pyright.json)" >&2
fi

/usr/bin/time -v "$build/bench/unbound_dump" "$checkout" --time --verbose > "$out/ours_verbose.txt" 2> "$out/timing.txt"
sed -E 's/^([^:]+:[0-9]+):[0-9]+ ([^ ]+).*/\1 \2/' "$out/ours_verbose.txt" | sort -u > "$out/ours.txt"
sort -u "$out/pyright.txt" -o "$out/pyright.txt"
comm -12 "$out/ours.txt" "$out/pyright.txt" > "$out/both.txt"
comm -23 "$out/ours.txt" "$out/pyright.txt" > "$out/only_ours.txt"
comm -13 "$out/ours.txt" "$out/pyright.txt" > "$out/only_pyright.txt"
n_ours=$(grep -c . "$out/ours.txt" || true)
n_both=$(grep -c . "$out/both.txt" || true)
echo "checkout: $checkout ($(git -C "$checkout" rev-parse --short HEAD 2>/dev/null || echo '?'))"
echo "pyright $pyright_version possibly-unbound: $n_py; ours: $n_ours; both: $n_both"
python3 -c "import sys; p,o,b=map(int,sys.argv[1:]); print(f'recall vs pyright: {b/p*100 if p else 0:.1f}%  confirmed by pyright: {b/o*100 if o else 0:.1f}%')" "$n_py" "$n_ours" "$n_both"
grep -E "parse alone|Maximum resident|Elapsed" "$out/timing.txt"
