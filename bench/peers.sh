#!/usr/bin/env bash
# Our runner side by side with peers on the same checkout, same machine, same moment.
#   bench/peers.sh [CHECKOUT] [ATOM_CHECKOUT] [N_COMMITS]
# 1. One regex over every .py line (3rdparty/third_party skipped, as the runner's default
#    skip globs do): ripgrep (`rg -j1`), the runner with a one-rule ruleset over
#    lines("**/*.py") (-j1 and -j2), and ast-grep (`@ast-grep/cli`, installed with npm into a
#    cache folder outside the repository; skipped when npm cannot install it) with the
#    equivalent call pattern. Match counts are printed so the runs can be checked as equivalent.
# 2. The runner end to end on N_COMMITS (default 5) ATOM commits listed in
#    /work/shared/eval/noise-dev.tsv, ruleset rulesets/*.rules if present (else the CLI test's
#    mini.rules), `--base SHA^ --head SHA`.
# Every figure is user+system CPU seconds (the machine is shared; wall time is printed too) and
# peak RSS from /usr/bin/time. Needs a build with the runner (BUILD_DIR, default ./build).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
checkout=${1:-/work/aiter}
atom=${2:-/work/atom}
ncommits=${3:-5}
build=${BUILD_DIR:-$here/build}
runner="$build/runner"
sg_cache=${AST_GREP_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/review-action/ast-grep}
regex='torch\.(empty|zeros)\('
[ -d "$checkout" ] || git clone --quiet --shared /work/.mirror/ROCm+aiter/repo "$checkout"
command -v rg >/dev/null || { echo "peers: ripgrep missing (apt-get install -y ripgrep)" >&2; exit 1; }
cmake --build "$build" --target runner -j2 >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "load_average $(cut -d' ' -f1-3 /proc/loadavg) (cores: $(nproc))"

# timed NAME CMD... : runs CMD with stdout to $tmp/NAME.out, prints "NAME cpu_s wall_s rss_mib".
timed() {
  local name=$1; shift
  /usr/bin/time -f "%U %S %e %M" -o "$tmp/$name.time" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" || true
  read -r u s e m < <(tail -1 "$tmp/$name.time")
  cpu=$(awk -v u="$u" -v s="$s" 'BEGIN {printf "%.2f", u + s}')
  printf "%-22s cpu_s %7s  wall_s %6s  rss_mib %7.1f" "$name" "$cpu" "$e" "$(awk -v m="$m" 'BEGIN {print m/1024}')"
  eval "cpu_$name=$cpu"
}

echo "== regex $regex over the .py files of $checkout @ $(git -C "$checkout" rev-parse --short=10 HEAD)"
timed rg rg -j1 -c --no-messages -g '*.py' -g '!**/3rdparty/**' -g '!**/third_party/**' "$regex" "$checkout"
echo "  matches $(awk -F: '{s += $NF} END {print s + 0}' "$tmp/rg.out")"

cat >"$tmp/peer.rules" <<RULES
ruleset peer "Peer timing" {
  version 1
}

rule PEER1 "regex over every Python line" {
  severity note
  for l in lines("**/*.py") where l.text ~ /$regex/
  problem "line {l.line} of \`{l.file}\` matches"
  impact  "none: a timing probe"
  action  "Reviewer should ignore this timing probe"
}
RULES
for j in 1 2; do
  timed "runner_j$j" "$runner" -r "$tmp/peer.rules" --repo "$checkout" --base HEAD^ --head HEAD --filter all \
    --rule-budget-ms 3600000 -j$j --fail-on never --format json="$tmp/runner_j$j.json"
  echo "  matches $(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["findings"]))' "$tmp/runner_j$j.json")"
done

if [ ! -x "$sg_cache/node_modules/.bin/ast-grep" ]; then
  mkdir -p "$sg_cache"
  npm install --silent --prefix "$sg_cache" @ast-grep/cli >/dev/null 2>&1 || true
fi
if [ -x "$sg_cache/node_modules/.bin/ast-grep" ]; then
  cat >"$tmp/sg.yml" <<'YAML'
id: peer
language: python
rule:
  any:
    - pattern: torch.empty($$$)
    - pattern: torch.zeros($$$)
YAML
  echo "  (ast-grep $("$sg_cache/node_modules/.bin/ast-grep" --version | awk '{print $2}'))"
  timed ast_grep "$sg_cache/node_modules/.bin/ast-grep" scan -j 1 --rule "$tmp/sg.yml" --json=stream \
    --globs '*.py' --globs '!**/3rdparty/**' --globs '!**/third_party/**' "$checkout"
  echo "  matches $(wc -l <"$tmp/ast_grep.out")"
fi
awk -v r="$cpu_rg" -v a="$cpu_runner_j1" -v b="$cpu_runner_j2" -v g="${cpu_ast_grep:-0}" 'BEGIN {
  printf "ratios (CPU): runner -j1 / rg %.0fx; runner -j2 / rg %.0fx", a / (r > 0 ? r : 0.01), b / (r > 0 ? r : 0.01)
  if (g > 0) printf "; runner -j1 / ast-grep %.1fx; ast-grep / rg %.0fx", a / g, g / (r > 0 ? r : 0.01)
  printf "  (rg below 0.01 s counts as 0.01 s)\n" }'

echo "== runner end to end on ATOM commits ($atom)"
ruleset=$(ls "$here"/rulesets/*.rules 2>/dev/null | head -1)
[ -n "$ruleset" ] || ruleset="$here/tests/fixtures/cli/mini.rules"
echo "  ruleset $ruleset"
awk -F'\t' '$1 == "ROCm/ATOM" {print $2}' /work/shared/eval/noise-dev.tsv | head -n "$ncommits" > "$tmp/commits"
while read -r sha; do
  git -C "$atom" cat-file -e "$sha^{commit}" 2>/dev/null || { echo "  $sha: not in $atom, skipped"; continue; }
  files=$(git -C "$atom" diff --name-only "$sha^" "$sha" | wc -l)
  timed "c_${sha:0:9}" "$runner" -r "$ruleset" --repo "$atom" --base "$sha^" --head "$sha" --fail-on never --format json
  echo "  files $files findings $(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["findings"]))' "$tmp/c_${sha:0:9}.out" 2>/dev/null || echo '?')"
done < "$tmp/commits"
