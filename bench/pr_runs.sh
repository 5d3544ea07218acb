#!/usr/bin/env bash
# Pull-request runs over the commits of a noise list: one runner run per commit
# (`--base PARENT --head SHA`, the shipped atom ruleset, JSON to a temp file), timed with
# /usr/bin/time. Prints per repository: runs, median / p95 / max wall seconds, max CPU seconds,
# max peak RSS, runs with an incomplete review; and the slowest commits.
#   bench/pr_runs.sh [NOISE_TSV] [LIMIT_PER_REPO]
# NOISE_TSV defaults to /work/shared/eval/noise-dev.tsv; repositories are read from
# /work/repos/<name> (ATOM, aiter), read-only. RUNNER overrides the binary (default BUILD_DIR/runner).
# KEEP=DIR keeps each commit's JSON and SARIF (DIR/SHA.json, DIR/SHA.sarif: compare two runners'
# outputs with cmp) and the per-commit rows (DIR/rows: repo sha wall cpu rss_kib incomplete).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
tsv=${1:-/work/shared/eval/noise-dev.tsv}
limit=${2:-1000000}
runner=${RUNNER:-${BUILD_DIR:-$here/build}/runner}
tmp=$(mktemp -d)
[ -n "${KEEP:-}" ] && mkdir -p "$KEEP"
trap 'rm -rf "$tmp"' EXIT
echo "load_average $(cut -d' ' -f1-3 /proc/loadavg) (cores: $(nproc)); runner $runner"
declare -A count
while IFS=$'\t' read -r repo sha parent _; do
  [ "$repo" = repo ] && continue
  c=${count[$repo]:-0}
  [ "$c" -ge "$limit" ] && continue
  count[$repo]=$((c + 1))
  dir=/work/repos/${repo#*/}
  outs=(--format "json=$tmp/o.json")
  [ -n "${KEEP:-}" ] && outs+=(--format "sarif=$KEEP/$sha.sarif")
  /usr/bin/time -f "%e %U %S %M" -o "$tmp/t" "$runner" -r atom --repo "$dir" --base "$parent" --head "$sha" \
    --fail-on never "${outs[@]}" >/dev/null 2>"$tmp/err" || true
  [ -n "${KEEP:-}" ] && cp "$tmp/o.json" "$KEEP/$sha.json"
  read -r e u s m < <(tail -n 1 "$tmp/t")  # after "Command exited with non-zero status N"
  inc=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1])).get("incomplete", [])))' "$tmp/o.json" 2>/dev/null || echo "?")
  echo "$repo $sha $e $(awk -v u="$u" -v s="$s" 'BEGIN {print u+s}') $m $inc" >>"$tmp/rows"
done <"$tsv"
[ -n "${KEEP:-}" ] && cp "$tmp/rows" "$KEEP/rows"
python3 - "$tmp/rows" <<'PY'
import sys, collections
rows = collections.defaultdict(list)
for line in open(sys.argv[1]):
    repo, sha, wall, cpu, rss, inc = line.split()
    rows[repo].append((float(wall), float(cpu), int(rss) / 1024, inc, sha))
def pct(v, p):
    v = sorted(v)
    return v[min(len(v) - 1, int(round(p / 100 * (len(v) - 1))))]
for repo, r in rows.items():
    walls = [x[0] for x in r]
    cpus = [x[1] for x in r]
    rss = [x[2] for x in r]
    print("%-10s runs %3d  wall median %.2f s  p95 %.2f s  max %.2f s  cpu max %.2f s  peak rss max %.0f MiB  incomplete %d" % (
        repo, len(r), pct(walls, 50), pct(walls, 95), max(walls), max(cpus), max(rss),
        sum(1 for x in r if x[3] not in ("0", "?"))))
    # CPU seconds do not grow with the neighbours' load the way wall seconds do.
    print("%-10s           cpu median %.2f s  p95 %.2f s  max %.2f s   peak rss median %.0f MiB  p95 %.0f MiB" % (
        "", pct(cpus, 50), pct(cpus, 95), max(cpus), pct(rss, 50), pct(rss, 95)))
    for x in sorted(r, reverse=True)[:3]:
        print("    slowest %s wall %.2f s cpu %.2f s rss %.0f MiB" % (x[4][:10], x[0], x[1], x[2]))
PY
