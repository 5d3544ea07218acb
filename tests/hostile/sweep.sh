#!/usr/bin/env bash
# Hostile-input sweep of the runner executable.
#   tests/hostile/sweep.sh RUNNER [CASE-SUBSTRING]
#   SWEEP_FULL=1 tests/hostile/sweep.sh build-asan/runner    # one run per file, every diff cut
# Generates hostile sources, diffs, rulesets, event JSON, review.yml and SARIF (tests/hostile/gen.py)
# in a temporary folder and runs RUNNER on each. Every run must exit 0-3 within the time limit and
# print nothing from a sanitizer and no "internal error". With an ASan/UBSan build it doubles as a
# sanitizer sweep (set SWEEP_TIMEOUT higher there; the default suits a normal build). The limit is
# CPU seconds (ulimit -t), so a loaded machine does not fail a run that is merely waiting for a
# core; a run that waits without using CPU (a deadlock) is stopped after 4x the limit of wall time.
# Exit 0 when every case passes, 1 otherwise (the failing cases are listed).
set -u
runner=${1:?usage: sweep.sh RUNNER [CASE-SUBSTRING]}
only=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
limit=${SWEEP_TIMEOUT:-30}
mini=$root/tests/fixtures/cli/mini.rules
all=$root/tests/fixtures/hostile/all.rules
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export NO_COLOR=1
unset GITHUB_ACTIONS GITHUB_EVENT_PATH GITHUB_WORKSPACE

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 "$here/gen.py" "$tmp" || { echo "sweep: generator failed" >&2; exit 1; }

cases=0
failed=()
# check NAME STDIN-FILE ARGS... : one runner invocation.
check() {
  local name=$1 in=$2
  shift 2
  [ -n "$only" ] && [[ "$name" != *"$only"* ]] && return 0
  cases=$((cases + 1))
  (ulimit -t "$limit"; exec timeout $((limit * 4)) "$runner" "$@") <"$in" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  local why=""
  if [ $rc -eq 124 ]; then why="no exit after $((limit * 4))s of wall time (a hang)"
  elif [ $rc -eq 152 ] || [ $rc -eq 137 ]; then why="used more than ${limit}s of CPU (signal $((rc - 128)))"
  elif [ $rc -gt 4 ]; then why="exit code $rc"
  elif grep -qE 'AddressSanitizer|LeakSanitizer|runtime error:|internal error' "$tmp/err"; then why="sanitizer or internal error"
  fi
  if [ -n "$why" ]; then
    failed+=("$name")
    { echo "FAIL $name: $why"; echo "  runner $*"; grep -v "has no .bad. example\|^  rule \|^       ^~" "$tmp/err" | tail -c 3000 | sed 's/^/  | /'; } >&2
  fi
}

null=/dev/null
# 1. Hostile source files added (one change per file with SWEEP_FULL=1, else per kind),
#    reported in every format.
full=${SWEEP_FULL:-0}
if [ "$full" = 1 ]; then dirs=("$tmp"/files/*/); else dirs=("$tmp"/groups/*/); fi
for d in "${dirs[@]}"; do
  c=$(basename "$d")
  check "file:$c" $null -r "$all" --base-dir "$tmp/empty" --head-dir "$d" --fail-on never \
    --format text --format json="$tmp/o.json" --format sarif="$tmp/o.sarif" --format github="$tmp/o.gh" \
    --format summary="$tmp/o.md" --title "$(printf 't\377\001')" --body "$(printf '# B\n\377 aaaa')"
done
# ... and every one of them deleted (removed lines, base-side parsing), with --filter all.
check "modified" $null -r "$all" --base-dir "$tmp/modified/base" --head-dir "$tmp/modified/head" --filter all \
  --format json="$tmp/o.json" --format sarif="$tmp/o.sarif"

# 2. Hostile diffs (content from the diff alone).
for f in "$tmp"/diffs/*.diff; do
  c=$(basename "$f" .diff)
  check "diff:$c" $null -r "$all" --diff "$f" --filter all --format json="$tmp/o.json" --format sarif="$tmp/o.sarif"
done
# A small diff cut at every byte, through stdin.
small=$tmp/diffs/small.diff
size=$(wc -c <"$small")
step=7
[ "$full" = 1 ] && step=1
for ((i = 0; i < size; i += step)); do
  head -c "$i" "$small" >"$tmp/cut.diff"
  check "diff-cut:$i" "$tmp/cut.diff" -r "$mini" --diff - --format json="$tmp/o.json"
done

# 3. Hostile rulesets: load-time checks, then a review with each.
for f in "$tmp"/rules/*.rules; do
  c=$(basename "$f" .rules)
  check "rules-check:$c" $null check --strict "$f"
  check "rules-run:$c" $null -r "$f" --base-dir "$tmp/files/py_catastrophic" --head-dir "$tmp/files/py_unbound" \
    --filter all --format json="$tmp/o.json" --title "$(printf 'aaaa[({*+?\\')"
  [ "$full" = 1 ] && check "rules-explain:$c" $null explain R1 -r "$f"
done
check "rules-test:all" $null test "$all"
check "rules-test:mini" $null test "$mini" -v
for f in "$root"/rulesets/*.rules; do
  [ -e "$f" ] && [ "$full" = 1 ] || continue
  check "shipped:$(basename "$f")" $null -r "$f" --base-dir "$tmp/modified/base" --head-dir "$tmp/modified/head" --filter all
done

# 4. Hostile event and `gh pr view` JSON.
for f in "$tmp"/events/*.json; do
  c=$(basename "$f" .json)
  check "event:$c" $null -r "$all" --diff "$tmp/diffs/small.diff" --event "$f" --format sarif="$tmp/o.sarif"
  check "pr:$c" $null -r "$all" --diff "$tmp/diffs/small.diff" --pr "$f" --format json="$tmp/o.json"
done

# 5. Hostile .github/review.yml.
for f in "$tmp"/yml/*.yml; do
  c=$(basename "$f" .yml)
  check "config:$c" $null -r "$mini" --diff "$tmp/diffs/small.diff" --config "$f"
done

# 6. Hostile SARIF for `runner merge`, and hostile baselines.
for f in "$tmp"/sarif/*.sarif; do
  c=$(basename "$f" .sarif)
  check "merge:$c" $null merge "$f" "$f" -o "$tmp/merged.sarif"
  check "baseline:$c" $null -r "$mini" --diff "$tmp/diffs/small.diff" --baseline "$f"
done

# 7. Odd numeric flags.
check "flags:jobs0" $null -r "$all" --diff "$small" -j 0 --max-file-size 0 --rule-budget-ms 0
check "flags:jobs-neg" $null -r "$all" --diff "$small" -j -1 --rule-budget-ms -5 --max-file-size 1

echo "sweep: $cases cases, ${#failed[@]} failed"
[ ${#failed[@]} -eq 0 ]
