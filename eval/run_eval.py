#!/usr/bin/env python3
"""Run atom.rules on the real ATOM/aiter pull requests of the shared evaluation set.

Inputs (read-only, outside this repository):
  dev-cases.tsv   columns id repo base_sha head_sha rule checklist polarity path line source description
  noise-dev.tsv   columns repo sha parent date files added removed subject
  full clones of ROCm/ATOM and ROCm/aiter (`git clone --shared --no-checkout BARE DIR`).

For every dev case judged by atom.rules (checklist `atom`, plus `aiter` rows whose rule id means
the same in both checklists: D1 D1b D4 D6 D7 D8 D9 G1 HK1) the runner is invoked as
  runner --ruleset RULES --repo DIR --base BASE --head HEAD --format json=OUT --fail-on never
and the case passes when a finding of the case's rule (see RULE_ALIASES) lands within +-3 lines of
path:line (positive) or when none does (negative). Every ATOM noise commit is run against its
parent and its findings are counted by severity.

Output: a Markdown report on stdout (and in --report FILE): per rule, positives found/expected and
negatives wrongly fired; for noise, warn+block per commit (median) and every block finding.
Exit status 0 always (this is a measurement, not a gate); 2 when the runner is missing.
"""
import argparse
import collections
import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SHARED_RULES = {"D1", "D1b", "D4", "D6", "D7", "D8", "D9", "G1", "HK1"}
# Case rule id (checklist numbering) -> rule ids of atom.rules that report it.
# B5 is split into B5a..B5e in the catalogue; B6's cited ATOM evidence (ATOM#1548, a getattr
# key with a silent default) is the B5c pattern, so both ids count for a B6 case.
RULE_ALIASES = {
    "B5": {"B5a", "B5b", "B5c", "B5d", "B5e", "B5f"},
    "B6": {"B6", "B5c"},
    "D4": {"D4", "D4d", "D4e"},
    "D6": {"D6", "D6b"},
    "D8": {"D8", "D8b"},
    "D9": {"D9", "D9b", "D9c"},
    "G1": {"G1", "G1c"},
    "C1": {"C1", "C1b", "C1c"},
    "D1b": {"D1b", "D1c"},
}
WINDOW = 3


def repo_dir(repo, args):
    return args.atom if repo == "ROCm/ATOM" else args.aiter


def commit_message(repo, sha):
    """(subject, body) of commit `sha` in `repo`, used as the pull request's title and body."""
    p = subprocess.run(["git", "-C", repo, "log", "-1", "--format=%s%x00%b", sha], capture_output=True, text=True)
    subject, _, body = p.stdout.partition("\0")
    return subject.strip(), body.strip()


def run_runner(args, repo, base, head, name=None):
    """Returns (findings list, error text or None, seconds). With --dump, also writes the findings
    to DUMP/NAME.json."""
    fs, err, dt = _run_runner(args, repo, base, head)
    if args.dump and name:
        os.makedirs(args.dump, exist_ok=True)
        with open(os.path.join(args.dump, name + ".json"), "w") as fh:
            json.dump({"findings": fs, "error": err, "seconds": dt}, fh, indent=1)
    return fs, err, dt


def _run_runner(args, repo, base, head):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.json")
        cmd = [args.runner, "--ruleset", args.ruleset, "--repo", repo, "--base", base,
               "--head", head, "--format", "json=" + out, "--fail-on", "never", "--filter", args.filter]
        if not args.no_message:
            title, body = commit_message(repo, head)
            cmd += ["--title", title, "--body", body]
        t0 = time.time()
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
        except subprocess.TimeoutExpired:
            return [], "timeout after %ss" % args.timeout, time.time() - t0
        dt = time.time() - t0
        if not os.path.exists(out):
            return [], "exit %d: %s" % (p.returncode, (p.stderr or p.stdout).strip()[:300]), dt
        with open(out) as fh:
            try:
                doc = json.load(fh)
            except json.JSONDecodeError as e:
                return [], "bad json: %s" % e, dt
        fs = doc.get("findings", []) if isinstance(doc, dict) else doc
        err = None
        if p.returncode not in (0, 1):
            err = "exit %d: %s" % (p.returncode, p.stderr.strip()[:300])
        diags = doc.get("diagnostics", []) if isinstance(doc, dict) else []
        if diags:  # e.g. a rule stopped by its time budget: its findings are lost
            err = "; ".join(([err] if err else []) + [str(d) for d in diags])
        return fs, err, dt


def fid(f):
    return f.get("rule_id") or f.get("rule") or ""


def read_tsv(path):
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh, delimiter="\t"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runner", default=os.path.join(ROOT, "build-rules", "runner"))
    ap.add_argument("--ruleset", default=os.path.join(ROOT, "rulesets", "atom.rules"))
    ap.add_argument("--atom", default="/work/atom")
    ap.add_argument("--aiter", default="/work/aiter")
    ap.add_argument("--cases", default="/work/shared/eval/dev-cases.tsv")
    ap.add_argument("--noise", default="/work/shared/eval/noise-dev.tsv")
    ap.add_argument("--report", default=None, help="also write the report to this file")
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--only", default=None, help="comma-separated case ids (skips noise)")
    ap.add_argument("--skip-noise", action="store_true")
    ap.add_argument("--skip-cases", action="store_true", help="only the noise list")
    ap.add_argument("--noise-shas", default=None,
                    help="comma-separated sha prefixes: run only these noise commits")
    ap.add_argument("--filter", default="added",
                    help="runner --filter for every run (default added, what users get: findings on added "
                         "lines and findings the change touches)")
    ap.add_argument("--dump", default=None,
                    help="directory: write every run's findings as NAME.json (case id or noise sha)")
    ap.add_argument("--no-message", action="store_true",
                    help="do not pass the head commit's subject/body as --title/--body")
    args = ap.parse_args()
    if not os.access(args.runner, os.X_OK):
        print("runner not found: %s" % args.runner, file=sys.stderr)
        return 2

    out = []
    emit = out.append
    emit("# atom.rules on real pull requests\n")
    emit("Generated by `eval/run_eval.py` (runner `%s`, ruleset `%s`, `--filter %s`; %s).\n" %
         (os.path.relpath(args.runner, ROOT), os.path.relpath(args.ruleset, ROOT), args.filter,
          "no pull-request text" if args.no_message else
          "the head commit's subject and body are passed as `--title` and `--body`"))

    # ---- dev cases --------------------------------------------------------------------------
    cases = [c for c in read_tsv(args.cases)
             if c["checklist"] == "atom" or (c["checklist"] == "aiter" and c["rule"] in SHARED_RULES)]
    if args.only:
        keep = set(args.only.split(","))
        cases = [c for c in cases if c["id"] in keep]
    if args.skip_cases:
        cases = []
    cache = {}
    per_rule = collections.OrderedDict()
    rows = []
    for c in cases:
        key = (c["repo"], c["base_sha"], c["head_sha"])
        if key not in cache:
            cache[key] = run_runner(args, repo_dir(c["repo"], args), c["base_sha"], c["head_sha"], c["id"])
        fs, err, dt = cache[key]
        ids = RULE_ALIASES.get(c["rule"], {c["rule"]})
        line = int(c["line"])
        near = [f for f in fs if fid(f) in ids and f.get("file") == c["path"]
                and abs(int(f.get("line") or 0) - line) <= WINDOW]
        same_rule = [f for f in fs if fid(f) in ids]
        st = per_rule.setdefault(c["rule"], {"pos": 0, "found": 0, "neg": 0, "fired": 0})
        if c["polarity"] == "positive":
            st["pos"] += 1
            ok = bool(near)
            st["found"] += ok
        else:
            st["neg"] += 1
            ok = not near
            st["fired"] += (not ok)
        where = ", ".join("%s:%s" % (f.get("file"), f.get("line")) for f in same_rule[:3])
        rows.append((c["id"], c["rule"], c["polarity"], "ok" if ok else "MISS" if c["polarity"] == "positive" else "FIRED",
                     "%s:%s" % (c["path"], c["line"]), where or "-", err or "", "%.1fs" % dt))
        print("%s %s %s %s" % (c["id"], c["rule"], c["polarity"], rows[-1][3]), file=sys.stderr)

    emit("## Dev cases (%d judged by atom.rules)\n" % len(cases))
    emit("| rule | positives found / expected | negatives wrongly fired |")
    emit("|---|---|---|")
    tp = te = nf = nn = 0
    for r, st in per_rule.items():
        emit("| %s | %d / %d | %d / %d |" % (r, st["found"], st["pos"], st["fired"], st["neg"]))
        tp += st["found"]; te += st["pos"]; nf += st["fired"]; nn += st["neg"]
    emit("| **all** | **%d / %d** | **%d / %d** |\n" % (tp, te, nf, nn))
    emit("| case | rule | polarity | result | expected at | findings of that rule (first 3) | runner error | time |")
    emit("|---|---|---|---|---|---|---|---|")
    for row in rows:
        emit("| " + " | ".join(x.replace("|", "\\|") for x in row) + " |")
    emit("")

    # ---- noise ------------------------------------------------------------------------------
    if not args.only and not args.skip_noise:
        noise = [n for n in read_tsv(args.noise) if n["repo"] == "ROCm/ATOM"]
        if args.noise_shas:
            pre = args.noise_shas.split(",")
            noise = [n for n in noise if any(n["sha"].startswith(p) for p in pre)]
        counts = []
        blocks = []
        by_rule = collections.Counter()
        errors = []
        secs = []
        for n in noise:
            fs, err, dt = run_runner(args, args.atom, n["parent"], n["sha"], "noise-" + n["sha"][:10])
            secs.append(dt)
            if err:
                errors.append((n["sha"][:10], err))
            sev = collections.Counter(f.get("severity") for f in fs if not f.get("suppressed"))
            counts.append((n["sha"][:10], sev.get("block", 0), sev.get("warn", 0), sev.get("note", 0), n["subject"][:60]))
            for f in fs:
                if f.get("severity") in ("block", "warn"):
                    by_rule[(fid(f), f.get("severity"))] += 1
                if f.get("severity") == "block":
                    blocks.append((n["sha"][:10], fid(f), "%s:%s" % (f.get("file"), f.get("line")),
                                   (f.get("problem") or "")[:160]))
            print("noise %s b=%d w=%d n=%d %.1fs" % (n["sha"][:10], sev.get("block", 0), sev.get("warn", 0),
                                                   sev.get("note", 0), dt), file=sys.stderr)
        wb = [b + w for _, b, w, _, _ in counts]
        emit("## Noise: %d ordinary ATOM commits, each against its parent\n" % len(noise))
        if wb:
            emit("- median warn+block findings per commit: **%s** (mean %.2f, max %d)" %
                 (statistics.median(wb), statistics.mean(wb), max(wb)))
            emit("- commits with no warn/block finding: %d of %d" % (sum(1 for x in wb if x == 0), len(wb)))
            for i, name in ((1, "block"), (2, "warn"), (3, "note")):
                xs = [c[i] for c in counts]
                emit("- %s per commit: median %s, mean %.2f, max %d, total %d" %
                     (name, statistics.median(xs), statistics.mean(xs), max(xs), sum(xs)))
            emit("- seconds per commit: median %.1f, mean %.1f, max %.1f" %
                 (statistics.median(secs), statistics.mean(secs), max(secs)))
            emit("- totals: block %d, warn %d, note %d\n" % (sum(c[1] for c in counts), sum(c[2] for c in counts),
                                                             sum(c[3] for c in counts)))
        emit("### warn/block findings by rule\n")
        emit("| rule | severity | findings |")
        emit("|---|---|---|")
        for (r, s), k in by_rule.most_common():
            emit("| %s | %s | %d |" % (r, s, k))
        emit("\n### Every block finding\n")
        if not blocks:
            emit("none\n")
        else:
            emit("| commit | rule | location | problem |")
            emit("|---|---|---|---|")
            for b in blocks:
                emit("| " + " | ".join(x.replace("|", "\\|") for x in b) + " |")
            emit("")
        emit("### Per commit\n")
        emit("| commit | block | warn | note | subject |")
        emit("|---|---|---|---|---|")
        for c in counts:
            emit("| %s | %d | %d | %d | %s |" % (c[0], c[1], c[2], c[3], c[4].replace("|", "\\|")))
        if errors:
            emit("\n### Runner errors\n")
            for sha, e in errors:
                emit("- %s: %s" % (sha, e.replace("\n", " ")))
        emit("")

    text = "\n".join(out)
    print(text)
    if args.report:
        with open(args.report, "w") as fh:
            fh.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
