"""A process that imports minicuda's command line once and then runs one command per
request in a forked child, so that hundreds of generated inputs each run in a process
of their own without paying Python's and minicuda's start-up every time.

Protocol: one JSON object per line on stdin, {"command": "minicudac" | "minicuda",
"argv": [...], "cwd": DIR, "seconds": WALL, "cpu": BUDGET}; one JSON object per line on stdout,
{"status": N, "signal": S | null, "cpu": SECONDS, "wall": SECONDS, "killed": BOOL}.
The child's stdout and stderr go to DIR/stdout and DIR/stderr, its stdin is
/dev/null, its CPU time limited to BUDGET (RLIMIT_CPU, a second's grace). A child
that outlives WALL seconds is killed (its process group) and reported with
"killed": true.

The child ends as the console script would: the main function's return value is the
exit status (SystemExit ends the interpreter, flushing stdout and running atexit), and
any other exception escaping it prints Python's traceback and exits 1 (so the suite
sees a traceback as a user would).
The memory limit (RLIMIT_AS) is set by whoever starts this process: forks inherit it.
"""
import json
import math
import os
import resource
import signal
import sys
import time
import traceback

from minicuda.cli import minicuda_main, minicudac_main

MAINS = {"minicudac": minicudac_main, "minicuda": minicuda_main}


def child(request: dict) -> None:
    """Runs in the forked child and ends it as the interpreter ends a console script:
    SystemExit with the status, so buffered output is flushed and atexit runs."""
    os.setsid()   # its own session and process group, as runner.run_case starts a process
    soft = math.ceil(request["cpu"]) + 1
    resource.setrlimit(resource.RLIMIT_CPU, (soft, soft + 2))
    signal.signal(signal.SIGINT, signal.default_int_handler)
    os.chdir(request["cwd"])
    stdin = os.open(os.devnull, os.O_RDONLY)
    out = os.open("stdout", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    err = os.open("stderr", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    for fd, target in ((stdin, 0), (out, 1), (err, 2)):
        os.dup2(fd, target)
        os.close(fd)
    sys.argv = [request["command"]] + request["argv"]
    try:
        status = MAINS[request["command"]](request["argv"])
    except SystemExit:
        raise
    except BaseException:   # what Python prints for an uncaught exception
        traceback.print_exc()
        status = 1
    sys.exit(status)


def run(request: dict) -> dict:
    sys.stdout.flush()
    sys.stderr.flush()
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:
        child(request)
    killed = False
    while True:
        done, status, usage = os.wait4(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() - start > request["seconds"]:
            killed = True
            try:
                os.killpg(pid, signal.SIGKILL)
            except ProcessLookupError:   # not yet its own group
                os.kill(pid, signal.SIGKILL)
            done, status, usage = os.wait4(pid, 0)
            break
        time.sleep(0.005)
    return {"status": os.waitstatus_to_exitcode(status) if not os.WIFSIGNALED(status) else None,
            "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
            "cpu": usage.ru_utime + usage.ru_stime, "wall": time.monotonic() - start, "killed": killed}


def serve() -> None:
    for line in sys.stdin:
        print(json.dumps(run(json.loads(line))), flush=True)


if __name__ == "__main__":
    serve()
