#!/usr/bin/env bash
# Audit cost side by side: the runner's audit (`--all`, every shipped rule of RULESETS) of one
# checkout, tree-sitter parsing the same tree with nothing else (the floor), and `ast-grep scan`
# with five simple Python rules over the same tree. Same machine, same minutes.
#   bench/audit.sh CHECKOUT [RULESET...]      (default ruleset: atom; NO_RUNNER=1: floor and ast-grep only)
# Prints CPU (user+system) seconds, wall seconds and peak RSS of each, the runner's findings and
# the rules it stopped or files it did not review (`incomplete`), and the ratios. The floor is
# `facts_bench --pass parse` (bench/facts_bench.cpp) once per source extension the runner parses
# (.py, .cu, .cuh, .cpp, .cc, .h, .hpp), summed; the models line is `facts_bench --pass eager` over
# the same extensions (parse, extraction and analyses, no rule). ast-grep comes from npm (@ast-grep/cli) in a
# cache folder outside the repository. Needs a build with runner and facts_bench (BUILD_DIR).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
checkout=$1
shift
rulesets=("$@")
[ ${#rulesets[@]} -gt 0 ] || rulesets=(atom)
build=${BUILD_DIR:-$here/build}
runner=${RUNNER:-$build/runner}
bench=${FACTS_BENCH:-$build/bench/facts_bench}
sg_cache=${AST_GREP_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/review-action/ast-grep}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "checkout $checkout @ $(git -C "$checkout" rev-parse --short=10 HEAD)"
echo "load_average $(cut -d' ' -f1-3 /proc/loadavg) (cores: $(nproc))"

# timed NAME CMD... : "NAME cpu_s wall_s rss_mib", stdout to $tmp/NAME.out, stderr to $tmp/NAME.err
timed() {
  local name=$1; shift
  /usr/bin/time -f "%U %S %e %M" -o "$tmp/$name.time" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" || true
  read -r u s e m < <(tail -1 "$tmp/$name.time")
  awk -v n="$name" -v u="$u" -v s="$s" -v e="$e" -v m="$m" 'BEGIN { printf "%-10s cpu_s %8.2f wall_s %8.2f rss_mib %7.1f\n", n, u+s, e, m/1024 }'
  echo "$name $(awk -v u="$u" -v s="$s" 'BEGIN {print u+s}')" >>"$tmp/cpu"
}

args=()
for r in "${rulesets[@]}"; do args+=(-r "$r"); done
# NO_RUNNER=1: only the floor and ast-grep (when the runner's audit was timed on its own).
if [ -z "${NO_RUNNER:-}" ]; then
timed runner "$runner" "${args[@]}" --repo "$checkout" --all --fail-on never --allow-incomplete --format "json=$tmp/audit.json"
python3 - "$tmp/audit.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
inc = d.get("incomplete", [])
stopped = [x for x in inc if "time budget" in x]
print("  findings %d; rules stopped %d; incomplete %d" % (len(d["findings"]), len(stopped), len(inc)))
for x in inc[:20]:
    print("  incomplete: " + x)
PY
fi

: >"$tmp/floor"
exts=(.py .cu .cuh .cpp .cc .h .hpp)  # the source extensions the runner parses
for ext in "${exts[@]}"; do
  timed "parse$ext" "$bench" "$checkout" --pass parse --ext "$ext"
done

# The models alone (parse, extraction and the analyses, no rule): what part of the runner's cost
# is the language layer and what part the rules, their facts and indexes. Same extensions.
for ext in "${exts[@]}"; do
  timed "model$ext" "$bench" "$checkout" --pass eager --ext "$ext"
done

if [ ! -x "$sg_cache/node_modules/.bin/ast-grep" ]; then
  mkdir -p "$sg_cache"
  npm install --silent --prefix "$sg_cache" @ast-grep/cli >/dev/null 2>&1 || true
fi
if [ -x "$sg_cache/node_modules/.bin/ast-grep" ]; then
  cat >"$tmp/sg.yml" <<'YAML'
id: empty
language: python
rule: { pattern: "torch.empty($$$)" }
---
id: zeros
language: python
rule: { pattern: "torch.zeros($$$)" }
---
id: print
language: python
rule: { pattern: "print($$$)" }
---
id: getattr-default
language: python
rule: { pattern: "getattr($A, $B, $C)" }
---
id: assert
language: python
rule: { pattern: "assert $X" }
YAML
  timed ast_grep "$sg_cache/node_modules/.bin/ast-grep" scan --rule "$tmp/sg.yml" --json=stream "$checkout"
  echo "  ast-grep $("$sg_cache/node_modules/.bin/ast-grep" --version | awk '{print $2}'): matches $(wc -l <"$tmp/ast_grep.out")"
fi
awk '{cpu[$1] = $2} END {
  floor = 0; for (k in cpu) if (k ~ /^parse/) floor += cpu[k]
  printf "parse floor (sum) cpu_s %.2f\n", floor
  models = 0; for (k in cpu) if (k ~ /^model/) models += cpu[k]
  printf "models (sum: parse, extraction, analyses) cpu_s %.2f = %.2fx the parse floor\n", models, models / (floor > 0 ? floor : 0.01)
  if (cpu["runner"] > 0) printf "runner beyond the models (rules, their facts and indexes, git) cpu_s %.2f = %.2fx the parse floor\n", cpu["runner"] - models, (cpu["runner"] - models) / (floor > 0 ? floor : 0.01)
  printf "ratio runner / parse floor %.2fx", cpu["runner"] / (floor > 0 ? floor : 0.01)
  if (cpu["ast_grep"] > 0) printf "; runner / ast-grep %.1fx; ast-grep / parse floor %.2fx", cpu["runner"] / cpu["ast_grep"], cpu["ast_grep"] / (floor > 0 ? floor : 0.01)
  printf "\n" }' "$tmp/cpu"
