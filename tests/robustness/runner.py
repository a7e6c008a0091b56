"""Runs a robustness case as the user would, as a process of the real command line, and
judges what came out.

A case (cases.Case) runs either as a subprocess of the console script (`run_case`:
for cases that need a real process of their own: closed stdout, a FIFO, program
arguments as bytes) or as a fork of a process that has imported minicuda once
(`ForkServer`: for the hundreds of generated inputs of one family). Both run under
the same limits: 4 GiB of address space (RLIMIT_AS, as `ulimit -v 4194304`), 256 MiB
per file written (RLIMIT_FSIZE: unbounded output is a failure, not a full disk), no
core files, the case's CPU-second budget (RLIMIT_CPU: SIGXCPU a second after it), and
a wall-clock limit (a multiple of the budget, for a loaded machine) after which the
process group is killed: a process blocked without using CPU.

`problems(case, outcome)` lists what is wrong with an outcome; every case must give
none. Whatever a case expects, these always are problems: an internal compiler error,
a Python traceback, exit status 70, a signal the case does not expect (signal N counts
as exit status 128 + N, as a shell shows it: SIGFPE is 136), being killed at the
wall-clock limit, or more CPU time than the case's budget; a case that sends Ctrl-C
must also have ended within `stop_within` seconds of it.
"""
from __future__ import annotations

import json
import math
import os
import re
import resource
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

MEMORY_LIMIT = 4 << 30
FILE_SIZE_LIMIT = 256 << 20
FORKSERVER = Path(__file__).with_name("forkserver.py")

# what a message must look like, by the name a case gives in Case.message
MESSAGES = {
    # clang's shape: file:line:col: error: (or fatal error:)
    "located": re.compile(r"^[^\s:][^:\n]*:\d+:\d+: (?:fatal )?error: ", re.M),
    # any error line: located, a file's or the program's name first, or a runtime report
    "error": re.compile(r"^(?:[^\n]*?: )?(?:fatal )?error: ", re.M),
    # a host division by zero, as a shell reports a native program's SIGFPE
    "fpe": re.compile(r"Floating point exception"),
    # an abort() (a failed assert, glibc's report of a bad free), as a shell reports SIGABRT
    "abort": re.compile(r"^Aborted$", re.M),
    # a program stopped where it was: some file:line of the program is named
    "where": re.compile(r"\.cu:\d+"),
    # a native program's crash, or the VM's report of it
    "crash": re.compile(r"^(?:[^\n]*?: )?(?:fatal )?error: |Segmentation fault|stack overflow", re.M | re.I),
}
NEVER = [("internal compiler error", "an internal compiler error"),
         ("Traceback (most recent call last)", "a Python traceback"),
         ("MINICUDA_DEBUG", "the internal-error hint")]


@dataclass
class Outcome:
    status: int            # the exit status as a shell shows it (128 + N for signal N)
    signal: int | None     # the signal that ended the process, if one did
    stdout: bytes
    stderr: bytes
    cpu: float             # user + system seconds of the process (and its threads)
    wall: float
    killed: bool           # killed at the wall-clock limit
    interrupted_at: float | None = None   # wall seconds at which Ctrl-C was sent

    def text(self) -> str:
        return self.stderr.decode("utf-8", "replace")


def limit_resources() -> None:
    """preexec_fn: the limits every case runs under."""
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_SIZE_LIMIT, FILE_SIZE_LIMIT))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def limit_cpu(seconds: float) -> None:
    """In the case's process: SIGXCPU a second after its CPU budget, SIGKILL soon after."""
    soft = math.ceil(seconds) + 1
    resource.setrlimit(resource.RLIMIT_CPU, (soft, soft + 2))


def console_script(command: str) -> list[str]:
    """How to start `minicudac` or `minicuda` from this Python's environment."""
    script = Path(sys.executable).with_name(command)
    if script.exists():
        return [str(script)]
    main = {"minicudac": "minicudac_main", "minicuda": "minicuda_main"}[command]
    return [sys.executable, "-c", f"import sys; from minicuda.cli import {main}; sys.exit({main}())"]


def clean_environment() -> dict:
    return {k: v for k, v in os.environ.items() if not k.startswith("MINICUDA_")}


def run_case(case, folder: Path) -> Outcome:
    """Runs one case in `folder` (its files written there) as a subprocess."""
    case.write_files(folder)
    close_stdout = case.stdout_to == "closed"

    def preexec():
        limit_resources()
        limit_cpu(case.seconds)
        if close_stdout:
            os.close(1)

    stdout = subprocess.PIPE
    if case.stdout_to not in (None, "closed"):
        stdout = open(folder / case.stdout_to, "wb")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    proc = subprocess.Popen(console_script(case.command) + case.argv, cwd=folder, env=clean_environment(),
                            stdin=subprocess.PIPE if case.stdin is not None else subprocess.DEVNULL,
                            stdout=stdout, stderr=subprocess.PIPE, preexec_fn=preexec, start_new_session=True)
    killed, interrupted_at = False, None
    try:
        if case.interrupt_after is not None and interrupt(proc, case.interrupt_after):
            interrupted_at = time.monotonic() - start
        out, err = proc.communicate(case.stdin, timeout=case.wall_limit - (time.monotonic() - start))
    except subprocess.TimeoutExpired:
        killed = True
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
    finally:
        if stdout is not subprocess.PIPE:
            stdout.close()
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    sig = -proc.returncode if proc.returncode < 0 else None
    return Outcome(128 + sig if sig else proc.returncode, sig, out or b"", err or b"", cpu, wall, killed,
                   interrupted_at)


def interrupt(proc: subprocess.Popen, after: float) -> bool:
    """Ctrl-C, as a terminal sends it to the foreground process group, `after` seconds
    into the run; False when the process ended before that."""
    try:
        proc.wait(timeout=after)
        return False
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGINT)
        return True


class ForkServer:
    """A forkserver.py process (under the limits), to run many cases cheaply."""

    def __init__(self) -> None:
        env = clean_environment()
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(FORKSERVER.parent), env.get("PYTHONPATH")]))
        self.proc = subprocess.Popen([sys.executable, str(FORKSERVER)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, env=env, preexec_fn=limit_resources)

    def run(self, case, folder: Path) -> Outcome:
        case.write_files(folder)
        request = {"command": case.command, "argv": [os.fsdecode(a) for a in case.argv], "cwd": str(folder),
                   "seconds": case.wall_limit, "cpu": case.seconds}
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the fork server died")
        reply = json.loads(line)
        sig = reply["signal"]
        return Outcome(128 + sig if sig else reply["status"], sig, (folder / "stdout").read_bytes(),
                       (folder / "stderr").read_bytes(), reply["cpu"], reply["wall"], reply["killed"])

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def problems(case, outcome: Outcome, folder: Path | None = None) -> list[str]:
    """What is wrong with the outcome of a case: an empty list when it is as expected."""
    text = outcome.text()
    found = [f"{what} on stderr" for needle, what in NEVER if needle in text]
    if outcome.killed:
        found.append(f"still running after {case.wall_limit:.0f} s (killed)")
    elif outcome.cpu > case.seconds or outcome.signal in (signal.SIGXCPU, signal.SIGKILL):
        found.append(f"took {outcome.cpu:.1f} CPU seconds, over the budget of {case.seconds:g}")
    if outcome.status == 70:
        found.append("exit status 70 (internal error)")
    if outcome.signal and outcome.status not in case.status:
        found.append(f"ended by signal {signal.Signals(outcome.signal).name}")
    if outcome.interrupted_at is not None and not outcome.killed and \
            outcome.wall - outcome.interrupted_at > case.stop_within:
        found.append(f"ran on for {outcome.wall - outcome.interrupted_at:.1f} s after Ctrl-C")
    elif case.interrupt_after is not None and outcome.interrupted_at is None and not outcome.killed:
        found.append(f"ended before Ctrl-C was sent at {case.interrupt_after:g} s")
    if not outcome.killed and outcome.status not in case.status:
        found.append(f"exit status {outcome.status}, expected {' or '.join(map(str, sorted(case.status)))}")
    elif outcome.status != 0 and case.message and outcome.signal is None \
            and not MESSAGES[case.message].search(text):
        found.append(f"no {case.message} message on stderr")
    if outcome.status == 0 and case.stdout is not None and not case.stdout_matches(outcome.stdout):
        found.append(f"stdout {outcome.stdout[:200]!r}, expected {case.stdout!r}")
    if folder is not None:
        found += case.check_files(folder)
    return found


def report(case, outcome: Outcome, found: list[str]) -> str:
    """The assertion message of a failed case: its problems, then what it printed."""
    return (f"{case.name}: " + "; ".join(found) + f"\n--- argv: {case.argv}\n--- exit {outcome.status}, "
            f"{outcome.cpu:.1f} CPU s, {outcome.wall:.1f} s\n--- stderr (end):\n{outcome.text()[-3000:]}"
            f"\n--- stdout (start):\n{outcome.stdout[:500].decode('utf-8', 'replace')}")
