#!/usr/bin/env bash
# `cmake --install` into a temporary prefix: the runner in bin/, every shipped ruleset in
# share/review-action/rulesets/, the docs in share/doc/; the installed runner runs and its shipped
# rulesets pass their examples from the installed files.
#   tests/release/install.sh BUILD_DIR SOURCE_DIR
# Prints "N passed, M failed"; exits 1 when a check failed.
set -uo pipefail
build=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok()  { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }
if cmake --install "$build" --prefix "$tmp/prefix" > "$tmp/log" 2>&1; then ok; else bad "cmake --install: $(tail -3 "$tmp/log")"; fi
if [ -x "$tmp/prefix/bin/runner" ] && "$tmp/prefix/bin/runner" --version >/dev/null; then ok; else bad "bin/runner missing or does not start"; fi
for r in "$src"/rulesets/*.rules; do
  n=$(basename "$r")
  inst="$tmp/prefix/share/review-action/rulesets/$n"
  if cmp -s "$r" "$inst"; then ok; else bad "share/review-action/rulesets/$n missing or different"; fi
  if "$tmp/prefix/bin/runner" test "$inst" > "$tmp/test.log" 2>&1; then ok; else bad "runner test $inst: $(tail -2 "$tmp/test.log")"; fi
done
if [ -f "$tmp/prefix/share/doc/review_action/README.md" ] || [ -f "$tmp/prefix/share/doc/review-action/README.md" ]; then ok
else bad "README.md not installed under share/doc/"; fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
