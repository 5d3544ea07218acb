#!/usr/bin/env bash
# The session's final evaluation in one command: copies RUNNER, this checkout's rulesets/atom and
# eval/mined-cases.tsv to OUT (so later edits cannot mix into the figures), wraps the runner with a
# per-rule budget of 60 s (the 2 s default stops long rules on a loaded machine and silently loses
# positives), runs four eval/run_eval.py measurements in parallel into OUT/dump (noise lists; the
# shared dev cases; the tuning half; with FROZEN=1 the frozen half — look at it once, at the end),
# then regenerates eval/REPORT.md from that dump (eval/report.sh --dump-only).
#   FROZEN=1 eval/final_eval.sh build/runner /tmp/final
# Needs the clones of run_eval.py's REPO_DIRS under /work/repos (or REPOS=DIR).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
runner=$(realpath "${1:?usage: final_eval.sh RUNNER OUT}")
out=${2:?usage: final_eval.sh RUNNER OUT}
repos=${REPOS:-/work/repos}
rm -rf "$out"; mkdir -p "$out/dump"
out=$(realpath "$out")
cp "$runner" "$out/runner"
cp -r "$here/rulesets/atom" "$out/atom"
cp "$here/eval/mined-cases.tsv" "$out/mined-cases.tsv"
printf '#!/bin/sh\nexec "%s/runner" --rule-budget-ms 60000 "$@"\n' "$out" > "$out/wrap.sh"
chmod +x "$out/wrap.sh"
ids() { awk -F'\t' -v h="$1" 'NR > 1 && $13 == h { print $1 }' "$out/mined-cases.tsv" | paste -sd,; }
dev=$(awk -F'\t' 'NR > 1 { print $1 }' /work/shared/eval/dev-cases.tsv | paste -sd,)
common=(--runner "$out/wrap.sh" --ruleset "$out/atom/atom.rules" --mined "$out/mined-cases.tsv" --repos "$repos" --dump "$out/dump")
py="python3 $here/eval/run_eval.py"
$py "${common[@]}" --skip-cases --report "$out/noise.md" >"$out/noise.log" 2>&1 &
$py "${common[@]}" --only "$dev" --report "$out/dev.md" >"$out/dev.log" 2>&1 &
$py "${common[@]}" --only "$(ids tuning)" --skip-dev --report "$out/tuning.md" >"$out/tuning.log" 2>&1 &
if [ "${FROZEN:-0}" = 1 ]; then
  $py "${common[@]}" --frozen --only "$(ids frozen)" --skip-dev --report "$out/frozen.md" >"$out/frozen.log" 2>&1 &
fi
wait
"$here/eval/report.sh" "${common[@]}" --dump-only
