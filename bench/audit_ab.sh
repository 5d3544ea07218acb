#!/usr/bin/env bash
# Two or more runners' audits of one checkout, interleaved: run 1 of each, then run 2 of each, …
# so that a noisy machine's drift falls on all alike. Prints per runner the minimum and median
# CPU (user + system of the process and its git children, /usr/bin/time), the medians of user
# and system time, the largest peak RSS and the median page faults; then whether each runner's
# audit JSON differs from the first runner's.
#   bench/audit_ab.sh CHECKOUT RUNS RUNNER_A RUNNER_B [RUNNER…]
# Each run: RUNNER -r atom --repo CHECKOUT --all --fail-on never --allow-incomplete --format json=…
# (RULESET=NAME for another shipped ruleset; JOBS=N adds --jobs N).
set -euo pipefail
[ $# -ge 4 ] || { sed -n '2,9p' "$0"; exit 2; }
checkout=$1 runs=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
extra=()
[ -n "${JOBS:-}" ] && extra+=(--jobs "$JOBS")
echo "checkout $checkout @ $(git -C "$checkout" rev-parse --short=10 HEAD); load_average $(cut -d' ' -f1-3 /proc/loadavg) (cores: $(nproc))"
for i in $(seq "$runs"); do
  k=0
  for r in "$@"; do
    k=$((k + 1))
    /usr/bin/time -f "%U %S %M %R" -o "$tmp/t.$k.$i" "$r" -r "${RULESET:-atom}" --repo "$checkout" --all --fail-on never \
      --allow-incomplete "${extra[@]}" --format "json=$tmp/$k.json" >/dev/null 2>&1 || true
  done
done
k=0
for r in "$@"; do
  k=$((k + 1))
  cat "$tmp"/t.$k.* | python3 -c '
import sys
rows = [l.split() for l in sys.stdin if l.strip() and l.split()[0][0].isdigit()]
cpu = sorted(float(u) + float(s) for u, s, m, f in rows)
med = lambda xs: sorted(xs)[len(xs) // 2]
print("%-28s cpu min %.2f med %.2f  user med %.2f sys med %.2f  rss_max %.0f MiB  faults med %d" % (
    sys.argv[1][-28:], cpu[0], med(cpu), med([float(r[0]) for r in rows]), med([float(r[1]) for r in rows]),
    max(int(r[2]) for r in rows) / 1024, med([int(r[3]) for r in rows])))' "$r"
  [ "$k" -gt 1 ] && { cmp -s "$tmp/1.json" "$tmp/$k.json" && echo "  json identical to the first runner's" || echo "  json DIFFERS from the first runner's"; }
done
