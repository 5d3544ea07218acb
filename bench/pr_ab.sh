#!/usr/bin/env bash
# Two runners side by side over the commits of a noise list: each commit is run by both
# (`--base PARENT --head SHA`, the shipped atom ruleset, JSON to a file), one right after the
# other, the order alternating from commit to commit, so that a noisy machine's drift falls on
# both alike. Prints, per repository and runner: median / p95 / max wall and CPU seconds, max
# peak RSS; then how many commits' JSON differ between the two runners.
#   bench/pr_ab.sh RUNNER_A RUNNER_B [NOISE_TSV]
# NOISE_TSV defaults to /work/shared/eval/noise-dev.tsv; repositories are read from
# /work/repos/<name> (read-only). KEEP=DIR keeps the rows (DIR/rows: repo sha runner wall cpu
# rss_kib) and each run's JSON (DIR/a/SHA.json, DIR/b/SHA.json).
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: bench/pr_ab.sh RUNNER_A RUNNER_B [NOISE_TSV]" >&2; exit 2; }
a=$1 b=$2 tsv=${3:-/work/shared/eval/noise-dev.tsv}
out=${KEEP:-$(mktemp -d)}
[ -n "${KEEP:-}" ] || trap 'rm -rf "$out"' EXIT
mkdir -p "$out/a" "$out/b"
: >"$out/rows"
echo "load_average $(cut -d' ' -f1-3 /proc/loadavg) (cores: $(nproc)); A $a; B $b"
i=0
while IFS=$'\t' read -r repo sha parent _; do
  [ "$repo" = repo ] && continue
  dir=/work/repos/${repo#*/}
  i=$((i + 1))
  if [ $((i % 2)) = 0 ]; then order="a b"; else order="b a"; fi
  for side in $order; do
    if [ "$side" = a ]; then runner=$a; else runner=$b; fi
    /usr/bin/time -f "%e %U %S %M" -o "$out/t" "$runner" -r atom --repo "$dir" --base "$parent" --head "$sha" \
      --fail-on never --format "json=$out/$side/$sha.json" >/dev/null 2>&1 || true
    read -r e u s m < <(tail -n 1 "$out/t")
    echo "$repo $sha $side $e $(awk -v u="$u" -v s="$s" 'BEGIN {print u+s}') $m" >>"$out/rows"
  done
done <"$tsv"
python3 - "$out" <<'PY'
import sys, os, collections, filecmp
out = sys.argv[1]
rows = collections.defaultdict(list)
shas = set()
for line in open(os.path.join(out, "rows")):
    repo, sha, side, wall, cpu, rss = line.split()
    rows[(repo, side)].append((float(wall), float(cpu), int(rss) / 1024))
    shas.add(sha)
def pct(v, p):
    v = sorted(v)
    return v[min(len(v) - 1, int(round(p / 100 * (len(v) - 1))))]
for (repo, side), r in sorted(rows.items()):
    w = [x[0] for x in r]; c = [x[1] for x in r]; m = [x[2] for x in r]
    print("%-10s %s runs %3d  wall median %.2f p95 %.2f max %.2f s  cpu median %.2f p95 %.2f max %.2f s  peak rss max %.0f MiB" % (
        repo, side, len(r), pct(w, 50), pct(w, 95), max(w), pct(c, 50), pct(c, 95), max(c), max(m)))
differ = [s for s in sorted(shas) if not filecmp.cmp(os.path.join(out, "a", s + ".json"), os.path.join(out, "b", s + ".json"), shallow=False)]
print("JSON differs on %d of %d commits%s" % (len(differ), len(shas), (": " + " ".join(s[:10] for s in differ)) if differ else ""))
PY
