#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2034,SC2030,SC2031  # checks are eval-ed strings; each case runs in its own subshell on purpose
# Action harness: runs the composite action's scripts (actions/obtain.sh, run.sh, gate.sh) with a
# faked GitHub Actions environment on a temporary git repository, against the mock GitHub API
# (tests/github/mock_github.py), and checks outputs, step summary, runner arguments and API calls.
#
#   tests/github/action_harness.sh                     # stub runner (tests/fixtures/github/stub-runner.sh)
#   REVIEW_RUNNER_PATH=build/runner tests/github/action_harness.sh
#                                                      # the real runner, when it supports the action's flags
# Prints "N passed, M failed"; exits 1 when anything failed.
set -uo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
mock_pids=()
cleanup() {
  local p
  for p in "${mock_pids[@]}"; do kill "$p" 2>/dev/null && wait "$p" 2>/dev/null; done
  rm -rf "$tmp"
}
trap cleanup EXIT
passed=0 failed=0
ok()   { passed=$((passed + 1)); }
bad()  { failed=$((failed + 1)); echo "FAIL: $*"; }
check() { if eval "$2"; then ok; else bad "$1"; fi; }
token="ghs_HARNESS_secret_token_42"

# Version managers' python3 shims are slow to start: put the real interpreter first on PATH.
mkdir -p "$tmp/bin"
ln -s "$(python3 -c 'import sys; print(sys.executable)')" "$tmp/bin/python3"
export PATH="$tmp/bin:$PATH"

# ---- the mock API (and the release download host: files under $tmp/files) ----
# start_mock NAME [MOCK ARGS...]: starts one mock server logging to $tmp/NAME.jsonl; sets mock_port.
start_mock() {
  local name=$1; shift
  python3 "$src/tests/github/mock_github.py" --log "$tmp/$name.jsonl" "$@" > "$tmp/$name.port" &
  mock_pids+=($!)
  for _ in $(seq 100); do grep -q '^PORT ' "$tmp/$name.port" 2>/dev/null && break; sleep 0.05; done
  mock_port=$(awk '/^PORT /{print $2}' "$tmp/$name.port")
}
mkdir -p "$tmp/files"
start_mock requests --files "$tmp/files"
port=$mock_port
[ -n "$port" ] || { echo "FAIL: mock server did not start"; echo "0 passed, 1 failed"; exit 1; }

# ---- a temporary repository with one pull request's worth of change ----
repo="$tmp/repo"
mkdir -p "$repo"
git -C "$repo" init -q -b main
git -C "$repo" config user.email harness@example.invalid
git -C "$repo" config user.name harness
printf 'def launch(x):\n    return x\n' > "$repo/kernel.py"
git -C "$repo" add . && git -C "$repo" commit -qm base
base_sha=$(git -C "$repo" rev-parse HEAD)
git -C "$repo" checkout -qb feature
printf 'def launch(x):\n    print("debug")\n    return x\n' > "$repo/kernel.py"
git -C "$repo" commit -qam change
head_sha=$(git -C "$repo" rev-parse HEAD)
sed -e "s/@BASE@/$base_sha/" -e "s/@HEAD@/$head_sha/" "$src/tests/fixtures/github/pull_request.json" > "$tmp/event.json"

# ---- which runner ----
mode=stub
runner="$src/tests/fixtures/github/stub-runner.sh"
if [ -n "${REVIEW_RUNNER_PATH:-}" ] && [ -x "$REVIEW_RUNNER_PATH" ]; then
  help=$("$REVIEW_RUNNER_PATH" --help 2>&1 || true)
  if grep -q -- '--check-run' <<< "$help" && grep -q -- '--event' <<< "$help" && grep -q -- '--sarif' <<< "$help"; then
    mode=real
    runner=$REVIEW_RUNNER_PATH
  fi
fi
echo "action harness: $mode runner"
# The stub accepts any ruleset name; the real runner gets a small fixture ruleset, so the harness
# does not depend on how the shipped rulesets evolve.
ruleset_input=$'atom\n  rulesets/ops.rules  \n'
[ "$mode" = real ] && ruleset_input="$src/tests/fixtures/cli/mini.rules"

# read_output FILE NAME: a value from a GITHUB_OUTPUT file (NAME<<DELIM ... DELIM, or NAME=VALUE).
read_output() {
  local file=$1 want=$2 line name delim value found="<unset>"
  while IFS= read -r line; do
    if [[ "$line" == *"<<"* ]]; then
      name=${line%%<<*} delim=${line#*<<} value=""
      local first=1
      while IFS= read -r line && [ "$line" != "$delim" ]; do
        if [ $first = 1 ]; then value=$line; first=0; else value+=$'\n'$line; fi
      done
      [ "$name" = "$want" ] && found=$value
    elif [ "${line%%=*}" = "$want" ]; then
      found=${line#*=}
    fi
  done < "$file"
  printf '%s\n' "$found"
}

# run_action CASE [VAR=VALUE...]: one faked workflow run; results in $tmp/CASE/.
run_action() {
  local name=$1; shift
  local d="$tmp/$name"
  mkdir -p "$d/runner_temp"
  : > "$d/output"; : > "$d/summary"
  (
    export GITHUB_EVENT_PATH="$tmp/event.json" GITHUB_OUTPUT="$d/output" GITHUB_STEP_SUMMARY="$d/summary"
    export GITHUB_API_URL="http://127.0.0.1:$port" GITHUB_REPOSITORY=o/r GITHUB_WORKSPACE="$repo"
    export RUNNER_TEMP="$d/runner_temp" STUB_ARGS="$d/args" ACTION_PATH="$src"
    export INPUT_RULESET="$ruleset_input" INPUT_FAIL_ON=block INPUT_FILTER=added
    export INPUT_ANNOTATIONS=auto INPUT_COMMENT=true INPUT_SARIF_FILE=review.sarif INPUT_CATEGORY=""
    export INPUT_CONFIG=.github/review.yml GITHUB_TOKEN="$token"
    for kv in "$@"; do export "${kv?}"; done
    cd "$GITHUB_WORKSPACE" || exit 99
    REVIEW_RUNNER_PATH="$runner" bash "$src/actions/obtain.sh" || exit 98
    bin_dir=$(read_output "$GITHUB_OUTPUT" bin-dir)
    REVIEW_BINARY="$bin_dir/runner" bash "$src/actions/run.sh"
    echo "run.sh exit $?" > "$d/run_rc"
    REVIEW_EXIT_CODE=$(read_output "$GITHUB_OUTPUT" exit-code) REVIEW_VERDICT=$(read_output "$GITHUB_OUTPUT" verdict) \
      bash "$src/actions/gate.sh"
    echo "gate.sh exit $?" > "$d/gate_rc"
  ) > "$d/log" 2>&1
}
out_of() { read_output "$tmp/$1/output" "$2"; }

# ---- case 1: defaults (fail-on block), check run + comment ----
run_action default
check "run.sh exits 0"            '[ "$(cat "$tmp/default/run_rc")" = "run.sh exit 0" ]'
check "sarif-file output"         '[ "$(out_of default sarif-file)" = "$repo/review.sarif" ]'
check "SARIF written"             '[ "$(out_of default sarif-written)" = true ] && [ -s "$repo/review.sarif" ]'
check "token never printed"       '! grep -rqF "$token" "$tmp/default/log" "$tmp/default/output" "$tmp/default/summary"'
check "check run requested"       'grep -q "\"method\": \"POST\", \"path\": \"/repos/o/r/check-runs\"" "$tmp/requests.jsonl"'
check "token sent as Bearer"      'grep -qF "\"authorization\": \"Bearer $token\"" "$tmp/requests.jsonl"'
if [ "$mode" = stub ]; then
  check "verdict output"          '[ "$(out_of default verdict)" = needs-work ]'
  check "findings output"         '[ "$(out_of default findings)" = 1 ]'
  check "exit-code output"        '[ "$(out_of default exit-code)" = 0 ]'
  check "gate passes"             '[ "$(cat "$tmp/default/gate_rc")" = "gate.sh exit 0" ]'
  check "summary appended"        '[ "$(cat "$tmp/default/summary")" = "$(printf "## NEEDS WORK\n\n1 finding to look at.")" ]'
  args=$(tr '\n' ' ' < "$tmp/default/args")
  check "rulesets from the newline list" '[[ "$args" == "--ruleset atom --ruleset rulesets/ops.rules --event $tmp/event.json "* ]]'
  check "repo, base, head"        '[[ "$args" == *"--repo $repo --base $base_sha --head $head_sha "* ]]'
  check "fail-on and filter"      '[[ "$args" == *"--fail-on block --filter added --format text --sarif $repo/review.sarif "* ]]'
  check "check run name"          '[[ "$args" == *"--check-run review-action "* ]]'
  check "comment flag"            '[[ "$args" == *" --comment "* ]]'
  check "policy from the base"    '[[ "$args" == *"--policy-from $base_sha --config $repo/.github/review.yml "* ]]'
  check "no workflow format"      '[[ "$args" != *"--format github"* ]]'
else
  v=$(out_of default verdict)
  check "verdict output"          '[[ "$v" == lgtm || "$v" == needs-work || "$v" == block ]]'
  check "findings output"         '[[ "$(out_of default findings)" =~ ^[0-9]+$ ]]'
  check "exit-code 0 or 1"        '[[ "$(out_of default exit-code)" =~ ^[01]$ ]]'
fi

# ---- case 1b: by default the SARIF file goes under RUNNER_TEMP, outside the checkout ----
run_action tempsarif INPUT_SARIF_FILE=
check "default SARIF under RUNNER_TEMP" '[[ "$(out_of tempsarif sarif-file)" == "$tmp/tempsarif/runner_temp/"*"/review.sarif" ]] && [ "$(out_of tempsarif sarif-written)" = true ]'

# ---- case 2: fail-on warn fails the gate after the outputs are set ----
if [ "$mode" = stub ]; then
  run_action failing INPUT_FAIL_ON=warn INPUT_CATEGORY=pr
  check "failing: run.sh still exits 0" '[ "$(cat "$tmp/failing/run_rc")" = "run.sh exit 0" ]'
  check "failing: exit-code 1"          '[ "$(out_of failing exit-code)" = 1 ]'
  check "failing: gate exits 1"         '[ "$(cat "$tmp/failing/gate_rc")" = "gate.sh exit 1" ]'
  check "failing: gate message"         'grep -qxF "::error title=review-action::verdict needs-work: findings at or above fail-on" "$tmp/failing/log"'
  check "failing: category flag"        'grep -qx -- "--category" "$tmp/failing/args" && grep -qx "review-action (pr)" "$tmp/failing/args"'
fi

# ---- case 3: workflow annotations, no token: no API call, comment skipped ----
if [ "$mode" = stub ]; then
  before=$(wc -l < "$tmp/requests.jsonl")
  run_action noauth INPUT_ANNOTATIONS=auto GITHUB_TOKEN=
  check "noauth: workflow format"      'grep -qx "github" "$tmp/noauth/args" && ! grep -qx -- "--check-run" "$tmp/noauth/args"'
  check "noauth: comment skipped"      'grep -qxF "review-action: comment skipped (needs a pull_request event and a token)" "$tmp/noauth/log"'
  check "noauth: no API call"          '[ "$(wc -l < "$tmp/requests.jsonl")" = "$before" ]'
  run_action none INPUT_ANNOTATIONS=none INPUT_COMMENT=false
  check "none: no annotation flags"    '! grep -qx -- "--check-run" "$tmp/none/args" && ! grep -qx "github" "$tmp/none/args"'
fi

# ---- case 4: bad inputs are usage errors with a clear line ----
run_action badinput INPUT_FAIL_ON=sometimes
check "bad fail-on: exit 2"      '[ "$(cat "$tmp/badinput/run_rc")" = "run.sh exit 2" ]'
check "bad fail-on: message"     'grep -qxF "::error title=review-action::fail-on must be block, warn, note or never, not '"'"'sometimes'"'"'" "$tmp/badinput/log"'
run_action noruleset INPUT_RULESET=$'\n  \n'
check "empty ruleset: exit 2"    '[ "$(cat "$tmp/noruleset/run_rc")" = "run.sh exit 2" ]'

# ---- case 5: a config file in the repository is passed on ----
if [ "$mode" = stub ]; then
  mkdir -p "$repo/.github" && printf 'fail-on: warn\n' > "$repo/.github/review.yml"
  run_action config
  check "config passed"          'grep -qx "$repo/.github/review.yml" "$tmp/config/args"'
  # The `config` input names another file, which is missing: the runner must not fall back to
  # its own default (.github/review.yml), so the action says --no-config.
  run_action othercfg INPUT_CONFIG=ci/review.yml INPUT_AUDIT=true
  check "config input missing: --no-config" 'grep -qx -- "--no-config" "$tmp/othercfg/args" && ! grep -q "review.yml" "$tmp/othercfg/args"'
  rm -rf "$repo/.github"
fi

# ---- case 5b: no ruleset input, the config names the rulesets ----
mkdir -p "$repo/.github"
if [ "$mode" = real ]; then cfg_ruleset="$src/tests/fixtures/cli/mini.rules"; else cfg_ruleset=atom; fi
printf 'rulesets: ["%s"]\n' "$cfg_ruleset" > "$repo/.github/review.yml"
run_action cfgrules INPUT_RULESET= INPUT_AUDIT=true   # an audit reads the checked-out config
check "config rulesets: run.sh exits 0" '[ "$(cat "$tmp/cfgrules/run_rc")" = "run.sh exit 0" ]'
check "config rulesets: runner ran"     '[[ "$(out_of cfgrules exit-code)" =~ ^[01]$ ]]'
[ "$mode" = stub ] && check "config rulesets: no --ruleset" '! grep -qx -- "--ruleset" "$tmp/cfgrules/args" && grep -qx "$repo/.github/review.yml" "$tmp/cfgrules/args"'
rm -rf "$repo/.github"
check "no ruleset, no config: message" 'grep -qF "::error title=review-action::the ruleset input is empty and there is no config file .github/review.yml naming rulesets" "$tmp/noruleset/log"'

# ---- case 6: audit mode and a shard: no event, no base, every file ----
run_action audit INPUT_AUDIT=true INPUT_SHARD=1/1
check "audit: run.sh exits 0"      '[ "$(cat "$tmp/audit/run_rc")" = "run.sh exit 0" ]'
check "audit: SARIF written"       '[ "$(out_of audit sarif-written)" = true ]'
if [ "$mode" = stub ]; then
  check "audit: --all, no event or base" 'grep -qx -- "--all" "$tmp/audit/args" && ! grep -qx -- "--event" "$tmp/audit/args" && ! grep -qx -- "--base" "$tmp/audit/args"'
  check "audit: shard passed"      'grep -qx -- "--shard" "$tmp/audit/args" && grep -qx "1/1" "$tmp/audit/args"'
  check "audit: comment skipped"   'grep -qxF "review-action: comment skipped (needs a pull_request event and a token)" "$tmp/audit/log"'
fi
run_action badaudit INPUT_AUDIT=maybe
check "bad audit: exit 2"          '[ "$(cat "$tmp/badaudit/run_rc")" = "run.sh exit 2" ]'
check "bad audit: message"         'grep -qxF "::error title=review-action::audit must be true or false, not '"'"'maybe'"'"'" "$tmp/badaudit/log"'

# ---- case 7: the trust boundary (real runner): a pull request cannot change its own review ----
# The base holds the policy: a config, a team ruleset given as a path. The pull request adds a
# PRINT1 (block) finding and, in the same commit, turns the rule off, excludes everything, edits
# the ruleset, and adds a root file named like a shipped ruleset.
if [ "$mode" = real ]; then
  trepo="$tmp/trepo"
  mkdir -p "$trepo/.github" "$trepo/rules"
  git -C "$trepo" init -q -b main
  git -C "$trepo" config user.email harness@example.invalid
  git -C "$trepo" config user.name harness
  printf 'def launch(x):\n    return x\n' > "$trepo/kernel.py"
  printf 'fail-on: block\n' > "$trepo/.github/review.yml"
  cp "$src/tests/fixtures/cli/mini.rules" "$trepo/rules/team.rules"
  git -C "$trepo" add . && git -C "$trepo" commit -qm base
  tbase=$(git -C "$trepo" rev-parse HEAD)
  # trust_pr NAME: commits the work tree as the pull request's head, writes its event.
  trust_pr() {
    git -C "$trepo" checkout -q -B "$1" "$tbase"
    cat > "$trepo/kernel.py"
    git -C "$trepo" add -A && git -C "$trepo" commit -qm pr
    sed -e "s/@BASE@/$tbase/" -e "s/@HEAD@/$(git -C "$trepo" rev-parse HEAD)/" "$src/tests/fixtures/github/pull_request.json" > "$tmp/tevent.json"
  }
  trun() { local n=$1; shift; run_action "$n" GITHUB_WORKSPACE="$trepo" GITHUB_EVENT_PATH="$tmp/tevent.json" INPUT_RULESET=rules/team.rules INPUT_COMMENT=false INPUT_SARIF_FILE= "$@"; }
  tjson() { cat "$tmp/$1"/runner_temp/review-action.*/review.json 2>/dev/null; }

  printf 'severity: {PRINT1: "off"}\nexclude: ["**"]\nfail-on: never\n' > "$trepo/.github/review.yml"
  sed -i 's/c.callee == "print"/c.callee == "never_called"/' "$trepo/rules/team.rules"
  printf 'garbage that is no ruleset\n' > "$trepo/atom"
  printf 'def launch(x):\n    print("debug")\n    return x\n' | trust_pr policy
  trun policy
  check "trust: verdict block despite the PR's config" '[ "$(out_of policy verdict)" = block ]'
  check "trust: exit-code 1, gate fails"  '[ "$(out_of policy exit-code)" = 1 ] && [ "$(cat "$tmp/policy/gate_rc")" = "gate.sh exit 1" ]'
  check "trust: the policy edit is a finding" 'tjson policy | grep -q "\"rule_id\": *\"review-policy-edit\""'
  check "trust: config edit named"        'tjson policy | grep -q "edits the review policy (.github/review.yml)"'
  check "trust: ruleset edit named"       'tjson policy | grep -q "edits the review policy (rules/team.rules)"'
  check "trust: card shows the edit"      'grep -q "edits the review policy" "$tmp/policy/summary"'
  trun shipped INPUT_RULESET=atom
  check "trust: a root file named atom does not shadow the shipped ruleset" '[[ "$(out_of shipped exit-code)" =~ ^[01]$ ]] && ! grep -q "garbage" "$tmp/shipped/log"'

  # An ignore comment the change adds: shown as suppressed by this change; base-only refuses it.
  git -C "$trepo" checkout -q main
  printf 'def launch(x):\n    print("debug")  # review: ignore[PRINT1] trust me\n    return x\n' | trust_pr suppress
  trun suppress
  check "suppress: the finding is suppressed" '[ "$(out_of suppress exit-code)" = 0 ]'
  check "suppress: card says by this change" 'grep -q "suppressed by this change" "$tmp/suppress/summary"'
  check "suppress: SARIF underReview"  'grep -q "underReview" "$(out_of suppress sarif-file)" && grep -q "suppressedByChange" "$(out_of suppress sarif-file)"'
  git -C "$trepo" checkout -q main
  printf 'fail-on: block\ninline-suppressions: base-only\n' > "$trepo/.github/review.yml"
  git -C "$trepo" commit -qam "base-only suppressions"
  tbase=$(git -C "$trepo" rev-parse HEAD)
  printf 'def launch(x):\n    print("debug")  # review: ignore[PRINT1] trust me\n    return x\n' | trust_pr suppress2
  trun baseonly
  check "base-only: the change's ignore comment does not count" '[ "$(out_of baseonly exit-code)" = 1 ]'
  check "base-only: and says so"        'grep -q "not honoured" "$tmp/baseonly/summary"'
  # An ignore comment inside a string literal is no comment.
  printf 'def launch(x):\n    print("# review: ignore[PRINT1] in a string")\n    return x\n' | trust_pr instring
  trun instring
  check "string: an ignore text in a string suppresses nothing" '[ "$(out_of instring exit-code)" = 1 ]'
  # A policy file that is a symbolic link at the base is refused.
  git -C "$trepo" checkout -q main
  ln -sf /etc/passwd "$trepo/rules/link.rules"
  git -C "$trepo" add -A && git -C "$trepo" commit -qm link
  tbase=$(git -C "$trepo" rev-parse HEAD)
  printf 'def launch(x):\n    return x + 1\n' | trust_pr linked
  trun linked INPUT_RULESET=rules/link.rules
  check "link: a symlinked ruleset is refused" '[ "$(out_of linked exit-code)" = 2 ] && grep -q "symbolic link" "$tmp/linked/log" && ! grep -q "root:" "$tmp/linked/log"'
fi

# ---- the setup steps: release asset, source build, cache restore (obtain.sh, build.sh) ----
# A stand-in action folder: the real actions/ scripts, and a scripts/setup that "builds" by copying
# the runner under test (a real source build takes minutes; tests/release/self_contained.sh checks
# that what it builds starts without the -dev packages).
act="$tmp/action"
mkdir -p "$act/scripts"
for part in actions CMakeLists.txt cmake dsl runner rulesets; do cp -r "$src/$part" "$act/$part"; done
cat > "$act/scripts/setup" <<'SETUP'
#!/usr/bin/env bash
echo "setup $TARGET" >> "$SETUP_LOG"
mkdir -p "$BUILD_DIR" && cp "$BUILT_RUNNER" "$BUILD_DIR/runner"
SETUP
chmod +x "$act/scripts/setup"
asset=review-runner-linux-x86_64
publish() {  # publish TAG [SHA256]: the release asset of TAG on the download host
  local dir="$tmp/files/o/r/releases/download/$1"
  mkdir -p "$dir" && cp "$runner" "$dir/$asset"
  if [ -n "${2:-}" ]; then echo "$2  $asset" > "$dir/$asset.sha256"
  else (cd "$dir" && sha256sum "$asset" > "$asset.sha256"); fi
}
# run_setup CASE [VAR=VALUE...]: obtain.sh, then build.sh when it asks for a build (the cache
# step's restore is simulated by a runner placed in the bin dir beforehand: RESTORED=FILE).
run_setup() {
  local name=$1; shift
  local d="$tmp/$name"
  mkdir -p "$d/runner_temp"
  : > "$d/output"; : > "$d/setup_log"
  (
    export GITHUB_OUTPUT="$d/output" RUNNER_TEMP="$d/runner_temp" ACTION_PATH="$act" SETUP_LOG="$d/setup_log"
    export ACTION_REPOSITORY=o/r ACTION_REF=v9.9.9 RUNNER_ARCH=X64 GITHUB_SERVER_URL="http://127.0.0.1:$port"
    export BUILT_RUNNER="$runner" STUB_ARGS="$d/args" RESTORED=""
    for kv in "$@"; do export "${kv?}"; done
    unset REVIEW_RUNNER_PATH
    t0=$(date +%s%N)
    bash "$act/actions/obtain.sh" || exit 98
    if [ "$(read_output "$GITHUB_OUTPUT" need-build)" = true ]; then
      bin_dir=$(read_output "$GITHUB_OUTPUT" bin-dir)
      [ -n "$RESTORED" ] && mkdir -p "$bin_dir" && cp "$RESTORED" "$bin_dir/runner"
      BIN_DIR="$bin_dir" bash "$act/actions/build.sh"
      echo "build.sh exit $?" > "$d/build_rc"
    fi
    echo $(( ($(date +%s%N) - t0) / 1000000 )) > "$d/ms"
  ) > "$d/log" 2>&1
}
bin_of() { echo "$tmp/$1/runner_temp/review-action-bin/runner"; }

publish v9.9.9
run_setup release
check "release: no build"              '[ "$(out_of release need-build)" = false ] && [ ! -s "$tmp/release/setup_log" ]'
check "release: the asset installed"   'cmp -s "$(bin_of release)" "$tmp/files/o/r/releases/download/v9.9.9/$asset"'
check "release: says which"            'grep -q "^review-action: using release v9.9.9 ($asset, sha256 [0-9a-f]\{64\})$" "$tmp/release/log"'
check "release: asset downloaded"      'grep -q "\"path\": \"/o/r/releases/download/v9.9.9/$asset\"" "$tmp/requests.jsonl"'
echo "action harness: setup with a release asset took $(cat "$tmp/release/ms") ms ($mode runner)"

run_setup missing ACTION_REF=v0.0.404
check "missing asset: says so"         'grep -qxF "review-action: no release asset $asset for v0.0.404; building from source" "$tmp/missing/log"'
check "missing asset: source hash"     '[[ "$(out_of missing source-hash)" =~ ^[0-9a-f]{64}$ ]]'
check "missing asset: built once"      '[ "$(cat "$tmp/missing/setup_log")" = "setup runner" ] && [ "$(cat "$tmp/missing/build_rc")" = "build.sh exit 0" ]'
check "missing asset: runner in place" 'STUB_ARGS=/dev/null "$(bin_of missing)" --version >/dev/null 2>&1'

publish v9.9.8 "$(printf 0%.0s {1..64})"
run_setup badsum ACTION_REF=v9.9.8
check "bad sha256: warning"            'grep -qxF "::warning title=review-action::the release asset $asset for v9.9.8 does not match its sha256; building from source instead" "$tmp/badsum/log"'
check "bad sha256: not installed"      '[ "$(out_of badsum need-build)" = true ] && [ "$(cat "$tmp/badsum/setup_log")" = "setup runner" ]'

run_setup branch ACTION_REF=main
check "branch ref: source build"       '[ "$(out_of branch need-build)" = true ] && ! grep -q releases/download/main "$tmp/requests.jsonl"'

# Cache restored on a fresh machine: a runner that starts is used as it is ...
run_setup restored ACTION_REF=main RESTORED="$runner"
check "cache restored: used"           'grep -q "^review-action: runner restored from the cache" "$tmp/restored/log" && [ ! -s "$tmp/restored/setup_log" ]'
# ... one that cannot load its libraries (a cache written by a build that linked them
# dynamically) is rebuilt instead of failing the review step with exit 127.
cat > "$tmp/needs-libs" <<'BROKEN'
#!/bin/sh
echo "runner: error while loading shared libraries: libre2.so.9: cannot open shared object file: No such file or directory" >&2
exit 127
BROKEN
chmod +x "$tmp/needs-libs"
run_setup stale ACTION_REF=main RESTORED="$tmp/needs-libs"
check "stale cache: rebuilt"           'grep -q "^review-action: the cached runner does not start on this machine (runner: error while loading shared libraries: libre2.so.9.*); rebuilding$" "$tmp/stale/log" && [ "$(cat "$tmp/stale/setup_log")" = "setup runner" ]'
check "stale cache: runner starts"     'STUB_ARGS=/dev/null "$(bin_of stale)" --version >/dev/null 2>&1'

# A runner that does not start is named as such by the gate, not as unreadable input.
saved_runner=$runner runner="$tmp/needs-libs"
run_action nostart
runner=$saved_runner
check "no start: exit-code 127"        '[ "$(out_of nostart exit-code)" = 127 ]'
check "no start: gate says so"         'grep -qF "::error title=review-action::the runner binary did not start (exit 127" "$tmp/nostart/log" && [ "$(cat "$tmp/nostart/gate_rc")" = "gate.sh exit 127" ]'
check "input error: gate says so"      '[ "$(REVIEW_EXIT_CODE=3 bash "$src/actions/gate.sh")" = "::error title=review-action::the runner could not read its input (see the review step'"'"'s log)" ]'
check "signal: gate says so"           '[[ "$(REVIEW_EXIT_CODE=137 bash "$src/actions/gate.sh")" == *"killed by signal 9"* ]]'

# ---- check run refused (403) or failing (5xx after the retries): workflow annotations ----
if [ "$mode" = real ]; then
  printf '%s' '{"routes": [{"method": "POST", "path": "/repos/o/r/check-runs", "responses": [{"status": 403, "body": {"message": "Resource not accessible by integration"}}]}]}' > "$tmp/403.json"
  start_mock forbidden --scenario "$tmp/403.json"
  run_action forbidden GITHUB_API_URL="http://127.0.0.1:$mock_port" INPUT_COMMENT=false
  check "403: one fallback line"       '[ "$(grep -c "falling back to workflow annotations" "$tmp/forbidden/log")" = 1 ]'
  check "403: workflow annotations"    'grep -q "^::error file=kernel.py,line=2" "$tmp/forbidden/log"'
  # 503 with Retry-After: 0, so the six attempts take no time.
  printf '%s' '{"routes": [{"method": "POST", "path": "/repos/o/r/check-runs", "responses": [{"status": 503, "body": {"message": "unavailable"}, "headers": {"Retry-After": "0"}}]}]}' > "$tmp/503.json"
  start_mock unavailable --scenario "$tmp/503.json"
  run_action unavailable GITHUB_API_URL="http://127.0.0.1:$mock_port" INPUT_COMMENT=false
  check "5xx: retried, then gave up"   '[ "$(grep -c "\"method\": \"POST\", \"path\": \"/repos/o/r/check-runs\"" "$tmp/unavailable.jsonl")" -ge 2 ]'
  check "5xx: one fallback line"       '[ "$(grep -c "falling back to workflow annotations" "$tmp/unavailable/log")" = 1 ] && grep -q "HTTP 503" "$tmp/unavailable/log"'
  check "5xx: workflow annotations"    'grep -q "^::error file=kernel.py,line=2" "$tmp/unavailable/log"'
  check "5xx: exit code kept"          '[ "$(out_of unavailable exit-code)" = 1 ]'
fi

if [ "$failed" -gt 0 ]; then
  for f in "$tmp"/*/log; do echo "--- $f"; cat "$f"; done
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
