#!/usr/bin/env bash
# Sharding on a real tree: the audit (`--all`) of CHECKOUT once unsharded and once as N shards
# (`--shard I/N`, default N = 8) joined with `runner merge`; the merged SARIF's results must equal
# the unsharded ones byte for byte once sorted (each result with its rule id in place of its
# rule index, since a merge renumbers the rules). Prints the CPU/wall/peak RSS of the whole run
# and of the slowest shard, and "equal" or the first differences.
#   bench/shards.sh CHECKOUT [N] [RULESET...]        (default ruleset: atom; BUILD_DIR or RUNNER)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
checkout=$1
n=${2:-8}
shift $(( $# >= 2 ? 2 : 1 ))
rulesets=("$@")
[ ${#rulesets[@]} -gt 0 ] || rulesets=(atom)
runner=${RUNNER:-${BUILD_DIR:-$here/build}/runner}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
args=()
for r in "${rulesets[@]}"; do args+=(-r "$r"); done
echo "checkout $checkout @ $(git -C "$checkout" rev-parse --short=10 HEAD); $n shards"
echo "load_average $(cut -d' ' -f1-3 /proc/loadavg) (cores: $(nproc))"
timed() {
  local name=$1; shift
  /usr/bin/time -f "%U %S %e %M" -o "$tmp/$name.time" "$@" >/dev/null 2>"$tmp/$name.err" || true
  read -r u s e m < <(tail -1 "$tmp/$name.time")
  awk -v n="$name" -v u="$u" -v s="$s" -v e="$e" -v m="$m" 'BEGIN { printf "%-8s cpu_s %8.2f wall_s %8.2f rss_mib %7.1f\n", n, u+s, e, m/1024 }'
}
timed whole "$runner" "${args[@]}" --repo "$checkout" --all --fail-on never --allow-incomplete --format "sarif=$tmp/whole.sarif"
parts=()
for i in $(seq 1 "$n"); do
  timed "shard$i" "$runner" "${args[@]}" --repo "$checkout" --all --shard "$i/$n" --fail-on never --allow-incomplete \
    --format "sarif=$tmp/s$i.sarif"
  parts+=("$tmp/s$i.sarif")
done
"$runner" merge "${parts[@]}" -o "$tmp/merged.sarif"
python3 - "$tmp/whole.sarif" "$tmp/merged.sarif" <<'PY'
import json, sys
def results(path):
    run = json.load(open(path))["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    out = []
    for r in run["results"]:
        r["ruleIndex"] = rules[r["ruleIndex"]]["id"]
        out.append(json.dumps(r, sort_keys=True, separators=(",", ":")))
    return sorted(out)
w, m = results(sys.argv[1]), results(sys.argv[2])
if w == m:
    print("merged == unsharded: equal (%d results)" % len(w))
else:
    sw, sm = set(w), set(m)
    print("merged != unsharded: %d results unsharded, %d merged; %d only unsharded, %d only merged" % (
        len(w), len(m), len(sw - sm), len(sm - sw)))
    for x in sorted(sw - sm)[:5]: print("  only unsharded: " + x[:300])
    for x in sorted(sm - sw)[:5]: print("  only merged:    " + x[:300])
    sys.exit(1)
PY
