"""Progress on stderr while a report is made and while `minicuda bench` measures: the
line the run's launches draw (vm/watch.py), redrawn in place and erased before the
results, only when stderr is a terminal (a fake one here: isatty patched)."""
import io
import sys
from pathlib import Path

import pytest

from minicuda.bench import main as bench_main
from minicuda.cli import minicuda_main
from minicuda.vm.watch import ProgressLine

ROOT = Path(__file__).resolve().parents[2]
DIVERGENCE = str(ROOT / "samples" / "simpleDivergence.cu")
ERASE = "\r\x1b[K"


class Screen(io.BytesIO):
    tty = True

    def isatty(self):
        return self.tty


class Terminal(io.TextIOWrapper):
    """A stderr that says it is a terminal (with a .buffer, which the program's own
    stderr writes to)."""
    tty = True

    def __init__(self):
        screen = Screen()
        screen.tty = self.tty
        super().__init__(screen, write_through=True)

    def getvalue(self) -> str:
        self.flush()
        return self.buffer.getvalue().decode()


class Pipe(Terminal):
    tty = False


def test_a_progress_line_draws_in_place_and_erases_on_a_terminal_only():
    screen = Terminal()
    line = ProgressLine("minicuda: report: ", stream=screen, timed=True)
    line.show("kernel 'k', 1 of 2 kernels")
    line.show("kernel 'j', 2 of 2 kernels")
    line.clear()
    line.clear()   # (once)
    assert screen.getvalue() == ("\rminicuda: report: kernel 'k', 1 of 2 kernels, 0 s\x1b[K"
                                 "\rminicuda: report: kernel 'j', 2 of 2 kernels, 0 s\x1b[K" + ERASE)
    pipe = Pipe()
    quiet = ProgressLine("minicuda: report: ", stream=pipe)
    quiet.show("anything")
    quiet.clear()
    assert pipe.getvalue() == ""


def report_run(tmp_path, monkeypatch, stream, *extra):
    pytest.importorskip("jinja2", reason="the [report] extra is not installed: pip install 'minicuda[report]'")
    monkeypatch.setattr(sys, "stderr", stream)
    status = minicuda_main(["run", "-G", "--arch", "pascal", DIVERGENCE, "--report=html", "-o",
                            str(tmp_path / "r.html"), *extra])
    assert status == 0 and (tmp_path / "r.html").stat().st_size > 0
    return stream.getvalue()


def test_a_report_run_shows_its_progress_on_a_terminal(tmp_path, monkeypatch, capsys):
    err = report_run(tmp_path, monkeypatch, Terminal(), "--compare-archs")
    assert "\rminicuda: report: running under pascal (--compare-archs), " in err
    assert "\rminicuda: report: running under volta (--compare-archs), " in err
    assert "\rminicuda: report: kernel 'mathKernel1', 2 of 5 kernels, " in err
    assert err.endswith(ERASE)   # erased: nothing is left on the screen


def test_a_report_run_is_silent_when_stderr_is_not_a_terminal(tmp_path, monkeypatch, capsys):
    assert report_run(tmp_path, monkeypatch, Pipe(), "--compare-archs") == ""


def test_quiet_silences_the_reports_progress(tmp_path, monkeypatch, capsys):
    assert report_run(tmp_path, monkeypatch, Terminal(), "--quiet") == ""


BENCH = ["--quick", "--engine", "interp", "--only", "vectorAdd", "--skip", "native,pocl,numba,e2e"]


def test_bench_shows_its_progress_on_a_terminal_and_is_silent_otherwise(monkeypatch, capsys):
    screen = Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    assert bench_main(BENCH) == 0
    report = capsys.readouterr().out
    assert "\rminicuda bench: vectorAdd on interp at 512, " in screen.getvalue()
    assert screen.getvalue().endswith(ERASE) and "vectorAdd" in report
    pipe = Pipe()
    monkeypatch.setattr(sys, "stderr", pipe)
    assert bench_main(BENCH) == 0
    assert pipe.getvalue() == ""
