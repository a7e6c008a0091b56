"""FileCheck tests of the passes: every `.ir` or `.sass` file under tests/passes/filecheck/
is a test, its `// RUN:` lines run as LLVM's lit runs them (tests/helpers/lit.py says
how).  Each RUN line is one test item; a file that cannot be run as written is a
collection error, never a silent pass."""
from __future__ import annotations

from pathlib import Path

import pytest

from helpers.lit import RunFailure, RunLine, RunLineError, read_run_lines, run_pipeline

FILECHECK_ROOT = Path(__file__).parent / "filecheck"


def pytest_collect_file(file_path: Path, parent):
    if file_path.suffix in (".ir", ".sass") and FILECHECK_ROOT in file_path.parents:
        return FileCheckFile.from_parent(parent, path=file_path)
    return None


class FileCheckFile(pytest.File):
    def collect(self):
        for run in read_run_lines(self.path):
            yield FileCheckItem.from_parent(self, name=f"RUN@{run.line}", run=run)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, RunLineError):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)


class FileCheckItem(pytest.Item):
    def __init__(self, *, run: RunLine, **kwargs):
        super().__init__(**kwargs)
        self.run = run

    def runtest(self) -> None:
        run_pipeline(self.run, self.path.parent)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, RunFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, self.run.line - 1, f"{self.path.name}: RUN line {self.run.line}"
