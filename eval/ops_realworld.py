#!/usr/bin/env python3
"""Run ops.rules over real C++/ROCm library history and design documents; regenerate the figures
of eval/REPORT-ops.md.

Inputs (read-only, outside this repository): clones of the repositories, made with
  git clone --shared --no-checkout /work/.mirror/<owner>+<name>/repo /work/repos/ops-<name>
passed as --repo NAME=DIR (several allowed).

What it does:
  1. For each repository, the last N first-parent commits (default 150) are reviewed against their
     first parent, the commit message standing in for the pull request:
       runner --ruleset RULES --repo DIR --base SHA^ --head SHA --title SUBJECT --body BODY
              --format json=OUT --fail-on never
  2. Each commit falls in the "tune" or the "frozen" half by the first byte of sha256(commit id)
     (even: tune). Rules were tuned on the tune half only; --half frozen reports the other half.
  3. --docs NAME reviews every design/RFC document of that repository in audit mode (--all,
     OPS-RFC-* rules only) and keeps the findings on Markdown files.
  4. Hand verdicts are read from --verdicts (TSV: key, verdict TP|FP|unsure, note). The key of a
     finding is repo:sha:rule:file:line. Precision by rule = TP / (TP + FP) over judged findings.
  5. --sample K prints K random warnings (seeded) of the selected half with their keys, for
     reading by hand; --show-blocks prints every block finding.

Output: Markdown on stdout: findings per commit (median, p95, max) by severity, findings by rule,
precision by rule from the verdicts, and the document findings. Results are cached per commit in
--cache (default /tmp/ops-realworld-cache) so re-runs only review what is new.
Exit status 0 (a measurement, not a gate); 2 when the runner is missing.
"""
import argparse
import collections
import csv
import hashlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def git(repo, *args):
    return subprocess.run(["git", "-C", repo, *args], capture_output=True, text=True, check=True).stdout


def half_of(sha):
    return "tune" if hashlib.sha256(sha.encode()).digest()[0] % 2 == 0 else "frozen"


def review_commit(args, name, repo, sha):
    cache = os.path.join(args.cache, f"{name}-{sha}-{args.rules_hash}.json")
    if os.path.exists(cache):
        with open(cache) as f:
            return json.load(f)
    msg = git(repo, "log", "-1", "--format=%s%x00%b", sha)
    subject, _, body = msg.partition("\0")
    parents = git(repo, "rev-list", "--parents", "-n", "1", sha).split()
    if len(parents) < 2:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r.json")
        cmd = [args.runner, "--ruleset", args.rules, "--repo", repo, "--base", parents[1], "--head", sha,
               "--title", subject.strip(), "--body", body.strip() or " ", "--format", f"json={out}",
               "--fail-on", "never", "--color", "never", "-j", "1"]
        p = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, "NO_COLOR": "1"})
        if not os.path.exists(out):
            res = {"error": p.stderr[-2000:], "findings": []}
        else:
            with open(out) as f:
                d = json.load(f)
            res = {"findings": [
                {k: x.get(k) for k in ("rule_id", "severity", "file", "line", "problem", "tags")} for x in d["findings"]
                if not x.get("suppressed")], "diagnostics": d.get("diagnostics", [])}
    res.update({"repo": name, "sha": sha, "subject": subject.strip(), "half": half_of(sha)})
    os.makedirs(args.cache, exist_ok=True)
    with open(cache, "w") as f:
        json.dump(res, f)
    return res


def review_docs(args, name, repo):
    cache = os.path.join(args.cache, f"{name}-docs-{git(repo, 'rev-parse', 'HEAD').strip()}-{args.rules_hash}.json")
    if os.path.exists(cache):
        with open(cache) as f:
            return json.load(f)
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r.json")
        rules = [x for r in range(1, 12) for x in ("--rule", f"OPS-RFC-{r}")]
        cmd = [args.runner, "--ruleset", args.rules, "--repo", repo, "--all", "--head", "HEAD",
               "--format", f"json={out}", "--fail-on", "never", "--color", "never", "-j", "1", *rules]
        subprocess.run(cmd, capture_output=True, text=True)
        with open(out) as f:
            d = json.load(f)
    res = [{k: x.get(k) for k in ("rule_id", "severity", "file", "line", "problem")} for x in d["findings"]
           if (x.get("file") or "").lower().endswith(".md")]
    with open(cache, "w") as f:
        json.dump(res, f)
    return res


def key(r, f):
    return f"{r['repo']}:{r['sha'][:12]}:{f['rule_id']}:{f['file'] or '-'}:{f['line']}"


def pct(values, q):
    if not values:
        return 0
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runner", default=os.path.join(ROOT, "build", "runner"))
    ap.add_argument("--rules", default=os.path.join(ROOT, "rulesets", "ops.rules"))
    ap.add_argument("--repo", action="append", default=[], help="NAME=DIR")
    ap.add_argument("--docs", action="append", default=[], help="NAME of a --repo whose documents to audit")
    ap.add_argument("--commits", type=int, default=150)
    ap.add_argument("--half", choices=["tune", "frozen", "all"], default="tune")
    ap.add_argument("--verdicts", default=os.path.join(HERE, "ops-verdicts.tsv"))
    ap.add_argument("--cache", default="/tmp/ops-realworld-cache")
    ap.add_argument("--sample", type=int, default=0)
    ap.add_argument("--seed", type=int, default=16)
    ap.add_argument("--show-blocks", action="store_true")
    args = ap.parse_args()
    if not os.access(args.runner, os.X_OK):
        print(f"runner not found: {args.runner}", file=sys.stderr)
        return 2
    with open(args.rules, "rb") as f:
        args.rules_hash = hashlib.sha256(f.read() + b"v2").hexdigest()[:10]
    verdicts = {}
    if os.path.exists(args.verdicts):
        with open(args.verdicts) as f:
            for row in csv.reader(f, delimiter="\t"):
                if row and not row[0].startswith("#") and len(row) >= 2:
                    verdicts[row[0]] = (row[1], row[2] if len(row) > 2 else "")
    results = []
    for spec in args.repo:
        name, _, d = spec.partition("=")
        shas = git(d, "rev-list", "--first-parent", "-n", str(args.commits), "HEAD").split()
        for sha in shas:
            r = review_commit(args, name, d, sha)
            if r and (args.half == "all" or r["half"] == args.half):
                # A finding of a rule tagged "strength" states what the change does well: it is
                # counted apart, never as noise.
                r["strengths"] = [f for f in r["findings"] if "strength" in (f.get("tags") or [])]
                r["findings"] = [f for f in r["findings"] if "strength" not in (f.get("tags") or [])]
                results.append(r)
    out = []
    out.append(f"### Commits ({args.half} half): {len(results)} reviewed\n")
    per = {s: [sum(1 for f in r["findings"] if f["severity"] == s) for r in results] for s in ("block", "warn", "note")}
    per["all"] = [len(r["findings"]) for r in results]
    out.append("| findings per commit | median | p95 | max | total |\n|---|---|---|---|---|")
    for s in ("block", "warn", "note", "all"):
        v = per[s]
        out.append(f"| {s} | {statistics.median(v) if v else 0:g} | {pct(v, 0.95)} | {max(v) if v else 0} | {sum(v)} |")
    out.append(f"\nStrengths (rules tagged `strength`, not counted above): "
               f"{sum(len(r['strengths']) for r in results)} in {sum(1 for r in results if r['strengths'])} commits")
    errors = [r for r in results if r.get("error")]
    if errors:
        out.append(f"\n{len(errors)} commits could not be reviewed (first: {errors[0]['sha'][:12]}: {errors[0]['error'][:200]!r})")
    by_rule = collections.defaultdict(lambda: collections.Counter())
    for r in results:
        for f in r["findings"]:
            c = by_rule[f["rule_id"]]
            c[f["severity"]] += 1
            v = verdicts.get(key(r, f), ("", ""))[0]
            if v:
                c[v] += 1
    out.append("\n| rule | findings | judged | TP | FP | unsure | precision |\n|---|---|---|---|---|---|---|")
    for rule in sorted(by_rule):
        c = by_rule[rule]
        n = c["block"] + c["warn"] + c["note"]
        judged = c["TP"] + c["FP"] + c["unsure"]
        prec = f"{c['TP'] / (c['TP'] + c['FP']):.2f}" if c["TP"] + c["FP"] else "—"
        out.append(f"| {rule} | {n} | {judged} | {c['TP']} | {c['FP']} | {c['unsure']} | {prec} |")
    if args.show_blocks:
        out.append("\n#### Every block finding\n")
        for r in results:
            for f in r["findings"]:
                if f["severity"] == "block":
                    out.append(f"- `{key(r, f)}` {f['problem']}")
    if args.sample:
        warns = [(r, f) for r in results for f in r["findings"] if f["severity"] == "warn"]
        random.Random(args.seed).shuffle(warns)
        out.append(f"\n#### {min(args.sample, len(warns))} random warnings (seed {args.seed}) of {len(warns)}\n")
        for r, f in warns[: args.sample]:
            v = verdicts.get(key(r, f), ("?", ""))
            out.append(f"- `{key(r, f)}` [{v[0]}] {f['problem']} {('— ' + v[1]) if v[1] else ''}")
    for name in args.docs:
        d = dict(s.partition("=")[::2] for s in args.repo)[name]
        docs = review_docs(args, name, d)
        files = {f["file"] for f in docs}
        out.append(f"\n### Design/RFC documents of {name}: {len(docs)} findings in {len(files)} files\n")
        c = collections.Counter(f["rule_id"] for f in docs)
        dv = collections.defaultdict(collections.Counter)
        for f in docs:
            k = f"{name}:docs:{f['rule_id']}:{f['file']}:{f['line']}"
            v = verdicts.get(k, ("", ""))[0]
            if v:
                dv[f["rule_id"]][v] += 1
        out.append("| rule | findings | TP | FP | unsure |\n|---|---|---|---|---|")
        for rule in sorted(c):
            out.append(f"| {rule} | {c[rule]} | {dv[rule]['TP']} | {dv[rule]['FP']} | {dv[rule]['unsure']} |")
        if args.sample:
            out.append("")
            for f in docs:
                k = f"{name}:docs:{f['rule_id']}:{f['file']}:{f['line']}"
                v = verdicts.get(k, ("?", ""))
                out.append(f"- `{k}` [{v[0]}] {f['problem']}")
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
