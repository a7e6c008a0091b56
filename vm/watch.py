"""The watcher: one thread that times a running program and hears Ctrl-C for it.

`minicuda run` starts a `Watcher` before it compiles.  Its thread sleeps in
`select` on the read end of the pipe Python's C-level signal handler writes to
(`signal.set_wakeup_fd`), so a Ctrl-C reaches it even while the main thread is
in native code, and wakes for the deadlines:

- `--timeout SECONDS`: the whole run;
- `--watchdog SECONDS`: the kernel launch running (armed by `launch_started`);
- the progress line: once a launch has run a second, and only when stderr is a
  terminal, a line saying which kernel runs, its blocks done of its total and the
  rate, redrawn in place and erased by `launch_finished`.

A deadline or a Ctrl-C sets the program's StopFlag (vm/stop.py); both engines
poll it and stop within a straight run of code.  Before the program runs (while
it compiles) nothing polls the flag: the main thread gets a KeyboardInterrupt
instead, and `while_compiling` says why.  Should the program not be stopped
`GRACE` seconds after the flag was set (a long runtime call), the thread says
so and ends the process with the exit status the reason has.

Invariants: only the main thread installs and restores the signal handling;
the progress line is drawn and erased under one lock, only while a launch runs,
so it never lands between the program's output.
"""
from __future__ import annotations

import _thread
import os
import select
import signal
import sys
import threading
import time

from minicuda.vm.stop import EXIT_STATUS, INTERRUPT, TIMEOUT, WATCHDOG, StopFlag

GRACE = 2.0          # seconds a stop may take before the process is ended without a report
PROGRESS_AFTER = 1.0  # a launch shows its progress line once it has run this long
REDRAW = 0.25         # seconds between redraws of the progress line


class Watcher:
    def __init__(self, flag: StopFlag, timeout: float | None = None, watchdog: float | None = None,
                 progress: bool = False, stream=None):
        self.flag, self.timeout, self.watchdog = flag, timeout, watchdog
        self.stream = stream or sys.stderr
        self.progress = progress
        self.line = ProgressLine(stream=self.stream, enabled=progress)   # the per-launch line
        self.started = time.monotonic()
        self.lock = threading.Lock()
        self.launch = None          # the _Launch running
        self.requested = None       # (reason, when) of the stop asked for
        self.while_compiling = None  # the reason the compile was interrupted (TIMEOUT, INTERRUPT)
        self.running = False        # the program runs (False while compiling: nothing polls the flag)
        self.closing = threading.Event()
        self.thread = None
        self.previous = None        # the SIGINT handler and wakeup fd to restore
        self.pipe = None

    # ---- the main thread ----------------------------------------------------------------------
    def start(self) -> "Watcher":
        self.pipe = os.pipe()
        if threading.current_thread() is threading.main_thread():
            os.set_blocking(self.pipe[1], False)
            handler = signal.signal(signal.SIGINT, self.on_sigint)
            fd = signal.set_wakeup_fd(self.pipe[1], warn_on_full_buffer=False)
            self.previous = (handler, fd)
        self.thread = threading.Thread(target=self.watch, name="minicuda-watcher", daemon=True)
        self.thread.start()
        return self

    def attach(self, machine) -> None:
        """The program is about to run on `machine`: stops go to its flag from now on."""
        with self.lock:
            self.flag = machine.stop
            machine.watcher = self
            self.running = True

    def close(self) -> None:
        """Stop watching: the thread ends, the signal handling is as it was."""
        if self.closing.is_set():
            return
        self.closing.set()
        os.write(self.pipe[1], b"\0")
        self.thread.join()
        if self.previous is not None:
            signal.set_wakeup_fd(self.previous[1])
            signal.signal(signal.SIGINT, self.previous[0])
        os.close(self.pipe[0])
        os.close(self.pipe[1])

    def on_sigint(self, signum, frame) -> None:
        """The Python-level handler: while compiling, Python's own KeyboardInterrupt;
        once the program runs, nothing (the thread heard it from the pipe and set the flag)."""
        if not self.running:
            raise KeyboardInterrupt

    def launch_started(self, kernel: str, blocks: int, engine) -> None:
        with self.lock:
            self.launch = _Launch(kernel, blocks, engine)

    def launch_finished(self) -> None:
        """The launch ended (a watchdog's stop that came too late to matter is withdrawn)."""
        with self.lock:
            self.launch = None
            self.flag.clear_watchdog()
            self.erase()

    # ---- the thread ------------------------------------------------------------------------------
    def watch(self) -> None:
        while not self.closing.is_set():
            readable, _, _ = select.select([self.pipe[0]], [], [], self.next_wake())
            if readable:
                data = os.read(self.pipe[0], 64)
                if bytes([signal.SIGINT]) in data:
                    self.ask(INTERRUPT)
            if self.closing.is_set():
                return
            self.tick(time.monotonic())

    def next_wake(self) -> float:
        now = time.monotonic()
        waits = [REDRAW if self.progress or self.requested else 1.0]
        if self.timeout is not None:
            waits.append(self.started + self.timeout - now)
        launch = self.launch
        if launch is not None and self.watchdog is not None:
            waits.append(launch.started + self.watchdog - now)
        return max(0.01, min(waits))

    def tick(self, now: float) -> None:
        if self.timeout is not None and now >= self.started + self.timeout:
            self.ask(TIMEOUT)
        with self.lock:
            launch = self.launch
            if launch is not None and self.watchdog is not None and now >= launch.started + self.watchdog:
                if self.flag.request(WATCHDOG):
                    self.requested = self.requested or (WATCHDOG, now)
            if launch is not None and self.progress and now >= launch.started + PROGRESS_AFTER:
                self.draw(launch.line(now))
        requested = self.requested
        if requested is not None and requested[0] != WATCHDOG and now >= requested[1] + GRACE:
            self.give_up(requested[0])
        if requested is not None and requested[0] == WATCHDOG and not self.flag.reason:
            self.requested = None   # the launch was given up; the program runs on

    def ask(self, reason: int) -> None:
        with self.lock:
            if not self.running:   # compiling: nothing would see the flag (on_sigint interrupts it)
                if reason == TIMEOUT and self.while_compiling is None:
                    self.while_compiling = reason
                    _thread.interrupt_main()
                return
        if self.flag.request(reason):
            self.requested = (reason, time.monotonic())
        elif reason == INTERRUPT and self.flag.reason == INTERRUPT:
            self.give_up(reason)   # a second Ctrl-C: at once

    def give_up(self, reason: int) -> None:
        """The program did not stop in time: end the process."""
        what = "timed out" if reason == TIMEOUT else "interrupted"
        with self.lock:
            self.erase()
        os.write(2, f"minicuda: error: {what}, and the program did not stop within {GRACE:g} s\n".encode())
        os._exit(EXIT_STATUS[reason])

    # ---- the progress line ----------------------------------------------------------------------
    def draw(self, text: str) -> None:
        self.line.show(text)
        self.progress = self.line.enabled   # (off once the stream fails)

    def erase(self) -> None:
        self.line.clear()


def is_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False


class ProgressLine:
    """One line of progress on a terminal: redrawn in place (`show`), erased (`clear`)
    before anything else is printed.  Silent when the stream is not a terminal (or
    `enabled` is False), and from the first write that fails.  `prefix` starts each
    text; `timed` ends it with the seconds since the line was made, as the run's
    per-launch line does."""

    def __init__(self, prefix: str = "", stream=None, enabled: bool | None = None, timed: bool = False):
        self.prefix, self.timed = prefix, timed
        self.stream = stream or sys.stderr
        self.enabled = is_terminal(self.stream) if enabled is None else enabled
        self.started = time.monotonic()
        self.drawn = False
        self.lock = threading.Lock()

    def show(self, text: str) -> None:
        if not self.enabled:
            return
        if self.timed:
            text += f", {time.monotonic() - self.started:.0f} s"
        with self.lock:
            self.write("\r" + self.prefix + text + "\x1b[K")
            self.drawn = self.enabled

    def clear(self) -> None:
        with self.lock:
            if self.drawn:
                self.write("\r\x1b[K")
                self.drawn = False

    def write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):
            self.enabled = False


class _Launch:
    """The launch running, as the progress line shows it."""

    def __init__(self, kernel: str, blocks: int, engine):
        self.kernel, self.blocks, self.engine = kernel, blocks, engine
        self.started = time.monotonic()
        # the interpreter counts its instructions as it goes; native code only at a warp's end
        self.interp = engine.interp if engine.name == "interp" else None
        self.steps0 = self.interp.steps if self.interp is not None else 0

    def line(self, now: float) -> str:
        elapsed = max(now - self.started, 1e-9)
        done = self.engine.blocks_done()
        text = f"minicuda: kernel '{self.kernel}': {done} of {self.blocks} blocks, {done / elapsed:.1f} blocks/s"
        if self.interp is not None:
            text += f", {(self.interp.steps - self.steps0) / elapsed:,.0f} warp instructions/s"
        return text + f", {elapsed:.0f} s"
