#!/usr/bin/env bash
# Validates the interchange formats against their consumers' contracts:
#   rdjson      -- our own strict draft-04 schema of reviewdog's Diagnostic Format (tests/fixtures/report/rdjson.schema.json);
#   codeclimate -- GitLab code quality's required fields (description, check_name, fingerprint
#                  unique per report, severity in info|minor|major|critical|blocker, location.path,
#                  location.lines.begin >= 1).
# Checks the golden files and the runner's own output for the bundled example pull request, and
# that the validator rejects a broken document (so a pass means something).
#   tests/report/interchange_formats.sh RUNNER
# Exits 0 when all pass, 1 otherwise, 77 (skipped) when no python3 with jsonschema is found.
set -euo pipefail
runner=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
py=""
for p in /usr/bin/python3 python3; do
  if command -v "$p" >/dev/null && "$p" -c 'import jsonschema' 2>/dev/null; then py=$p; break; fi
done
[ -n "$py" ] || { echo "skipped: no python3 with jsonschema (apt-get install python3-jsonschema)"; exit 77; }
env -u GITHUB_ACTIONS "$runner" --ruleset atom --base-dir "$src/examples/pr/base" --head-dir "$src/examples/pr/head" \
  --pr "$src/examples/pr/pr.json" --fail-on never --format "rdjson=$tmp/demo.rdjson" \
  --format "codeclimate=$tmp/demo.codeclimate.json" >/dev/null
printf '%s' '{"diagnostics": [{"message": "m", "severity": "FATAL", "location": {"path": 3}}]}' > "$tmp/broken.rdjson"
printf '%s' '[{"description": "d", "check_name": "X", "fingerprint": "f", "severity": "high", "location": {"path": "a"}}]' > "$tmp/broken.codeclimate.json"
"$py" - "$src/tests/fixtures/report/rdjson.schema.json" \
  "$src/tests/fixtures/report/findings.rdjson" "$tmp/demo.rdjson" "$tmp/broken.rdjson" \
  "$src/tests/fixtures/report/findings.codeclimate.json" "$tmp/demo.codeclimate.json" "$tmp/broken.codeclimate.json" <<'PY'
import json, sys
import jsonschema

schema = json.load(open(sys.argv[1], encoding="utf-8"))
validator = jsonschema.Draft4Validator(schema)
passed = failed = 0

def result(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what)

def rdjson_errors(path):
    doc = json.load(open(path, encoding="utf-8"))
    errs = [e.message for e in validator.iter_errors(doc)]
    # The schema marks nothing required; reviewdog needs a message on every diagnostic.
    for i, d in enumerate(doc.get("diagnostics", []) if isinstance(doc, dict) else []):
        if not isinstance(d.get("message"), str) or not d["message"]:
            errs.append("diagnostic %d has no message" % i)
    return doc, errs

def codeclimate_errors(path):
    doc = json.load(open(path, encoding="utf-8"))
    errs, seen = [], set()
    if not isinstance(doc, list):
        return doc, ["not a JSON array"]
    for i, issue in enumerate(doc):
        for key in ("description", "check_name", "fingerprint", "severity"):
            if not isinstance(issue.get(key), str) or not issue[key]:
                errs.append("issue %d: %s is missing or not a string" % (i, key))
        if issue.get("severity") not in ("info", "minor", "major", "critical", "blocker"):
            errs.append("issue %d: severity %r" % (i, issue.get("severity")))
        loc = issue.get("location") or {}
        if not isinstance(loc.get("path"), str) or not loc["path"]:
            errs.append("issue %d: location.path" % i)
        begin = (loc.get("lines") or {}).get("begin")
        if not isinstance(begin, int) or begin < 1:
            errs.append("issue %d: location.lines.begin %r" % (i, begin))
        if issue.get("fingerprint") in seen:
            errs.append("issue %d: fingerprint %s repeats" % (i, issue.get("fingerprint")))
        seen.add(issue.get("fingerprint"))
    return doc, errs

golden, errs = rdjson_errors(sys.argv[2])
result(not errs, "golden rdjson: %s" % errs)
result(len(golden["diagnostics"]) > 0, "golden rdjson has no diagnostic")
demo, errs = rdjson_errors(sys.argv[3])
result(not errs, "runner rdjson: %s" % errs)
result(len(demo["diagnostics"]) > 0, "runner rdjson for the example PR has no diagnostic")
_, errs = rdjson_errors(sys.argv[4])
result(len(errs) >= 2, "the schema accepted a broken rdjson document")
golden, errs = codeclimate_errors(sys.argv[5])
result(not errs and len(golden) > 0, "golden codeclimate: %s" % errs)
demo, errs = codeclimate_errors(sys.argv[6])
result(not errs and len(demo) > 0, "runner codeclimate: %s" % errs)
_, errs = codeclimate_errors(sys.argv[7])
result(len(errs) >= 2, "the codeclimate check accepted a broken document")
print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
PY
