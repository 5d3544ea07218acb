#!/usr/bin/env bash
# Growth: one rule whose findings grow with the input. A generated Python file with N added
# `print(` calls (N = 2,000 / 8,000 / 32,000 by default) in a two-commit repository, reviewed as
# a pull request with a one-rule ruleset; prints CPU seconds, wall seconds, peak RSS, findings and
# microseconds of CPU per finding. Target: per-finding time constant within 2x across N.
#   bench/growth.sh [N...]          (needs a build with the runner: BUILD_DIR, default ./build)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$here/build}
runner=${RUNNER:-$build/runner}
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(2000 8000 32000)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/print.rules" <<'RULES'
ruleset growth "growth bench" { version 1 }
rule P1 "print call" {
  severity warn
  for l in added_lines(changed) where l.code ~ /\bprint\(/
  problem "`print(` at {l.file}:{l.line}"
  impact "output goes to stdout"
  action "Author should use the logger"
  example bad python "print(1)  # <- P1"
}
RULES
echo "load_average $(cut -d' ' -f1-3 /proc/loadavg) (cores: $(nproc))"
printf "%-8s %8s %8s %9s %9s %14s\n" n cpu_s wall_s rss_mib findings cpu_us_per_find
for n in "${sizes[@]}"; do
  repo="$tmp/r$n"
  git init -q "$repo"
  git -C "$repo" -c user.name=b -c user.email=b@b commit -q --allow-empty -m base
  python3 - "$n" >"$repo/gen.py" <<'PY'
import sys
n = int(sys.argv[1])
print("def main():")
for i in range(n):
    print(f"    print({i})")
PY
  git -C "$repo" add gen.py
  git -C "$repo" -c user.name=b -c user.email=b@b commit -q -m head
  /usr/bin/time -f "%U %S %e %M" -o "$tmp/t" "$runner" -r "$tmp/print.rules" --repo "$repo" --base HEAD~1 --head HEAD \
    --max-file-size 100000000 --format "json=$tmp/out.json" --fail-on never >/dev/null 2>"$tmp/err" || true
  [ -s "$tmp/out.json" ] || { echo "growth: the runner failed at N=$n:" >&2; cat "$tmp/err" >&2; exit 1; }
  read -r u s e m <"$tmp/t"
  found=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["findings"]))' "$tmp/out.json")
  awk -v n="$n" -v u="$u" -v s="$s" -v e="$e" -v m="$m" -v f="$found" 'BEGIN {
    printf "%-8d %8.2f %8.2f %9.1f %9d %14.1f\n", n, u+s, e, m/1024, f, (f > 0 ? (u+s)*1e6/f : 0) }'
done
