#!/usr/bin/env bash
# Compares our unbound-read analysis (bench/unbound_dump) with Pyright's
# reportPossiblyUnboundVariable ("is possibly unbound") and reportUnboundVariable ("is unbound")
# on one Python checkout, and times parse vs parse+analysis.
#   bench/unbound_vs_pyright.sh CHECKOUT [OUTDIR]
# Needs: a build with the unbound_dump target (BUILD_DIR, default ./build), node + npm.
# Pyright is installed at a pinned version into $PYRIGHT_CACHE (outside the repository).
# Writes OUTDIR/{ours,pyright,only_ours,only_pyright,both}.txt (possibly unbound) and the same
# with a definite_ prefix (unbound on every path), default OUTDIR /tmp/unbound-vs-pyright, as
# `path:line name` lines, and prints the agreement figures of both.
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
pyright_rows() {  # RULE MESSAGE-REGEX
  python3 - "$out/pyright.json" "$checkout" "$1" "$2" <<'PY'
import json, os, sys, re
data = json.load(open(sys.argv[1]))
root, rule, pattern = sys.argv[2], sys.argv[3], sys.argv[4]
rows = set()
for d in data.get("generalDiagnostics", []):
    if d.get("rule") != rule:
        continue
    m = re.match(pattern, d["message"])
    if not m:
        continue
    rel = os.path.relpath(d["file"], root)
    rows.add(f'{rel}:{d["range"]["start"]["line"] + 1} {m.group(1)}')
print("\n".join(sorted(rows)))
PY
}
pyright_rows reportPossiblyUnboundVariable '"([^"]+)" is possibly unbound' > "$out/pyright.txt"
pyright_rows reportUnboundVariable '"([^"]+)" is unbound' > "$out/definite_pyright.txt"
n_py=$(grep -c . "$out/pyright.txt" || true)
if [ "$n_py" = 0 ]; then
  echo "pyright reported nothing: check the configuration (see $out/pyright.json)" >&2
fi

/usr/bin/time -v "$build/bench/unbound_dump" "$checkout" --time --verbose > "$out/ours_verbose.txt" 2> "$out/timing.txt"
echo "checkout: $checkout ($(git -C "$checkout" rev-parse --short HEAD 2>/dev/null || echo '?'))"
for kind in possibly definite; do
  pre=""; [ "$kind" = definite ] && pre="definite_"
  grep -F "[$kind " "$out/ours_verbose.txt" | sed -E 's/^([^:]+:[0-9]+):[0-9]+ ([^ ]+).*/\1 \2/' | sort -u > "$out/${pre}ours.txt" || true
  sort -u "$out/${pre}pyright.txt" -o "$out/${pre}pyright.txt"
  comm -12 "$out/${pre}ours.txt" "$out/${pre}pyright.txt" > "$out/${pre}both.txt"
  comm -23 "$out/${pre}ours.txt" "$out/${pre}pyright.txt" > "$out/${pre}only_ours.txt"
  comm -13 "$out/${pre}ours.txt" "$out/${pre}pyright.txt" > "$out/${pre}only_pyright.txt"
  n_p=$(grep -c . "$out/${pre}pyright.txt" || true)
  n_ours=$(grep -c . "$out/${pre}ours.txt" || true)
  n_both=$(grep -c . "$out/${pre}both.txt" || true)
  echo "$kind unbound: pyright $pyright_version: $n_p; ours: $n_ours; both: $n_both"
  python3 -c "import sys; p,o,b=map(int,sys.argv[1:]); print(f'  recall vs pyright: {b/p*100 if p else 0:.1f}%  confirmed by pyright: {b/o*100 if o else 0:.1f}%')" "$n_p" "$n_ours" "$n_both"
done
grep -E "parse alone|Maximum resident|Elapsed" "$out/timing.txt"
