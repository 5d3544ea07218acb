#!/usr/bin/env bash
# Last step: fails the job with the runner's exit code (after the SARIF upload had its chance).
# 0 clean, 1 findings at or above fail-on, 2 usage or ruleset error, 3 input error.
set -euo pipefail
code=${REVIEW_EXIT_CODE:-3}
case "$code" in
  0) echo "review-action: verdict ${REVIEW_VERDICT:-unknown}" ;;
  1) echo "::error title=review-action::verdict ${REVIEW_VERDICT:-unknown}: findings at or above fail-on" ;;
  2) echo "::error title=review-action::bad usage or ruleset (see the review step's log)" ;;
  *) echo "::error title=review-action::the runner could not read its input (see the review step's log)"; code=3 ;;
esac
exit "$code"
