#!/usr/bin/env bash
# Same findings before and after: two runner binaries over the commits of a noise list, one
# pull-request run each (`--base PARENT --head SHA --filter all --fail-on never`, JSON), the
# findings compared after sorting. Prints one line per commit (`same N` or `DIFF`) and a
# summary; the differing JSON files stay in OUT for reading.
#   bench/findings_diff.sh BEFORE_RUNNER AFTER_RUNNER [NOISE_TSV] [OUT] [LIMIT]
# NOISE_TSV defaults to /work/shared/eval/noise-dev.tsv (repo, sha, parent, ...); repositories
# are read from /work/repos/<name> (ATOM, aiter), read-only. LIMIT caps the commits per run.
# RULESET (default: the shipped `atom`) is passed to both binaries as `-r`: give one .rules path
# to compare two engines on the same rules.
set -euo pipefail
before=$1
after=$2
tsv=${3:-/work/shared/eval/noise-dev.tsv}
out=${4:-$(mktemp -d)}
limit=${5:-1000000}
ruleset=${RULESET:-atom}
mkdir -p "$out"
same=0 diff=0 n=0
norm() {  # rule, file, line, severity, fingerprint, problem of every finding, sorted
  python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
rows = sorted("\t".join(str(f.get(k)) for k in ("rule_id", "file", "line", "severity", "fingerprint", "problem"))
              for f in d.get("findings", []))
print("\n".join(rows))' "$1"
}
while IFS=$'\t' read -r repo sha parent _; do
  [ "$repo" = repo ] && continue
  [ "$n" -ge "$limit" ] && break
  n=$((n + 1))
  dir=/work/repos/${repo#*/}
  for side in before after; do
    bin=$before; [ $side = after ] && bin=$after
    "$bin" -r "$ruleset" --repo "$dir" --base "$parent" --head "$sha" \
      --format "json=$out/$sha.$side.json" --fail-on never --filter all >/dev/null 2>"$out/$sha.$side.err" || true
    norm "$out/$sha.$side.json" >"$out/$sha.$side.txt" 2>/dev/null || echo "no json" >"$out/$sha.$side.txt"
  done
  if cmp -s "$out/$sha.before.txt" "$out/$sha.after.txt"; then
    same=$((same + 1)); echo "$repo $sha same $(wc -l <"$out/$sha.after.txt")"
  else
    diff=$((diff + 1)); echo "$repo $sha DIFF"; diff "$out/$sha.before.txt" "$out/$sha.after.txt" | head -5 || true
  fi
done <"$tsv"
echo "commits $n same $same differ $diff (files in $out)"
