#!/usr/bin/env bash
# Regenerates eval/REPORT.md in one command: the hand-written part (eval/REPORT-notes.md: label
# precision, hand-read verdicts, decisions) followed by the tables eval/run_eval.py measures now
# (dev cases, mined tuning and frozen halves under both filters, three noise lists, precision by
# rule from eval/hand-read.tsv). Extra arguments go to run_eval.py (e.g. --runner, --repos).
# Needs the clones named in run_eval.py's REPO_DIRS under --repos (default /work/repos).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tables=$(mktemp)
trap 'rm -f "$tables"' EXIT
python3 "$here/run_eval.py" --frozen --report "$tables" "$@" > /dev/null
cat "$here/REPORT-notes.md" "$tables" > "$here/REPORT.md"
echo "wrote $here/REPORT.md"
