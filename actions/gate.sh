#!/usr/bin/env bash
# Last step: fails the job with the runner's exit code (after the SARIF upload had its chance).
# 0 clean, 1 findings at or above fail-on, 2 usage or ruleset error, 3 input error.
# 126/127 (the shell could not execute the binary, or its loader could not find a shared library)
# and 128+N (killed by signal N) mean the runner never produced a verdict; each gets its own line,
# so a broken binary is not reported as unreadable input. The job fails with the code itself.
set -euo pipefail
code=${REVIEW_EXIT_CODE:-}
case "$code" in
  0) echo "review-action: verdict ${REVIEW_VERDICT:-unknown}" ;;
  1) echo "::error title=review-action::verdict ${REVIEW_VERDICT:-unknown}: findings at or above fail-on" ;;
  2) echo "::error title=review-action::bad usage or ruleset (see the review step's log)" ;;
  3) echo "::error title=review-action::the runner could not read its input (see the review step's log)" ;;
  126|127) echo "::error title=review-action::the runner binary did not start (exit $code: a missing shared library or a binary for another platform; see the review step's log)" ;;
  '') echo "::error title=review-action::the review step set no exit code (it did not run the runner; see its log)"; code=3 ;;
  *[!0-9]*) echo "::error title=review-action::the review step set an exit code that is not a number: '$code'"; code=3 ;;
  *) if [ "$code" -gt 128 ]; then
       echo "::error title=review-action::the runner was killed by signal $((code - 128)) (a crash or the job's time limit; see the review step's log)"
     else
       echo "::error title=review-action::the runner exited with code $code (see the review step's log)"
     fi ;;
esac
exit "$code"
