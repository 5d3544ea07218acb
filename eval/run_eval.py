#!/usr/bin/env python3
"""Run the atom ruleset (rulesets/atom/) on the real ATOM/aiter pull requests of the shared evaluation set.

Inputs (read-only, outside this repository):
  dev-cases.tsv   columns id repo base_sha head_sha rule checklist polarity path line source description
  noise-dev.tsv   columns repo sha parent date files added removed subject
  full clones of ROCm/ATOM and ROCm/aiter (`git clone --shared --no-checkout BARE DIR`).

For every dev case judged by the atom ruleset (checklist `atom`, plus `aiter` rows whose rule id means
the same in both checklists: D1 D1b D4 D6 D7 D8 D9 G1 HK1) the runner is invoked as
  runner --ruleset RULES --repo DIR --base BASE --head HEAD --format json=OUT --fail-on never
and the case passes when a finding of the case's rule (see RULE_ALIASES) lands within +-3 lines of
path:line (positive) or when none does (negative). Every ATOM noise commit is run against its
parent and its findings are counted by severity.

Also the mined cases of eval/mined-cases.tsv (eval/mine_cases.py, any repository under --repos):
the tuning half always, the frozen half only with --frozen. Every case set is measured twice,
with the default filter and with --filter all. Noise: the ATOM and aiter rows of noise-dev.tsv and
the newest 100 commits of a third repository (--other-noise), counted back from a fixed commit.

Output: a Markdown report on stdout (and in --report FILE): per rule, positives found/expected and
negatives wrongly fired; for noise, warn+block per commit (median, mean, p95) and every block finding.
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
# Case rule id (checklist numbering) -> rule ids of the atom ruleset that report it.
# B5 is split into B5a..B5e in the catalogue, and a call that no longer matches its callee is the
# B5/E2 family (E2 when the caller is a plugin bridge); B6's cited ATOM evidence (ATOM#1548, a
# getattr key with a silent default) is the B5c pattern, so both ids count for a B6 case. The
# former sub-rules (B5f, B5g, B5h, C1b, C1c, D1c, D1d, D4d, E1a) are `also` bodies of their
# parent since session 5 and report the parent's id.
RULE_ALIASES = {
    "B5": {"B5a", "B5b", "B5c", "B5d", "B5e", "E2"},
    "B6": {"B6", "B5c"},
    "E2": {"E2", "B5b", "B5e"},
}
WINDOW = 3


# Where each repository's clone lives, under --repos (defaults to the names used on this machine).
REPO_DIRS = {"ROCm/ATOM": "ATOM", "ROCm/aiter": "aiter", "huggingface/text-generation-inference": "tgi",
             "ModelTC/lightllm": "lightllm", "microsoft/DeepSpeed": "deepspeed",
             "flashinfer-ai/flashinfer": "flashinfer", "pytorch/ao": "torchao",
             "mlc-ai/mlc-llm": "mlcllm", "linkedin/Liger-Kernel": "liger", "NVIDIA/Megatron-LM": "megatron"}


def repo_dir(repo, args):
    if repo == "ROCm/ATOM" and args.atom:
        return args.atom
    if repo == "ROCm/aiter" and args.aiter:
        return args.aiter
    return os.path.join(args.repos, REPO_DIRS.get(repo, repo.split("/")[-1]))


def commit_message(repo, sha):
    """(subject, body) of commit `sha` in `repo`, used as the pull request's title and body."""
    p = subprocess.run(["git", "-C", repo, "log", "-1", "--format=%s%x00%b", sha], capture_output=True, text=True)
    subject, _, body = p.stdout.partition("\0")
    return subject.strip(), body.strip()


def run_runner(args, repo, base, head, name=None, filt=None):
    """Returns (findings list, error text or None, seconds). With --dump, also writes the findings
    to DUMP/NAME.json."""
    if args.dump and name and (args.reuse_dump or args.dump_only):
        path = os.path.join(args.dump, name + ".json")
        if os.path.exists(path):
            with open(path) as fh:
                doc = json.load(fh)
            if not (doc.get("error") or "").startswith("exit 2"):  # a run that did not load is redone
                return doc["findings"], doc["error"], doc["seconds"]
    if args.dump_only:
        return None, "not measured", 0.0
    fs, err, dt = _run_runner(args, repo, base, head, filt or args.filter)
    if args.dump and name:
        os.makedirs(args.dump, exist_ok=True)
        with open(os.path.join(args.dump, name + ".json"), "w") as fh:
            json.dump({"findings": fs, "error": err, "seconds": dt}, fh, indent=1)
    return fs, err, dt


def _run_runner(args, repo, base, head, filt):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.json")
        cmd = [args.runner, "--ruleset", args.ruleset, "--repo", repo, "--base", base,
               "--head", head, "--format", "json=" + out, "--fail-on", "never", "--filter", filt]
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


def judge(cases, args, filt, tag):
    """Runs every case's change once under --filter filt. Returns (per-rule stats, rows, seconds)."""
    cache = {}
    per_rule = collections.OrderedDict()
    rows = []
    secs = []
    for c in cases:
        key = (c["repo"], c["base_sha"], c["head_sha"])
        if key not in cache:
            cache[key] = run_runner(args, repo_dir(c["repo"], args), c["base_sha"], c["head_sha"],
                                    "%s-%s-%s" % (tag, filt, c["id"]), filt)
            if cache[key][0] is not None:
                secs.append(cache[key][2])
        fs, err, dt = cache[key]
        if fs is None:  # --dump-only and never measured: left out of every count
            st = per_rule.setdefault(c["rule"], {"pos": 0, "found": 0, "neg": 0, "fired": 0})
            st.setdefault("unmeasured", 0)
            st["unmeasured"] = st.get("unmeasured", 0) + 1
            continue
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
        print("%s %s %s %s %s" % (filt, c["id"], c["rule"], c["polarity"], rows[-1][3]), file=sys.stderr)
    return per_rule, rows, secs


def emit_cases(emit, title, cases, args):
    """Two tables (default filter and --filter all) and the case rows of the default run."""
    emit("## %s (%d cases: %d positive, %d negative)\n" % (
        title, len(cases), sum(c["polarity"] == "positive" for c in cases),
        sum(c["polarity"] == "negative" for c in cases)))
    if not cases:
        emit("none\n")
        return {}
    results = {}
    for filt in (args.filter, "all"):
        if filt in results:  # --filter all: the default measurement is the `all` one
            continue
        if filt == "all" and args.default_filter_only and args.filter != "all":
            # not measured: same shape, every run counted as left out
            results["all"] = ({r: dict(found=0, pos=st["pos"], fired=0, neg=st["neg"], unmeasured=0)
                               for r, st in results[args.filter][0].items()}, [], [])
            continue
        results[filt] = judge(cases, args, filt, title.split()[0].lower())
    emit("| rule | found (`--filter %s`) | found (`--filter all`) | negatives fired (%s) | negatives fired (all) |"
         % (args.filter, args.filter))
    emit("|---|---|---|---|---|")
    tot = collections.Counter()
    d, a = results[args.filter][0], results["all"][0]
    for r in d:
        x, y = d[r], a[r]
        if args.default_filter_only:
            emit("| %s | %d / %d | not measured | %d / %d | not measured |" % (r, x["found"], x["pos"], x["fired"], x["neg"]))
        else:
            emit("| %s | %d / %d | %d / %d | %d / %d | %d / %d |" % (r, x["found"], x["pos"], y["found"], y["pos"],
                                                                  x["fired"], x["neg"], y["fired"], y["neg"]))
        for k in ("found", "pos", "fired", "neg"):
            tot["d" + k] += x[k]
            tot["a" + k] += y[k]
    pct = lambda n, m: "%.0f%%" % (100.0 * n / m) if m else "-"
    unm = sum(st.get("unmeasured", 0) for st in d.values()) + sum(st.get("unmeasured", 0) for st in a.values())
    if unm:
        emit("| (not measured before the deadline) | %d case runs left out of both columns |  |  |  |" % unm)
    if args.default_filter_only:
        emit("| **all** | **%d / %d (%s)** | not measured | **%d / %d** | not measured |\n" % (
            tot["dfound"], tot["dpos"], pct(tot["dfound"], tot["dpos"]), tot["dfired"], tot["dneg"]))
    else:
        emit("| **all** | **%d / %d (%s)** | **%d / %d (%s)** | **%d / %d** | **%d / %d** |\n" % (
            tot["dfound"], tot["dpos"], pct(tot["dfound"], tot["dpos"]), tot["afound"], tot["apos"],
            pct(tot["afound"], tot["apos"]), tot["dfired"], tot["dneg"], tot["afired"], tot["aneg"]))
    secs = results[args.filter][2]
    if secs:
        emit("Seconds per change (`--filter %s`): median %.1f, mean %.1f, max %.1f over %d runs.\n" % (
            args.filter, statistics.median(secs), statistics.mean(secs), max(secs), len(secs)))
    emit("<details><summary>cases</summary>\n")
    emit("| case | rule | polarity | default | all | expected at | findings of that rule (first 3, default) | runner error | time |")
    emit("|---|---|---|---|---|---|---|---|---|")
    other = {r[0]: r for r in results["all"][1]}
    for r1 in results[args.filter][1]:
        r2 = other.get(r1[0], (None,) * 4 + ("not measured",))
        row = r1[:3] + (r1[3], r2[3] or "not measured") + r1[4:]
        emit("| " + " | ".join(x.replace("|", "\\|") for x in row) + " |")
    emit("\n</details>\n")
    return results


def noise_list(args, repo, count, noise_file):
    """[(parent, sha, subject)] of the noise file's rows for repo, or of the newest `count`
    single-parent commits of repo's clone (first parent of HEAD) when the file has none."""
    rows = [(n["parent"], n["sha"], n["subject"]) for n in read_tsv(noise_file) if n["repo"] == repo]
    if rows:
        return rows
    out = subprocess.run(["git", "-C", repo_dir(repo, args), "log", "--no-merges", "--first-parent", "-n",
                          str(count), "--format=%P%x09%H%x09%s", args.other_noise_head or "HEAD"],
                         capture_output=True, text=True).stdout
    res = []
    for l in out.splitlines():
        p, h, subj = l.split("\t", 2)
        if len(p.split()) == 1:
            res.append((p, h, subj))
    return res


NOISE_FINDINGS = []  # (repo, sha, finding) of every warn/block on the noise lists, for the hand read


def finding_key(repo, sha, f):
    return (repo, sha[:10], fid(f), f.get("file") or "", str(f.get("line") or 0))


def emit_noise(emit, args, repo, commits):
    counts, blocks, errors, secs, unmeasured = [], [], [], [], []
    by_rule = collections.Counter()
    for parent, sha, subject in commits:
        fs, err, dt = run_runner(args, repo_dir(repo, args), parent, sha, "noise-" + sha[:10])
        if fs is None:  # --dump-only and never measured
            unmeasured.append(sha[:10])
            continue
        secs.append(dt)
        if err:
            errors.append((sha[:10], err))
        sev = collections.Counter(f.get("severity") for f in fs if not f.get("suppressed"))
        counts.append((sha[:10], sev.get("block", 0), sev.get("warn", 0), sev.get("note", 0), subject[:60]))
        for f in fs:
            if f.get("severity") in ("block", "warn") and not f.get("suppressed"):
                NOISE_FINDINGS.append((repo, sha, f))
            if f.get("severity") in ("block", "warn"):
                by_rule[(fid(f), f.get("severity"))] += 1
            if f.get("severity") == "block":
                blocks.append((sha[:10], fid(f), "%s:%s" % (f.get("file"), f.get("line")), (f.get("problem") or "")[:160]))
        print("noise %s b=%d w=%d n=%d %.1fs" % (sha[:10], sev.get("block", 0), sev.get("warn", 0),
                                               sev.get("note", 0), dt), file=sys.stderr)
    wb = sorted(b + w for _, b, w, _, _ in counts)
    emit("## Noise: %d ordinary %s commits, each against its parent\n" % (len(commits) - len(unmeasured), repo))
    if unmeasured:
        emit("(%d more commits of the list were not measured before the deadline.)\n" % len(unmeasured))
    if wb:
        p95 = wb[min(len(wb) - 1, int(round(0.95 * (len(wb) - 1))))]
        emit("- warn+block per commit: median **%s**, mean %.2f, p95 %d, max %d" %
             (statistics.median(wb), statistics.mean(wb), p95, max(wb)))
        emit("- commits with no warn/block finding: %d of %d" % (sum(1 for x in wb if x == 0), len(wb)))
        emit("- totals: block %d, warn %d, note %d" % (sum(c[1] for c in counts), sum(c[2] for c in counts),
                                                      sum(c[3] for c in counts)))
        emit("- seconds per commit: median %.1f, mean %.1f, max %.1f\n" %
             (statistics.median(secs), statistics.mean(secs), max(secs)))
    emit("| rule | severity | findings |")
    emit("|---|---|---|")
    for (r, s), k in by_rule.most_common():
        emit("| %s | %s | %d |" % (r, s, k))
    emit("\n### Every block finding (%s)\n" % repo)
    if not blocks:
        emit("none\n")
    else:
        emit("| commit | rule | location | problem |")
        emit("|---|---|---|---|")
        for b in blocks:
            emit("| " + " | ".join(x.replace("|", "\\|") for x in b) + " |")
        emit("")
    if errors:
        emit("### Runner errors (%s)\n" % repo)
        for sha, e in errors:
            emit("- %s: %s" % (sha, e.replace("\n", " ")[:300]))
        emit("")
    return wb


def emit_precision(emit, args):
    """Precision by rule from the hand read (eval/hand-read.tsv: repo sha rule path line severity
    verdict note; verdict true, false or unclear). Every block is to be read, and a seeded random
    sample of --warn-sample warns; the findings still unread are listed in --to-read."""
    read = {}
    if os.path.exists(args.hand_read):
        for r in read_tsv(args.hand_read):
            read[(r["repo"], r["sha"][:10], r["rule"], r["path"], r["line"])] = r
    blocks = [x for x in NOISE_FINDINGS if x[2].get("severity") == "block"]
    warns = [x for x in NOISE_FINDINGS if x[2].get("severity") == "warn"]
    import random
    rnd = random.Random(13)
    sample = rnd.sample(warns, min(args.warn_sample, len(warns)))
    todo = [x for x in blocks + sample if finding_key(*x) not in read]
    if args.to_read:
        with open(args.to_read, "w") as fh:
            fh.write("repo\tsha\trule\tpath\tline\tseverity\tverdict\tnote\tproblem\n")
            for repo, sha, f in todo:
                fh.write("\t".join(list(finding_key(repo, sha, f)) + [f.get("severity"), "", "",
                                                                     (f.get("problem") or "").replace("\t", " ")]) + "\n")
    stats = collections.OrderedDict()
    # every block, and every warn that has a verdict (the sample read, whichever seed drew it)
    read_warns = [x for x in warns if finding_key(*x) in read]
    # the sample's warns still unread count as unread (not left out of the table)
    shown_warns = read_warns + [x for x in sample if finding_key(*x) not in read]
    emit("## Precision, read by hand\n")
    emit("Every block finding on the noise lists and a random sample of the warns, each read and judged true, "
         "false or unclear (`eval/hand-read.tsv`; %d warns read of %d measured). Precision = true / (true + false).\n"
         % (len(read_warns), len(warns)))
    for sev, xs in (("block", blocks), ("warn", shown_warns)):
        for x in xs:
            k = finding_key(*x)
            st = stats.setdefault((k[2], sev), collections.Counter())
            v = read.get(k, {}).get("verdict", "unread")
            st[v] += 1
    emit("| rule | severity | read | true | false | unclear | unread | precision |")
    emit("|---|---|---|---|---|---|---|---|")
    tot = {"block": collections.Counter(), "warn": collections.Counter()}
    for (rule, sev), st in sorted(stats.items()):
        n = st["true"] + st["false"]
        emit("| %s | %s | %d | %d | %d | %d | %d | %s |" % (rule, sev, sum(st.values()) - st["unread"], st["true"],
                                                          st["false"], st["unclear"], st["unread"],
                                                          "%.0f%%" % (100.0 * st["true"] / n) if n else "-"))
        tot[sev].update(st)
    for sev in ("block", "warn"):
        st = tot[sev]
        n = st["true"] + st["false"]
        emit("| **all** | %s | %d | %d | %d | %d | %d | %s |" % (sev, sum(st.values()) - st["unread"], st["true"], st["false"],
                                                               st["unclear"], st["unread"],
                                                               "%.0f%%" % (100.0 * st["true"] / n) if n else "-"))
    emit("")
    notes = [(k, r) for k, r in read.items() if r.get("note")]
    if notes:
        emit("<details><summary>verdicts</summary>\n")
        emit("| repo | commit | rule | location | severity | verdict | why |")
        emit("|---|---|---|---|---|---|---|")
        for k, r in sorted(notes):
            emit("| %s | %s | %s | %s:%s | %s | %s | %s |" % (k[0], k[1], k[2], k[3], k[4], r.get("severity"),
                                                          r.get("verdict"), r.get("note", "").replace("|", "\\|")))
        emit("\n</details>\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runner", default=os.path.join(ROOT, "build", "runner"))
    ap.add_argument("--ruleset", default=os.path.join(ROOT, "rulesets", "atom"))
    ap.add_argument("--repos", default="/work/repos", help="folder holding the clones (see REPO_DIRS)")
    ap.add_argument("--atom", default=None, help="clone of ROCm/ATOM (default REPOS/ATOM)")
    ap.add_argument("--aiter", default=None, help="clone of ROCm/aiter (default REPOS/aiter)")
    ap.add_argument("--cases", default="/work/shared/eval/dev-cases.tsv")
    ap.add_argument("--mined", default=os.path.join(HERE, "mined-cases.tsv"),
                    help="mined cases (eval/mine_cases.py); the tuning half is always measured")
    ap.add_argument("--frozen", action="store_true",
                    help="also measure the frozen half (look once, at the end)")
    ap.add_argument("--noise", default="/work/shared/eval/noise-dev.tsv")
    ap.add_argument("--other-noise", default="ModelTC/lightllm",
                    help="a third repository whose newest 100 commits are measured for noise ('' to skip)")
    ap.add_argument("--other-noise-head", default="fc72ffab9a3455cfb571f22d45ab777cc29de0de",
                    help="the commit the 100 newest commits are counted back from (fixed, so reruns agree)")
    ap.add_argument("--report", default=None, help="also write the report to this file")
    ap.add_argument("--hand-read", default=os.path.join(HERE, "hand-read.tsv"),
                    help="verdicts of the hand read of noise findings (see emit_precision)")
    ap.add_argument("--warn-sample", type=int, default=50, help="warns sampled for the hand read")
    ap.add_argument("--to-read", default=None, help="write the sampled findings that have no verdict yet here")
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--only", default=None, help="comma-separated case ids (skips noise)")
    ap.add_argument("--skip-noise", action="store_true")
    ap.add_argument("--skip-cases", action="store_true", help="only the noise lists")
    ap.add_argument("--skip-dev", action="store_true", help="not the shared dev cases")
    ap.add_argument("--filter", default="added",
                    help="runner --filter of the default measurement (default added, what users get: findings on "
                         "added lines and findings the change touches); every case table also gives --filter all")
    ap.add_argument("--default-filter-only", action="store_true",
                    help="measure the cases with the default filter only (the --filter all columns read 0: not measured)")
    ap.add_argument("--dump", default=None,
                    help="directory: write every run's findings as NAME.json (case id or noise sha)")
    ap.add_argument("--reuse-dump", action="store_true",
                    help="with --dump: take a run's findings from DUMP/NAME.json when it exists (resume an interrupted "
                         "measurement; only valid for the same runner and ruleset)")
    ap.add_argument("--dump-only", action="store_true",
                    help="with --dump: use only the runs already in DUMP, leave the others out (and say so)")
    ap.add_argument("--no-message", action="store_true",
                    help="do not pass the head commit's subject/body as --title/--body")
    args = ap.parse_args()
    if not os.access(args.runner, os.X_OK):
        print("runner not found: %s" % args.runner, file=sys.stderr)
        return 2

    out = []
    emit = out.append
    emit("# atom rules on real pull requests: generated tables\n")
    emit("Generated by `eval/run_eval.py` (ruleset `%s`, default `--filter %s`; %s). A positive is found when a "
         "finding of its rule (or a sub-rule in `RULE_ALIASES`) is within ±%d lines; a negative fires when one is.\n" %
         (os.path.relpath(args.ruleset, ROOT), args.filter,
          "no pull-request text" if args.no_message else
          "the head commit's subject and body are passed as `--title` and `--body`", WINDOW))
    only = set(args.only.split(",")) if args.only else None
    keep = lambda cs: [c for c in cs if only is None or c["id"] in only]
    if not args.skip_cases:
        if not args.skip_dev:
            dev = [c for c in read_tsv(args.cases)
                   if c["checklist"] == "atom" or (c["checklist"] == "aiter" and c["rule"] in SHARED_RULES)]
            emit_cases(emit, "Dev cases", keep(dev), args)
        mined = read_tsv(args.mined) if os.path.exists(args.mined) else []
        emit_cases(emit, "Mined tuning half", keep([c for c in mined if c["half"] == "tuning"]), args)
        if args.frozen:
            emit_cases(emit, "Mined frozen half", keep([c for c in mined if c["half"] == "frozen"]), args)
        else:
            emit("## Mined frozen half\n\nnot measured in this run (pass `--frozen`).\n")
    if not args.only and not args.skip_noise:
        allwb = []
        for repo in ("ROCm/ATOM", "ROCm/aiter"):
            allwb += emit_noise(emit, args, repo, noise_list(args, repo, 100, args.noise))
        if args.other_noise:
            emit_noise(emit, args, args.other_noise, noise_list(args, args.other_noise, 100, args.noise))

    if NOISE_FINDINGS:
        emit_precision(emit, args)
    text = "\n".join(out)
    print(text)
    if args.report:
        with open(args.report, "w") as fh:
            fh.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
