#!/usr/bin/env bash
# Parse vs fact extraction vs analyses, over every .py file of one checkout, in one process.
#   bench/facts_vs_parse.sh [CHECKOUT] [ROUNDS]
#   CALLGRIND=1 bench/facts_vs_parse.sh [CHECKOUT]   # instruction counts instead (slow: minutes)
# CHECKOUT defaults to /work/aiter (created with `git clone --shared` from the aiter mirror when
# missing; it stays outside this repository). Needs a build with the facts_bench target
# (BUILD_DIR, default ./build). Prints facts_bench's figures (least process CPU time of ROUNDS
# rounds, default 3, each pass; ratios against tree-sitter's parse alone) and the peak RSS that
# /usr/bin/time -v reports for the whole run, which keeps every model of the last round alive.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
checkout=${1:-/work/aiter}
rounds=${2:-3}
build=${BUILD_DIR:-$here/build}
mirror=${AITER_MIRROR:-/work/.mirror/ROCm+aiter/repo}
if [ ! -d "$checkout" ]; then
  [ "$checkout" = /work/aiter ] || { echo "facts_vs_parse: no checkout at $checkout" >&2; exit 1; }
  git clone --quiet --shared "$mirror" "$checkout"
fi
cmake --build "$build" --target facts_bench -j2 >/dev/null
bench="$build/bench/facts_bench"
echo "checkout $checkout @ $(git -C "$checkout" rev-parse --short=10 HEAD 2>/dev/null || echo '?')"
echo "load_average $(cut -d' ' -f1-3 /proc/loadavg) (cores: $(nproc))"

if [ -n "${CALLGRIND:-}" ]; then
  # Instruction counts (Ir) per pass: independent of the neighbours' load, but ~50x slower.
  declare -A ir
  for pass in parse extract eager analyses; do
    out=$(mktemp)
    valgrind --tool=callgrind --callgrind-out-file="$out" "$bench" "$checkout" --pass "$pass" >/dev/null 2>&1
    ir[$pass]=$(callgrind_annotate "$out" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1; exit}')
    rm -f "$out"
    echo "${pass}_Ir ${ir[$pass]}"
  done
  # Each run also reads the files and sets up; subtract nothing, so the ratios slightly understate.
  awk -v p="${ir[parse]}" -v e="${ir[extract]}" -v g="${ir[eager]}" -v a="${ir[analyses]}" 'BEGIN {
    printf "extract_over_parse_Ir %.2f\neager_over_parse_Ir %.2f\nanalyses_over_parse_Ir %.2f\n", e/p, g/p, a/p }'
  exit 0
fi

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
/usr/bin/time -v "$bench" "$checkout" --rounds "$rounds" 2>"$tmp"
awk -F': ' '/Maximum resident set size/ {printf "time_v_max_rss_mib %.1f\n", $2/1024}
            /User time/ {print "time_v_user_s " $2} /System time/ {print "time_v_sys_s " $2}
            /Elapsed \(wall clock\)/ {print "time_v_wall " $2}' "$tmp"
