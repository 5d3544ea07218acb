#!/usr/bin/env bash
# Scaling: the audit (`--all`, default ruleset atom) of repositories made of K copies of one
# checkout's Python files (K = 1, 4, 16 by default), each copy under a renamed top folder
# (copy0/, copy1/, ...), committed once into a temp git repository. Prints CPU (user+system),
# wall and peak RSS per K, CPU and memory per copy, and the slope between consecutive sizes
# (1.0 = linear). Copies are exact, so two rules' output is quadratic in K by construction: D9
# (clones: every copy of a function clones every other copy) and B6 (a routing value against every
# dispatch site on its subject: every copy's value meets every copy's sites). With both, 1x gave
# 32,985 findings and 4x 460,156; B6 alone went from 26,894 to 436,040. EXCLUDE_RULES (default
# "D9 B6", space-separated; "" keeps every rule) are turned off with --exclude-rule. The memory
# ceiling is 90% of the machine (the default 50% would stop a 16x run).
#   bench/scale.sh CHECKOUT [K...]        (RULESET overrides the ruleset; BUILD_DIR or RUNNER;
#                                          KEEP=DIR keeps each run's JSON as DIR/kK.json)
# Vendored trees (3rdparty/, third_party/) are left out, as the runner's default skip globs do.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
checkout=$1
shift
ks=("$@")
[ ${#ks[@]} -gt 0 ] || ks=(1 4 16)
runner=${RUNNER:-${BUILD_DIR:-$here/build}/runner}
ruleset=${RULESET:-atom}
excluded=()
for r in ${EXCLUDE_RULES-D9 B6}; do excluded+=(--exclude-rule "$r"); done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$checkout" && git ls-files -- '*.py' ':!:**/3rdparty/**' ':!:**/third_party/**' ':!:3rdparty/**' ':!:third_party/**') >"$tmp/files"
echo "excluded rules: ${EXCLUDE_RULES-D9 B6}"
echo "checkout $checkout @ $(git -C "$checkout" rev-parse --short=10 HEAD): $(wc -l <"$tmp/files") .py files, $(cd "$checkout" && xargs cat <"$tmp/files" | wc -c) bytes a copy"
printf "%-4s %9s %9s %9s %12s %12s %s\n" k cpu_s wall_s rss_mib cpu_s/copy mib/copy load
prev=""
for k in "${ks[@]}"; do
  repo="$tmp/k$k"
  git init -q "$repo"
  for c in $(seq 0 $((k - 1))); do
    (cd "$checkout" && tar cf - -T "$tmp/files") | (mkdir -p "$repo/copy$c" && cd "$repo/copy$c" && tar xf -)
  done
  git -C "$repo" add -A >/dev/null
  git -C "$repo" -c user.name=b -c user.email=b@b commit -q -m copies
  load=$(cut -d' ' -f1 /proc/loadavg)
  /usr/bin/time -f "%U %S %e %M" -o "$tmp/t" "$runner" -r "$ruleset" --repo "$repo" --all --fail-on never \
    --allow-incomplete --max-memory 90% "${excluded[@]}" --format "json=$tmp/out.json" >/dev/null 2>"$tmp/err" || true
  read -r u s e m <"$tmp/t"
  inc=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(len(d["findings"]), len(d.get("incomplete", [])))' "$tmp/out.json" 2>/dev/null || echo "? ?")
  cpu=$(awk -v u="$u" -v s="$s" 'BEGIN {print u+s}')
  awk -v k="$k" -v c="$cpu" -v e="$e" -v m="$m" -v l="$load" -v inc="$inc" 'BEGIN {
    printf "%-4d %9.2f %9.2f %9.1f %12.2f %12.1f load %s; findings, incomplete: %s\n", k, c, e, m/1024, c/k, m/1024/k, l, inc }'
  if [ -n "$prev" ]; then
    read -r pk pc pm <<<"$prev"
    awk -v pk="$pk" -v pc="$pc" -v pm="$pm" -v k="$k" -v c="$cpu" -v m="$m" 'BEGIN {
      printf "     slope %dx -> %dx: CPU x%.2f, memory x%.2f for x%.0f input (log-log slope CPU %.2f, memory %.2f)\n",
        pk, k, c/pc, m/pm, k/pk, log(c/pc)/log(k/pk), log(m/pm)/log(k/pk) }'
  fi
  prev="$k $cpu $m"
  if [ -n "${KEEP:-}" ]; then mkdir -p "$KEEP" && cp "$tmp/out.json" "$KEEP/k$k.json"; fi
  rm -rf "$repo"
done
