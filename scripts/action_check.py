#!/usr/bin/env python3
"""Run the steps of action.yml (the composite GitHub Action) the way a
GitHub runner runs them, on real games, and check what they do.

    python3 scripts/action_check.py PGNKIT

PGNKIT is a built pgnkit binary. Each `run:` step is run with bash as the
runner runs it (`bash --noprofile --norc -eo pipefail`), with the runner's
files and variables (GITHUB_OUTPUT, GITHUB_PATH, GITHUB_STEP_SUMMARY,
RUNNER_TEMP, RUNNER_OS, RUNNER_ARCH) and `${{ inputs.* }}`,
`${{ github.action_path }}` and `${{ runner.temp }}` put in. The `uses:` step
(actions/cache) is not run: PGNKIT is put where the cache restores pgnkit,
so the install step finds it there (a cache hit; the build on a miss is
`cargo install --locked --path`, what pre-commit's hook test measures).

Checked: the cache key names pgnkit's sources; the install step puts pgnkit
on the PATH; with the defaults (every PGN file of the checkout, `--format
github`) a record with an illegal move gives its annotation, a job summary
and exit status 1, also in the `exit-code` output; `format: sarif` with
`output:` writes a SARIF 2.1.0 document; `args:` reaches pgnkit (`--glob=*.txt`
unquoted); clean games give 0. Needs PyYAML (pre-commit brings it).
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent


def fail(message):
    print(f"action_check: FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def expand(text, inputs, temp):
    """Puts the expressions the action uses in a step's text."""

    def value(m):
        expr = m.group(1).strip()
        if expr.startswith("inputs."):
            return inputs[expr[len("inputs."):]]
        if expr == "github.action_path":
            return str(ROOT)
        if expr == "runner.temp":
            return str(temp)
        fail(f"unexpected expression ${{{{ {expr} }}}} in a run step")
        return ""

    return re.sub(r"\$\{\{(.*?)\}\}", value, text)


def outputs(path):
    """The name=value lines of a GITHUB_OUTPUT file."""
    return dict(line.split("=", 1) for line in path.read_text().splitlines() if "=" in line)


def run_action(action, pgnkit, workspace, given):
    """Runs every step; returns (exit status of the last step run, its
    stdout, the outputs of the check step, the job summary)."""
    temp = Path(tempfile.mkdtemp(prefix="runner-temp-"))
    # Where actions/cache restores pgnkit on a hit.
    (temp / "pgnkit" / "bin").mkdir(parents=True)
    shutil.copy(pgnkit, temp / "pgnkit" / "bin" / "pgnkit")
    path_file = temp / "github_path"
    summary = temp / "step_summary"
    path_file.write_text("")
    summary.write_text("")
    inputs = {name: spec.get("default", "") for name, spec in action["inputs"].items()}
    for name in given:
        if name not in inputs:
            fail(f"action.yml has no input `{name}`")
    inputs.update(given)
    status, stdout, step_outputs = 0, "", {}
    for step in action["runs"]["steps"]:
        if "uses" in step:
            if not step["uses"].startswith("actions/cache@"):
                fail(f"unexpected step {step['uses']}")
            continue
        if step.get("shell") != "bash":
            fail(f"step `{step.get('name')}` must run with shell: bash")
        out_file = temp / f"output-{step.get('id', 'step')}"
        out_file.write_text("")
        env = {k: v for k, v in os.environ.items() if not k.startswith("GITHUB_")}
        extra = [line for line in path_file.read_text().splitlines() if line]
        env["PATH"] = os.pathsep.join([*reversed(extra), env.get("PATH", "")])
        env.update(
            GITHUB_OUTPUT=str(out_file),
            GITHUB_PATH=str(path_file),
            GITHUB_STEP_SUMMARY=str(summary),
            GITHUB_WORKSPACE=str(workspace),
            RUNNER_TEMP=str(temp),
            RUNNER_OS="Linux",
            RUNNER_ARCH="X64",
            CI="true",
        )
        for k, v in step.get("env", {}).items():
            env[k] = expand(str(v), inputs, temp)
        proc = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", expand(step["run"], inputs, temp)],
            cwd=workspace,
            env=env,
            capture_output=True,
            text=True,
        )
        status, stdout = proc.returncode, proc.stdout
        if step.get("id") == "key":
            key = outputs(out_file).get("key", "")
            if not re.fullmatch(r"pgnkit-Linux-X64-[0-9a-f]{16}", key):
                fail(f"cache key {key!r}")
        if step.get("name") == "Install pgnkit":
            if proc.returncode != 0:
                fail(f"install step: {proc.stderr}")
            if str(temp / "pgnkit" / "bin") not in path_file.read_text():
                fail("the install step does not put pgnkit on the PATH")
        if step.get("id") == "check":
            step_outputs = outputs(out_file)
        elif proc.returncode != 0:
            fail(f"step `{step.get('name')}` failed: {proc.stderr}")
    job_summary = summary.read_text()
    shutil.rmtree(temp)
    return status, stdout, step_outputs, job_summary


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    pgnkit = Path(sys.argv[1]).resolve()
    action = yaml.safe_load((ROOT / "action.yml").read_text())
    if action["runs"]["using"] != "composite":
        fail("action.yml is not a composite action")
    data = ROOT / "testdata"
    with tempfile.TemporaryDirectory(prefix="workspace-") as ws:
        ws = Path(ws)
        (ws / "games" / "2013").mkdir(parents=True)
        shutil.copy(data / "check" / "languages.pgn", ws / "games" / "languages.pgn")
        shutil.copy(data / "check" / "chess960.pgn", ws / "games" / "2013" / "chess960.pgn")
        shutil.copy(data / "check" / "missing-move.pgn", ws / "games" / "notes.txt")

        status, stdout, out, summary = run_action(action, pgnkit, ws, {})
        if status != 1 or out.get("exit-code") != "1":
            fail(f"defaults: exit {status}, outputs {out}\n{stdout}")
        if "::error file=games/languages.pgn,line=34," not in stdout:
            fail(f"defaults: no annotation of the illegal move:\n{stdout}")
        if "illegal-move" not in summary:
            fail(f"defaults: no job summary:\n{summary}")

        status, stdout, out, _ = run_action(
            action, pgnkit, ws, {"files": "games", "format": "sarif", "output": "pgnkit.sarif"}
        )
        sarif = json.loads((ws / "pgnkit.sarif").read_text())
        results = sarif["runs"][0]["results"]
        if status != 1 or sarif["version"] != "2.1.0" or not any(
            r["ruleId"] == "illegal-move" for r in results
        ):
            fail(f"sarif: exit {status}, {len(results)} results")

        status, stdout, out, _ = run_action(
            action, pgnkit, ws, {"files": "games", "format": "json", "args": "--glob=*.txt --strict"}
        )
        records = [json.loads(line) for line in stdout.splitlines() if line.strip()]
        files = {r.get("file") for r in records if r.get("type") == "diagnostic"}
        if status != 1 or files != {"games/notes.txt"}:
            fail(f"args: exit {status}, diagnostics in {files}")

        status, stdout, out, _ = run_action(action, pgnkit, ws, {"files": "games/2013"})
        if status != 0 or out.get("exit-code") != "0":
            fail(f"clean games: exit {status}:\n{stdout}")
    print("action_check: ok (4 runs of action.yml's steps)")


if __name__ == "__main__":
    main()
