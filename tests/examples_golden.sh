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
exit $fail
