"""One point, run: `minicuda run ... --metrics-json` in its own process.

run_point is what a worker calls (the local pool's thread or a Dask worker): it
writes the task's files into a fresh folder, runs minicuda in a subprocess with the
point's --timeout (and kills it, a little later, if it does not stop by itself),
and turns what came back into rows: one per kernel launch, with the point's columns,
every metric, and the predication decisions of that kernel. Whatever the run does
(compile error, fault, timeout, budget overrun, a crash of the process) is a status
in the rows, never an exception: a point's failure is never the sweep's.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time

RUN = "import sys; from minicuda.cli import minicuda_main; sys.exit(minicuda_main())"
GRACE_S = 30.0       # how long after its own --timeout a point's process may take to stop
MESSAGE_CHARS = 400
INTERRUPTED = "interrupted"
# a launch's fields that would hide the point's own columns (arch as the spec names it, sched
# "auto"): the target and the model the launch ran under
LAUNCH_RENAMED = {"arch": "target", "sched": "model"}


def run_point(task: dict) -> list[dict]:
    """The rows of one point (see the module's docstring)."""
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="minicuda-sweep-") as folder:
        for name, text in task["files"].items():
            path = os.path.join(folder, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
                f.write(text)
        metrics_path, decisions_path = os.path.join(folder, ".metrics.json"), os.path.join(folder, ".decisions.json")
        command = [sys.executable, "-c", RUN, "run"] + task["options"] + [
            "--metrics-json", metrics_path, "--decisions-json", decisions_path, "--", task["program"]] + task["args"]
        code, stderr = _run(command, folder, task["timeout"] + GRACE_S)
        launches = _read_json(metrics_path)
        decisions = _read_json(decisions_path) or []
        stderr = stderr.replace(folder + os.sep, "")
    status = _status(code, stderr, launches is not None)
    base = dict(task["columns"], point=task["key"], status=status, exit_code=code,
                message=_message(stderr) if status != "ok" else "", seconds=round(time.monotonic() - start, 3))
    if not launches:
        return [dict(base, launch=None, kernel=None)]
    return [_launch_row(base, n, launch, decisions) for n, launch in enumerate(launches)]


def failure_rows(task: dict, status: str, message: str) -> list[dict]:
    """The row of a point that could not be run at all (its worker lost, say)."""
    return [dict(task["columns"], point=task["key"], status=status, exit_code=None, message=message[:MESSAGE_CHARS],
                 seconds=None, launch=None, kernel=None)]


def _run(command: list[str], folder: str, limit: float) -> tuple[int | None, str]:
    """(exit status, None when it had to be killed; its stderr). Its stdout is dropped."""
    try:
        done = subprocess.run(command, cwd=folder, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, timeout=limit)
    except subprocess.TimeoutExpired as e:
        return None, (e.stderr or b"").decode("utf-8", "replace") + f"\nkilled after {limit:g} s"
    except OSError as e:
        return -1, f"cannot start minicuda: {e}"
    return done.returncode, done.stderr.decode("utf-8", "replace")


def _read_json(path: str):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def _status(code: int | None, stderr: str, ran: bool) -> str:
    """ok, timeout, budget, compile-error, fault, exit (main's own non-zero status), crash,
    or interrupted (Ctrl-C reached the point's process: not a result, never journalled)."""
    if code == 0:
        return "ok"
    if code in (130, -2):
        return INTERRUPTED
    if code is None or code == 124:
        return "timeout"
    if "instruction budget exhausted" in stderr:
        return "budget"
    if code < 0 or code == 70:
        return "crash"
    if not ran:
        return "compile-error"
    if any(": error: " in line or line.startswith("error: ") for line in stderr.splitlines()):
        return "fault"
    return "exit"


def _message(stderr: str) -> str:
    """The failure's message: the first error line, else the last lines of stderr."""
    lines = [line for line in stderr.splitlines() if line.strip()]
    errors = [line for line in lines if "error" in line or "killed after" in line]
    text = errors[0] if errors else " | ".join(lines[-3:])
    return text[:MESSAGE_CHARS]


def _launch_row(base: dict, n: int, launch: dict, decisions: list) -> dict:
    row = dict(base, launch=n)
    for key, value in launch.items():
        key = LAUNCH_RENAMED.get(key, key)
        row[key] = ",".join(str(v) for v in value) if isinstance(value, list) else value
    block = launch.get("block")
    if isinstance(block, list):
        row["threads_per_block"] = block[0] * block[1] * block[2]
    own = [d for d in decisions if d.get("function") == launch.get("kernel") and not d.get("loop")]
    row["predicated_branches"] = sum(1 for d in own if d["predicated"])
    row["kept_branches"] = sum(1 for d in own if not d["predicated"])
    row["decisions"] = "; ".join(f"{d['line']}:{d['column']} {'predicated' if d['predicated'] else 'kept'} "
                                 f"{d['instructions']}/{d['threshold']}" for d in own)
    return row
