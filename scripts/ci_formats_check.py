#!/usr/bin/env python3
"""Check pgnkit's CI formats with the tools that read them.

    python3 scripts/ci_formats_check.py PGNKIT FILE...

Runs `PGNKIT check --format sarif|junit|gitlab|json` on the FILEs and
checks:
- SARIF validates against the official SARIF 2.1.0 schema
  (testdata/ci/sarif-schema-2.1.0.json, with `jsonschema`), and has one
  result per JSON diagnostic;
- JUnit is read by `junitparser` (the reader many CI tools' plugins use)
  with one test case per file, the files with errors failed, the unreadable
  ones in error;
- GitLab Code Quality issues carry the fields GitLab documents
  (description, check_name, fingerprint, severity, location.path and
  location.positions.begin.line), with unique fingerprints.
Exits 1 on any disagreement. Needs `pip install jsonschema junitparser`.
"""
import json
import pathlib
import subprocess
import sys

import jsonschema
import junitparser

ROOT = pathlib.Path(__file__).resolve().parent.parent
SCHEMA = ROOT / "testdata" / "ci" / "sarif-schema-2.1.0.json"
GITLAB_SEVERITIES = {"info", "minor", "major", "critical", "blocker"}


def run(pgnkit, fmt, files):
    out = subprocess.run(
        [pgnkit, "check", "-q", "--format", fmt, *files],
        capture_output=True,
        check=False,
    )
    if out.returncode not in (0, 1, 2):
        sys.exit(f"pgnkit check --format {fmt} exited {out.returncode}: {out.stderr!r}")
    return out.stdout


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    pgnkit, files = sys.argv[1], sys.argv[2:]
    failures = []

    diagnostics = [
        json.loads(line)
        for line in run(pgnkit, "json", files).decode().splitlines()
        if line.strip()
    ]
    diagnostics = [d for d in diagnostics if d["type"] == "diagnostic"]
    errors_by_file = {}
    for d in diagnostics:
        if d["severity"] == "error":
            errors_by_file[d["file"]] = errors_by_file.get(d["file"], 0) + 1

    # SARIF against the official schema.
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    sarif = json.loads(run(pgnkit, "sarif", files))
    validator = jsonschema.validators.validator_for(schema)(schema)
    problems = sorted(validator.iter_errors(sarif), key=lambda e: list(e.path))
    for e in problems[:10]:
        failures.append(f"SARIF: {'/'.join(map(str, e.path))}: {e.message}")
    results = sarif["runs"][0]["results"]
    if len(results) != len(diagnostics):
        failures.append(f"SARIF: {len(results)} results for {len(diagnostics)} diagnostics")
    print(f"SARIF: {len(results)} results, {len(problems)} schema errors")

    # JUnit through junitparser.
    junit_path = pathlib.Path("/tmp") / f"pgnkit-junit-{subprocess.os.getpid()}.xml"
    junit_path.write_bytes(run(pgnkit, "junit", files))
    xml = junitparser.JUnitXml.fromfile(str(junit_path))
    junit_path.unlink()
    suites = list(xml) if isinstance(xml, junitparser.JUnitXml) else [xml]
    cases = [c for s in suites for c in s]
    failed = {c.name for c in cases if any(isinstance(r, junitparser.Failure) for r in c.result)}
    in_error = {c.name for c in cases if any(isinstance(r, junitparser.Error) for r in c.result)}
    readable = [f for f in files if pathlib.Path(f).is_file()]
    if len(cases) != len(files):
        failures.append(f"JUnit: {len(cases)} test cases for {len(files)} files")
    if failed != set(errors_by_file):
        failures.append(f"JUnit: failed {sorted(failed)} but errors in {sorted(errors_by_file)}")
    if len(in_error) != len(files) - len(readable):
        failures.append(f"JUnit: {len(in_error)} in error for {len(files) - len(readable)} unreadable")
    suite = suites[0]
    if (suite.tests, suite.failures, suite.errors) != (len(cases), len(failed), len(in_error)):
        failures.append(
            f"JUnit: suite counts {(suite.tests, suite.failures, suite.errors)} "
            f"!= {(len(cases), len(failed), len(in_error))}"
        )
    print(f"JUnit: {len(cases)} test cases, {len(failed)} failed, {len(in_error)} in error")

    # GitLab Code Quality fields.
    issues = json.loads(run(pgnkit, "gitlab", files))
    prints = set()
    for i in issues:
        for key in ("description", "check_name", "fingerprint", "severity"):
            if not isinstance(i.get(key), str) or not i[key]:
                failures.append(f"GitLab: issue without {key}: {i}")
        if i.get("severity") not in GITLAB_SEVERITIES:
            failures.append(f"GitLab: severity {i.get('severity')!r}")
        loc = i.get("location", {})
        begin = loc.get("positions", {}).get("begin", {})
        if not loc.get("path") or not isinstance(begin.get("line"), int):
            failures.append(f"GitLab: issue without location.path/positions.begin.line: {i}")
        prints.add(i.get("fingerprint"))
    if len(prints) != len(issues):
        failures.append(f"GitLab: {len(issues) - len(prints)} repeated fingerprints")
    if len(issues) != len(diagnostics):
        failures.append(f"GitLab: {len(issues)} issues for {len(diagnostics)} diagnostics")
    print(f"GitLab: {len(issues)} issues, {len(prints)} fingerprints")

    for f in failures[:40]:
        print("FAIL:", f)
    print("ci formats:", "FAILED" if failures else "ok")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
