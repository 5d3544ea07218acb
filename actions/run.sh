#!/usr/bin/env bash
# Runs the runner on the pull request of this workflow run and sets the step outputs.
# Reads only data from the pull request (its event payload and its files in the checkout);
# nothing from the pull request is executed.
# Inputs (env): REVIEW_BINARY, INPUT_RULESET (one per line), INPUT_FAIL_ON, INPUT_FILTER,
#   INPUT_ANNOTATIONS, INPUT_COMMENT, INPUT_SARIF_FILE, INPUT_CATEGORY, INPUT_CONFIG, INPUT_AUDIT,
#   INPUT_SHARD, INPUT_WITH, GITHUB_TOKEN,
#   and the Actions environment (GITHUB_EVENT_PATH, GITHUB_WORKSPACE, GITHUB_OUTPUT,
#   GITHUB_STEP_SUMMARY, GITHUB_API_URL, GITHUB_REPOSITORY, RUNNER_TEMP).
# Outputs: verdict, findings, sarif-file, sarif-written, exit-code. Always exits 0 when the runner
# ran (the gate step fails the job later, after the SARIF upload); exits 2 on bad inputs.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=actions/lib.sh
. "$here/lib.sh"

bin=${REVIEW_BINARY:-runner}
fail_on=${INPUT_FAIL_ON:-block}
filter=${INPUT_FILTER:-added}
annotations=${INPUT_ANNOTATIONS:-auto}
comment=${INPUT_COMMENT:-false}
sarif=${INPUT_SARIF_FILE:-}
workspace=${GITHUB_WORKSPACE:-$PWD}

case "$fail_on" in block|warn|note|never) ;; *) fail "fail-on must be block, warn, note or never, not '$fail_on'" ;; esac
case "$filter" in added|context|file|all) ;; *) fail "filter must be added, context, file or all, not '$filter'" ;; esac
case "$annotations" in auto|check-run|workflow|none) ;; *) fail "annotations must be auto, check-run, workflow or none, not '$annotations'" ;; esac
case "$comment" in true|false) ;; *) fail "comment must be true or false, not '$comment'" ;; esac
[ -x "$bin" ] || command -v "$bin" >/dev/null 2>&1 || fail "no runner binary at $bin"

args=()
while IFS= read -r line || [ -n "$line" ]; do
  line=$(printf '%s' "$line" | sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//')
  [ -n "$line" ] && args+=(--ruleset "$line")
done <<< "${INPUT_RULESET:-}"
rulesets_given=false
[ ${#args[@]} -gt 0 ] && rulesets_given=true

audit=${INPUT_AUDIT:-false}
case "$audit" in true|false) ;; *) fail "audit must be true or false, not '$audit'" ;; esac

# Base and head commits from the event payload (pull_request / pull_request_target; push).
# An audit reviews the checked-out commit as a whole and reads no event.
base="" head="" number=""
if [ "$audit" = true ]; then
  args+=(--all)
elif [ -n "${GITHUB_EVENT_PATH:-}" ] && [ -f "$GITHUB_EVENT_PATH" ]; then
  read -r base head number < <(python3 - "$GITHUB_EVENT_PATH" <<'PY'
import json, sys
try:
    e = json.load(open(sys.argv[1], encoding="utf-8"))
except Exception:
    e = {}
pr = e.get("pull_request") or {}
base = (pr.get("base") or {}).get("sha") or e.get("before") or ""
head = (pr.get("head") or {}).get("sha") or e.get("after") or ""
num = pr.get("number") or e.get("number") or ""
ok = lambda s: isinstance(s, str) and len(s) in (40, 64) and all(c in "0123456789abcdef" for c in s) and s.strip("0")
print(base if ok(base) else "-", head if ok(head) else "-", num if isinstance(num, int) else "-")
PY
  )
  [ "$base" = "-" ] && base=""
  [ "$head" = "-" ] && head=""
  [ "$number" = "-" ] && number=""
  args+=(--event "$GITHUB_EVENT_PATH")
fi
args+=(--repo "$workspace")
if [ -n "$base" ]; then
  # A shallow checkout may lack the base commit: fetch it (data only, no code runs).
  if ! git -C "$workspace" cat-file -e "$base^{commit}" 2>/dev/null; then
    git -C "$workspace" fetch --no-tags --quiet --depth=1 origin "$base" 2>/dev/null ||
      echo "::warning title=review-action::cannot fetch the base commit $base; use actions/checkout with fetch-depth: 0"
  fi
  args+=(--base "$base")
fi
[ -n "$head" ] && args+=(--head "$head")

outdir=$(mktemp -d "${RUNNER_TEMP:-/tmp}/review-action.XXXXXX")
json="$outdir/review.json"
summary="$outdir/summary.md"
# Outputs go under RUNNER_TEMP by default, outside the checkout the pull request wrote (a link it
# committed there cannot redirect them); the runner refuses to write through a symbolic link anyway.
case "$sarif" in
  "") sarif_path="$outdir/review.sarif" ;;
  /*) sarif_path=$sarif ;;
  *) sarif_path="$workspace/$sarif" ;;
esac
mkdir -p "$(dirname "$sarif_path")"

args+=(--fail-on "$fail_on" --filter "$filter" --format text --sarif "$sarif_path"
       --format "summary=$summary" --format "json=$json")
[ -n "${INPUT_CATEGORY:-}" ] && args+=(--category "$INPUT_CATEGORY")
[ -n "${INPUT_SHARD:-}" ] && args+=(--shard "$INPUT_SHARD")
# Other repositories (`with:`, one NAME=PATH[@REV] per line): a relative PATH is in the workspace.
while IFS= read -r line || [ -n "$line" ]; do
  line=$(printf '%s' "$line" | sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//')
  [ -z "$line" ] && continue
  case "$line" in *=/*) ;; *=*) line="${line%%=*}=$workspace/${line#*=}" ;; esac
  args+=(--with "$line")
done <<< "${INPUT_WITH:-}"
# The trust boundary: in a pull-request run the review policy (the config, rulesets given as paths,
# the baseline) is read from the base commit, so a pull request cannot change its own review; an
# edit to the policy is reported as a finding. Without a base (audit, push without `before`) the
# checked-out files are the policy.
# The `config` input is the only word on the configuration: the runner's own default
# (.github/review.yml at the repository root) is off when the action passes no --config.
if [ -n "$base" ] && [ "$audit" != true ]; then
  args+=(--policy-from "$base")
  if [ -n "${INPUT_CONFIG:-}" ]; then args+=(--config "$workspace/$INPUT_CONFIG"); else args+=(--no-config); fi
elif [ -n "${INPUT_CONFIG:-}" ] && [ -f "$workspace/$INPUT_CONFIG" ]; then
  args+=(--config "$workspace/$INPUT_CONFIG")
else
  args+=(--no-config)
fi
# An empty ruleset input is fine when the config (where the policy comes from) exists: its
# `rulesets:` names them, and the runner says so (exit 2) when it does not.
if [ "$rulesets_given" = false ]; then
  config_found=false
  if [ -n "${INPUT_CONFIG:-}" ]; then
    if [ -n "$base" ] && [ "$audit" != true ]; then
      git -C "$workspace" cat-file -e "$base:$INPUT_CONFIG" 2>/dev/null && config_found=true
    elif [ -f "$workspace/$INPUT_CONFIG" ]; then
      config_found=true
    fi
  fi
  $config_found || fail "the ruleset input is empty and there is no config file ${INPUT_CONFIG:-.github/review.yml} naming rulesets: name a shipped ruleset (\`runner list\`) or a .rules file"
fi
token_ok=false
[ -n "${GITHUB_TOKEN:-}" ] && token_ok=true
case "$annotations" in
  auto|check-run)
    if $token_ok; then
      args+=(--check-run "review-action${INPUT_CATEGORY:+ ($INPUT_CATEGORY)}")
    else
      echo "review-action: no token, so workflow annotations instead of a check run"
      args+=(--format github)
    fi ;;
  workflow) args+=(--format github) ;;
  none) ;;
esac
if [ "$comment" = true ]; then
  if $token_ok && [ -n "$number" ]; then args+=(--comment)
  else echo "review-action: comment skipped (needs a pull_request event and a token)"; fi
fi

export GITHUB_TOKEN GITHUB_API_URL="${GITHUB_API_URL:-https://api.github.com}"
echo "review-action: $(basename "$bin") ${args[*]}"
"$bin" "${args[@]}"
code=$?

verdict="" count=0
if [ -f "$json" ]; then
  read -r verdict count < <(python3 - "$json" <<'PY'
import json, sys
try:
    d = json.load(open(sys.argv[1], encoding="utf-8"))
except Exception:
    d = {}
v = d.get("verdict") if isinstance(d, dict) else None
f = d.get("findings") if isinstance(d, dict) else None
n = sum(1 for x in f if isinstance(x, dict) and not x.get("suppressed")) if isinstance(f, list) else 0
print(v if v in ("lgtm", "needs-work", "block") else "-", n)
PY
  )
  [ "$verdict" = "-" ] && verdict=""
fi
if [ -s "$summary" ] && [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  cat "$summary" >> "$GITHUB_STEP_SUMMARY"
fi
out verdict "$verdict"
out findings "$count"
out sarif-file "$sarif_path"
if [ -s "$sarif_path" ]; then out sarif-written true; else out sarif-written false; fi
out exit-code "$code"
exit 0
