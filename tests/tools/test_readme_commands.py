#!/usr/bin/python3
"""Every command in the folder READMEs (scenarios/README.md, scenarios/*/README.md) runs from the
repository's root as written.

A command is a line of a ```sh block (continued lines joined, comments dropped) or an inline code
span that starts with `build/sim`, `/usr/bin/python3`, `tools/` or a script under `scenarios/`.
For each one:
  - it does not call a bare `sim` (only `build/sim` runs from the root of a checkout): a span
    `sim <subcommand>` (or `build/sim`) alone names it in prose, with anything more it is a command;
  - every path it names under scenarios/, tools/, tests/ or schemas/ exists (paths under
    results/ are what the commands write), and the program it starts is executable;
  - each `build/sim` run, trim, linearize or identify, and each tools/sweep, names a scenario that
    `sim validate` accepts with the command's own --set overrides.
A command with a placeholder (<name>, …, ...) is a template: its paths are checked, nothing is
validated. Fast: one `sim validate` per scenario command.

Usage: /usr/bin/python3 test_readme_commands.py REPO_ROOT SIM_EXECUTABLE
Exits 1 listing each README line whose command fails, 0 otherwise.
"""
import glob
import os
import re
import shlex
import subprocess
import sys

SUBCOMMANDS = {"run", "validate", "describe", "replay", "compare", "identify", "trim", "linearize"}
CHECKED_DIRS = ("scenarios/", "tools/", "tests/", "schemas/")
OUTPUT_OPTIONS = {"-o", "--output", "--png", "--predictions", "--write-part", "--plot"}
SHELL_BLOCKS = {"sh", "bash", "shell", "console"}


def readme_commands(path):
    """(line number, command text, from a shell block) for each command of a README."""
    text = open(path, encoding="utf-8").read()
    lines = text.split("\n")
    found, prose = [], []
    fence, shell, pending, start = False, False, "", 0
    for n, line in enumerate(lines, 1):
        if line.startswith("```"):
            if fence:
                fence = False
            else:
                fence, shell = True, line[3:].strip() in SHELL_BLOCKS
            prose.append("")
            continue
        if not fence:
            prose.append(line)
            continue
        prose.append("")
        if not shell:
            continue
        stripped = line.strip()
        if not pending:
            start = n
        if not pending and (not stripped or stripped.startswith("#")):
            continue
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        found.append((start, pending + stripped, True))
        pending = ""
    # Inline spans, which may wrap over a line end; fenced lines are blanked out above.
    body = "\n".join(prose)
    for match in re.finditer(r"`([^`]+)`", body):
        span = " ".join(match.group(1).split())
        line = body.count("\n", 0, match.start()) + 1
        first = span.split(" ", 1)[0]
        if first in ("build/sim", "sim", "/usr/bin/python3") or first.startswith("tools/") or (
                first.startswith("scenarios/") and first.endswith((".sh", ".py"))):
            found.append((line, span, False))
    return sorted(found)


def words(command):
    """The shell words of a command, its trailing comment dropped; None if it is not one."""
    try:
        return shlex.split(command, comments=True)
    except ValueError:
        return None


def is_template(command):
    return "…" in command or "..." in command or re.search(r"<[^>]+>", command) is not None


def check(root, sim, command, from_block):
    """The problems of one command (empty: it runs from the root as written)."""
    problems = []
    tokens = words(command)
    if tokens is None:
        return ["not a shell command (unbalanced quotes)"]
    if not tokens:
        return problems
    if tokens[0] == "sim":
        if from_block or len(tokens) > 2 or (len(tokens) == 2 and tokens[1] not in SUBCOMMANDS):
            problems.append("a bare `sim`: from the repository's root it is `build/sim`")
        return problems
    if tokens[0] == "build/sim" and (len(tokens) == 1 or (len(tokens) == 2 and tokens[1] in SUBCOMMANDS)):
        return problems  # the program or a subcommand named in prose
    # Paths the command reads.
    output_next, missing = False, set()
    for token in tokens:
        value = token.split("=", 1)[1] if token.startswith("-") and "=" in token else token
        if output_next or token in OUTPUT_OPTIONS:
            output_next = token in OUTPUT_OPTIONS
            continue
        if value.startswith(CHECKED_DIRS) and not re.search(r"[<>*{}…]|\.\.\.", value):
            if not os.path.exists(os.path.join(root, value)):
                problems.append(f"no such path from the repository's root: {value}")
                missing.add(value)
    program = tokens[0]
    if program == "/usr/bin/python3":
        if len(tokens) < 2 or (tokens[1] not in missing and not os.path.isfile(os.path.join(root, tokens[1]))):
            problems.append(f"no script {tokens[1] if len(tokens) > 1 else ''}")
    elif program != "build/sim" and program not in missing:
        if not os.access(os.path.join(root, program), os.X_OK):
            problems.append(f"{program} is not an executable file under the repository's root")
    if problems or is_template(command):
        return problems
    # Scenarios: validated with the command's own overrides.
    scenario = None
    if program == "build/sim":
        sub = tokens[1] if len(tokens) > 1 and tokens[1] in SUBCOMMANDS else "run"
        if sub in ("run", "trim", "linearize", "identify", "validate"):
            scenario = next((t for t in tokens[1:] if t.endswith((".yaml", ".yml"))), None)
            if scenario is None:
                problems.append("a build/sim command without its scenario")
    elif program == "tools/sweep":
        scenario = next((t for t in tokens[1:] if t.endswith((".yaml", ".yml"))), None)
    if scenario:
        overrides = []
        for k, token in enumerate(tokens):
            if token == "--set" and k + 1 < len(tokens):
                overrides += ["--set", tokens[k + 1]]
            elif token.startswith("--set="):
                overrides += ["--set", token[len("--set="):]]
        done = subprocess.run([sim, "validate", scenario] + overrides, cwd=root, capture_output=True, text=True)
        if done.returncode != 0:
            problems.append("sim validate fails: " + (done.stderr or done.stdout).strip().replace("\n", " | "))
        check.validated += 1
    return problems


check.validated = 0


def main():
    root, sim = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    readmes = sorted(glob.glob(os.path.join(root, "scenarios", "README.md")) +
                     glob.glob(os.path.join(root, "scenarios", "**", "README.md"), recursive=True))
    readmes = sorted(set(readmes))
    failures, count = [], 0
    for readme in readmes:
        shown = os.path.relpath(readme, root)
        for line, command, from_block in readme_commands(readme):
            count += 1
            for problem in check(root, sim, command, from_block):
                failures.append(f"{shown}:{line}: {command}\n    {problem}")
    print(f"{count} commands in {len(readmes)} READMEs, {check.validated} scenarios validated")
    for f in failures:
        print(f)
    # Not vacuous: the folders hold dozens of commands; finding few means the extraction broke.
    if count < 40 or check.validated < 25:
        print("too few commands found: the extraction does not see the READMEs' commands")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
