#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2034,SC2119,SC2120  # checks are eval-ed strings on purpose
# The pre-commit hook (scripts/pre-commit-review, .pre-commit-hooks.yaml) on a temporary
# repository: it reviews the staged change only -- not unstaged edits, not untracked files --
# exits with the runner's code, passes when nothing is staged, and works before the first commit.
#   tests/hooks/pre_commit_review.sh RUNNER
# Prints "N passed, M failed"; exits 1 when a check failed.
set -uo pipefail
runner=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
check() { if eval "$2"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $1"; fi; }
rules="$src/tests/fixtures/cli/mini.rules"
hook() { (cd "$tmp/repo" && REVIEW_RUNNER="$runner" "$src/scripts/pre-commit-review" --ruleset "$rules" --format json "$@"); }

mkdir -p "$tmp/repo" && cd "$tmp/repo" || exit 1
git init -q -b main && git config user.email hook@example.invalid && git config user.name hook
printf 'def f(x):\n    return x\n' > lib.py
# Before the first commit: every staged file is new.
git add lib.py
hook > "$tmp/first.json" 2> "$tmp/first.err"; rc=$?
check "first commit: reviewed, clean"   '[ $rc = 0 ] && grep -q "\"verdict\": \"lgtm\"" "$tmp/first.json"'
git commit -qm base
hook > "$tmp/none.json" 2>&1; rc=$?
check "nothing staged: exit 0, silent"  '[ $rc = 0 ] && [ ! -s "$tmp/none.json" ]'
printf 'def f(x):\n    print("staged")\n    return x\n' > lib.py
git add lib.py
printf 'def f(x):\n    print("staged")\n    return x  # TODO unstaged\n' > lib.py
printf 'print("untracked")\n' > new.py
hook > "$tmp/staged.json" 2> "$tmp/staged.err"; rc=$?
check "staged print: exit 1 (block)"    '[ $rc = 1 ]'
check "staged print: PRINT1 on line 2"  'python3 -c "import json,sys; d=json.load(open(sys.argv[1])); f=[x for x in d[\"findings\"] if not x.get(\"suppressed\")]; assert [(x[\"rule_id\"], x[\"file\"], x[\"line\"]) for x in f] == [(\"PRINT1\", \"lib.py\", 2)], f" "$tmp/staged.json"'
check "unstaged TODO not reviewed"      'python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(any(x[\"rule_id\"] == \"TODO1\" for x in d[\"findings\"]))" "$tmp/staged.json"'
check "untracked file not reviewed"     '! grep -q "new.py" "$tmp/staged.json"'
check "no ref left behind"              '[ "$(git for-each-ref | wc -l)" = 1 ] && [ "$(git rev-list --all | wc -l)" = 1 ]'
# No runner: a clear message, exit 2.
(cd "$tmp/repo" && PATH=/usr/bin:/bin REVIEW_RUNNER="" "$src/scripts/pre-commit-review" --ruleset "$rules") > "$tmp/norunner" 2>&1; rc=$?
if [ -x "$src/build/runner" ]; then
  check "no runner on PATH: build/runner" '[ $rc = 1 ]'
else
  check "no runner: exit 2 and says so" '[ $rc = 2 ] && grep -q "no runner found" "$tmp/norunner"'
fi
[ "$failed" -gt 0 ] && cat "$tmp"/*.err
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
