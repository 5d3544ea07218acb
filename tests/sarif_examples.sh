#!/usr/bin/env bash
# Runs the official SARIF validator (scripts/sarif-validate, with GitHub's ingestion rules) on the
# SARIF the runner writes for the bundled example pull request and for every shipped ruleset's
# examples. Usage: tests/sarif_examples.sh RUNNER
# Exits 0 with zero errors and zero warnings; 77 (skipped) when the validator cannot be installed.
set -euo pipefail
runner=$1
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
files=()
for r in "$src"/rulesets/*.rules "$src"/rulesets/*/; do
  [ -e "$r" ] || continue
  n=$(basename "$r" .rules)
  [ -d "$r" ] && { n=$(basename "$r"); [ -e "$r/$n.rules" ] || continue; }
  "$runner" test "$r" --sarif "$tmp/examples-$n.sarif" >/dev/null
  files+=("$tmp/examples-$n.sarif")
  env -u GITHUB_ACTIONS "$runner" --ruleset "$r" --base-dir "$src/examples/pr/base" --head-dir "$src/examples/pr/head" \
    --pr "$src/examples/pr/pr.json" --format "sarif=$tmp/demo-$n.sarif" --fail-on never >/dev/null
  files+=("$tmp/demo-$n.sarif")
done
"$runner" test "$src/tests/fixtures/cli/mini.rules" --sarif "$tmp/examples-mini.sarif" >/dev/null
files+=("$tmp/examples-mini.sarif")
# a rule with an `also` body: results of two bodies under one rule id, each with its label
"$runner" test "$src/tests/fixtures/cli/also.rules" --sarif "$tmp/examples-also.sarif" >/dev/null
files+=("$tmp/examples-also.sarif")
"$src/scripts/sarif-validate" "${files[@]}"
