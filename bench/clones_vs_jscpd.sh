#!/usr/bin/env bash
# Compares the `clones` fact source with jscpd's cross-file clones on one Python tree, and times
# both. Every .py file of REV is reviewed as newly added (`runner --base-dir EMPTY --head-dir
# TREE`), so `clones(changed)` sees each whole file as one added block.
#   bench/clones_vs_jscpd.sh REPO REV [OUTDIR]
# Needs: a build (BUILD_DIR, default ./build; RUNNER overrides the binary), node + npm. jscpd is installed at a pinned version
# into $JSCPD_CACHE (outside the repository). Same minimum size on both sides: jscpd's defaults,
# 5 lines and 50 tokens (`let clone_min_lines`/`clone_min_tokens` for ours, --min-lines/--min-tokens
# for jscpd); jscpd with --ignore-identifiers (Type-2 clones: names abstracted, as `clones` does).
# Dot-folders are removed from the tree (jscpd skips them). JSCPD_REUSE=1 keeps an earlier jscpd
# report in OUTDIR (same tree) instead of running jscpd again.
# Prints, per tool: clone pairs across files, file pairs, wall and CPU time; and recall of each
# against the other at file-pair level and at range level (same file pair, overlapping lines).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
repo=$(cd "${1:?usage: clones_vs_jscpd.sh REPO REV [OUTDIR]}" && pwd)
rev=${2:?usage: clones_vs_jscpd.sh REPO REV [OUTDIR]}
out=${3:-/tmp/clones-vs-jscpd}
build=${BUILD_DIR:-$here/build}
runner=${RUNNER:-$build/runner}
jscpd_version=5.3.2
cache=${JSCPD_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/review-action/jscpd-$jscpd_version}
mkdir -p "$out" "$cache"
[ -x "$cache/node_modules/.bin/jscpd" ] || npm install --silent --prefix "$cache" -E "jscpd@$jscpd_version" >/dev/null

tree="$out/tree" empty="$out/empty"
rm -rf "$tree" "$empty" && mkdir -p "$tree" "$empty"
git -C "$repo" archive "$rev" | tar -x -C "$tree"
find "$tree" -type f ! -name '*.py' -delete
find "$tree" -mindepth 1 -type d -name '.*' -prune -exec rm -rf {} +

# Ours: a throwaway rule that reports every clone pair (the D5 rule adds tiers on top).
cat > "$out/clones.rules" <<'RULES'
let clone_min_lines = 5
let clone_min_tokens = 50
rule CL "clone pair" {
  severity note
  for c in clones(changed) where c.lines >= 5
  problem "{c.a.file}|{c.a.line}|{c.a.end_line}|{c.b.file}|{c.b.line}|{c.b.end_line}|{c.similarity}"
  impact  "-"
  action  "Reviewer should look"
  example bad python """
    x = 1   # <- CL
  """
}
RULES
/usr/bin/time -f "%e %U %S %M" -o "$out/ours.time" "$runner" -r "$out/clones.rules" --base-dir "$empty" \
  --head-dir "$tree" --filter all --fail-on never --rule-budget-ms 3600000 --format json="$out/ours.json" \
  2>"$out/ours.err" >/dev/null || true
[ "${JSCPD_REUSE:-0}" = 1 ] && [ -f "$out/jscpd/jscpd-report.json" ] ||
( cd "$tree" && /usr/bin/time -f "%e %U %S %M" -o "$out/jscpd.time" "$cache/node_modules/.bin/jscpd" --min-lines 5 \
    --min-tokens 50 --ignore-identifiers --format python --reporters json --output "$out/jscpd" . >/dev/null 2>&1 ) || true

python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
ours = []
for f in json.load(open(out + "/ours.json"))["findings"]:
    a, al, ae, b, bl, be, sim = f["problem"].split("|")
    ours.append(((a, int(al), int(ae)), (b, int(bl), int(be))))
import statistics
def span(c): return c[0][2] - c[0][1] + 1
jd = json.load(open(out + "/jscpd/jscpd-report.json"))
theirs = []
for c in jd["duplicates"]:
    x, y = c["firstFile"], c["secondFile"]
    if x["name"] == y["name"]:
        continue
    theirs.append(((x["name"].lstrip("./"), x["start"], x["end"]), (y["name"].lstrip("./"), y["start"], y["end"])))
def norm(p):
    return tuple(sorted(p))
def pairs(cs):
    return {tuple(sorted((c[0][0], c[1][0]))) for c in cs}
def recall(found, truth):  # same two files, overlapping lines on both sides
    by = {}
    for f in found:
        f = norm(f)
        by.setdefault((f[0][0], f[1][0]), []).append(f)
    hit = 0
    for t in truth:
        t = norm(t)
        if any(all(t[i][1] <= f[i][2] and f[i][1] <= t[i][2] for i in (0, 1)) for f in by.get((t[0][0], t[1][0]), [])):
            hit += 1
    return hit, len(truth)
po, pt = pairs(ours), pairs(theirs)
def t(name):
    e, u, s, m = open(out + "/" + name + ".time").read().split()[-4:]
    return "%.1f s wall, %.1f s CPU, %d MB" % (float(e), float(u) + float(s), int(m) // 1024)
print("ours:  %d cross-file pairs over %d file pairs; %s" % (len(ours), len(po), t("ours")))
print("jscpd: %d cross-file clones over %d file pairs; %s" % (len(theirs), len(pt), t("jscpd")))
print("median lines: ours %s, jscpd %s" % (statistics.median(list(map(span, ours))) if ours else 0,
                                           statistics.median(list(map(span, theirs))) if theirs else 0))
print("file pairs: both %d, only ours %d, only jscpd %d" % (len(po & pt), len(po - pt), len(pt - po)))
print("ranges: ours recall of jscpd %d/%d; jscpd recall of ours %d/%d" % (recall(ours, theirs) + recall(theirs, ours)))
with open(out + "/only_jscpd.txt", "w") as fh:
    for p in sorted(pt - po): fh.write("%s %s\n" % p)
with open(out + "/only_ours.txt", "w") as fh:
    for p in sorted(po - pt): fh.write("%s %s\n" % p)
PY
