#!/usr/bin/env bash
# Golden test of every output format on the bundled example library's pull request
# (examples/ops-pr, reviewed with the shipped `ops` ruleset). Usage: tests/examples_golden.sh RUNNER
# With UPDATE_GOLDEN=1 it rewrites the expected files instead of comparing (review the diff).
set -euo pipefail
runner=$1
src=$(cd "$(dirname "$0")/.." && pwd)
want=$src/tests/fixtures/examples/ops-pr
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$src"
fail=0
for fmt in text json sarif github summary; do
  env -u GITHUB_ACTIONS -u GITHUB_STEP_SUMMARY -u GITHUB_REPOSITORY -u GITHUB_SERVER_URL NO_COLOR=1 \
    "$runner" --ruleset ops --base-dir examples/ops-pr/base --head-dir examples/ops-pr/head \
    --pr examples/ops-pr/pr.json --format "$fmt=$tmp/review.$fmt" --fail-on never --color never >/dev/null 2>"$tmp/err" || { cat "$tmp/err"; exit 1; }
  if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
    mkdir -p "$want"
    cp "$tmp/review.$fmt" "$want/review.$fmt"
  elif ! diff -u "$want/review.$fmt" "$tmp/review.$fmt" >"$tmp/diff.$fmt"; then
    echo "golden mismatch for --format $fmt (UPDATE_GOLDEN=1 $0 RUNNER rewrites it):"
    head -40 "$tmp/diff.$fmt"
    fail=1
  fi
done
# The default exit code: warnings but no block finding, so `--fail-on block` passes.
set +e
env -u GITHUB_ACTIONS "$runner" --ruleset ops --base-dir examples/ops-pr/base --head-dir examples/ops-pr/head \
  --pr examples/ops-pr/pr.json --format "json=$tmp/x.json" --fail-on block >/dev/null 2>&1
rc=$?
set -e
if [ "$rc" != 0 ]; then echo "expected exit 0 with --fail-on block, got $rc"; fail=1; fi
# The atom example of the quick start (scripts/demo): the findings examples/pr/README.md promises,
# by rule, file and line (the whole text is not pinned: notes there follow the ruleset's tiers).
env -u GITHUB_ACTIONS NO_COLOR=1 "$runner" --ruleset atom --base-dir examples/pr/base --head-dir examples/pr/head \
  --pr examples/pr/pr.json --format "json=$tmp/pr.json" --fail-on never >/dev/null 2>"$tmp/err" || { cat "$tmp/err"; exit 1; }
for want_finding in "block D1b atom/model_engine/sampler.py 13" "warn F1 atom/model_ops/moe.py 11" \
                    "note T-TIER atom/config.py 9" "warn P1  0"; do
  if ! python3 - "$tmp/pr.json" "$want_finding" <<'PY'
import json, sys
sev, rule, path, line = (sys.argv[2].split(" ") + [""])[:4]
fs = json.load(open(sys.argv[1]))["findings"]
ok = any(f["severity"] == sev and f["rule_id"] == rule and (f.get("file") or "") == path
         and int(f.get("line") or 0) == int(line) for f in fs)
sys.exit(0 if ok else 1)
PY
  then
    echo "examples/pr: expected the finding '$want_finding' that examples/pr/README.md promises"
    fail=1
  fi
done
exit $fail
