# shellcheck shell=bash
# Shared helpers for the action's scripts (sourced, not run).

# out NAME VALUE: one step output (GITHUB_OUTPUT, with a random heredoc delimiter so a value can
# never end the block early).
out() {
  local name=$1 value=$2 delim
  delim="review_$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
  if [ -n "${GITHUB_OUTPUT:-}" ]; then
    printf '%s<<%s\n%s\n%s\n' "$name" "$delim" "$value" "$delim" >> "$GITHUB_OUTPUT"
  else
    printf '%s=%s\n' "$name" "$value"
  fi
}

# fail MESSAGE: a workflow error annotation, then exit 2 (usage error).
fail() {
  echo "::error title=review-action::$1" >&2
  exit 2
}
