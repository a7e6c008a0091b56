"""A runner for lit-style test files: `// RUN:` lines, as LLVM's lit reads them.

A RUN line is a pipeline of commands separated by ` | `, each run with a console
script of the venv the tests run in (minicudac, minicuda, filecheck: resolved next to
sys.executable, never on PATH).  `%s` stands for the file's path, `%S` for its
folder, `%%` for a percent sign.  A command may begin with `not` (it must fail) and
end with `2>&1` (its stderr joins its stdout); a RUN line ending in `\\` goes on in
the next RUN line.  A line passes when every command exits as it should (as under
`set -o pipefail`); `run_pipeline` raises RunFailure with the failing command's
output, FileCheck's message on a mismatch.

`read_run_lines` raises RunLineError for a file that cannot be run as written: no
RUN line, a command that is not a console script of the venv, shell syntax beyond
the above, an unknown `%` substitution, or a RUN line that does not end in
`filecheck` (so that every test checks something).
"""
from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

SCRIPTS = Path(sys.executable).parent       # the venv's console scripts
RUN_RE = re.compile(r"^\s*//\s*RUN:(.*)$")
SUBSTITUTION_RE = re.compile(r"%(.)")
MERGE_STDERR = "2>&1"
SHELL_SYNTAX = re.compile(r"^(\d*[<>].*|;|&&?|\|\||.*\$\(.*|`.*)$")
TIMEOUT_S = 300


class RunLineError(Exception):
    """A RUN line the runner cannot run as written."""


class RunFailure(Exception):
    """A command of a RUN line that did not exit as it should."""


@dataclass(frozen=True)
class Command:
    argv: tuple[str, ...]
    must_fail: bool = False       # `not COMMAND`
    merge_stderr: bool = False    # `COMMAND 2>&1`


@dataclass(frozen=True)
class RunLine:
    line: int                     # where the RUN line starts (1-based)
    text: str
    commands: tuple[Command, ...]


def read_run_lines(path: Path) -> list[RunLine]:
    """The RUN lines of `path`, continuations joined, parsed; RunLineError when one is malformed."""
    runs, pending, start = [], None, 0
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        m = RUN_RE.match(raw)
        if m is None:
            if pending is not None:
                raise RunLineError(f"{path.name}:{start}: the RUN line ends in '\\' but no RUN line follows")
            continue
        text = m.group(1).strip()
        if pending is None:
            pending, start = "", number
        pending += text
        if pending.endswith("\\"):
            pending = pending[:-1] + " "
            continue
        runs.append(RunLine(start, pending, parse_pipeline(pending, path, start)))
        pending = None
    if pending is not None:
        raise RunLineError(f"{path.name}:{start}: the RUN line ends in '\\' but no RUN line follows")
    if not runs:
        raise RunLineError(f"{path.name}: no '// RUN:' line: a FileCheck test says how to run it")
    return runs


def parse_pipeline(text: str, path: Path, line: int) -> tuple[Command, ...]:
    def fail(why: str):
        raise RunLineError(f"{path.name}:{line}: {why}: RUN: {text}")

    try:
        tokens = shlex.split(text)
    except ValueError as e:
        fail(str(e))
    stages, current = [], []
    for token in tokens + ["|"]:
        if token != "|":
            current.append(token)
            continue
        if not current:
            fail("an empty command")
        stages.append(current)
        current = []
    commands = tuple(parse_command(stage, path, fail) for stage in stages)
    if Path(commands[-1].argv[0]).name != "filecheck" or commands[-1].must_fail:
        fail("the last command must be filecheck, so that the test checks something")
    return commands


def parse_command(tokens: list[str], path: Path, fail) -> Command:
    must_fail = tokens[0] == "not"
    merge = tokens[-1] == MERGE_STDERR
    words = tokens[1 if must_fail else 0:len(tokens) - (1 if merge else 0)]
    if not words:
        fail("a command with no program")
    for word in words:
        if SHELL_SYNTAX.match(word):
            fail(f"'{word}' is shell syntax the runner does not support")
    program = SCRIPTS / words[0]
    if "/" in words[0] or not program.is_file():
        fail(f"'{words[0]}' is not a console script of this venv ({SCRIPTS})")
    return Command((str(program),) + tuple(substitute(w, path, fail) for w in words[1:]), must_fail, merge)


def substitute(word: str, path: Path, fail) -> str:
    values = {"s": str(path), "S": str(path.parent), "%": "%"}

    def one(m: re.Match) -> str:
        if m.group(1) not in values:
            fail(f"unknown substitution '%{m.group(1)}' (known: %s, %S, %%)")
        return values[m.group(1)]

    return SUBSTITUTION_RE.sub(one, word)


def run_pipeline(run: RunLine, cwd: Path) -> None:
    """Run the commands of `run` in order, each reading the one before's output (as
    `set -o pipefail` does, any command that exits wrongly fails the line)."""
    env = dict(os.environ, PATH=f"{SCRIPTS}{os.pathsep}{os.environ.get('PATH', '')}")
    data = b""
    for command in run.commands:
        done = subprocess.run(command.argv, input=data, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT if command.merge_stderr else subprocess.PIPE,
                              cwd=cwd, env=env, timeout=TIMEOUT_S)
        if (done.returncode != 0) != command.must_fail:
            raise RunFailure(failure_report(run, command, done))
        data = done.stdout


def failure_report(run: RunLine, command: Command, done: subprocess.CompletedProcess) -> str:
    name = Path(command.argv[0]).name
    expected = "a failure" if command.must_fail else "success"
    lines = [f"RUN (line {run.line}): {run.text}",
             f"{name} exited with status {done.returncode}, expected {expected}:"]
    output = (done.stderr or b"") + done.stdout
    return "\n".join(lines) + "\n" + output.decode(errors="replace").rstrip()
