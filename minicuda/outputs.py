"""Writing what the command lines produce: -o files, --metrics-json, bench --json, stdout.

A regular output file is written whole to a temporary file beside it and renamed
into place, so a failed or interrupted run never leaves half a file nor destroys the
one that was there; the new file gets the old one's mode (or the umask's, as open
would give).  A special file (/dev/stdout, /dev/null, a FIFO, /dev/full) is written
directly, since it cannot be replaced.  Every failure is one `OutputError` whose
message names the file and says why, as strerror words it.  `check_output` refuses,
before anything is computed, an output that is the input itself (also through a
link) or that can never be written (a directory, a missing folder).
"""
from __future__ import annotations

import os
import stat
import sys
import tempfile


class OutputError(Exception):
    """An output that cannot be written; the message is the one line the user sees."""


def check_output(output: str | None, inputs: list[str]) -> None:
    """OutputError when `output` is one of `inputs` or cannot be created at all."""
    if not output or output == "-":
        return
    for source in inputs:
        if same_file(output, source):
            raise OutputError(f"input file '{source}' is the same as output file")
    if os.path.isdir(output):
        raise OutputError(f"cannot write '{output}': Is a directory")
    folder = os.path.dirname(output) or "."
    if not os.path.isdir(folder):
        reason = "Not a directory" if os.path.exists(folder) else "No such file or directory"
        raise OutputError(f"cannot write '{output}': {reason}")


def same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return False


def write_output(text: str, output: str | None) -> None:
    """`text` to the file `output`, or to stdout when it is None or '-'."""
    if not output or output == "-":
        write_stdout(text)
    elif is_special(output):
        write_directly(text, output)
    else:
        replace_file(text, output)


def write_stdout(text: str) -> None:
    """`text` to stdout, flushed; OutputError when stdout is closed or fails, BrokenPipeError
    (stdout then pointed at /dev/null, so exiting is quiet) when the reader has gone."""
    if sys.stdout is None:
        raise OutputError("cannot write to standard output: Bad file descriptor")
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        silence_stdout()
        raise
    except OSError as e:
        raise OutputError(f"cannot write to standard output: {e.strerror or e}") from None


def silence_stdout() -> None:
    """Point stdout at /dev/null: after a broken pipe, Python's final flush would complain."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, AttributeError, ValueError):
        pass


def is_special(path: str) -> bool:
    """Whether `path` exists and is not a regular file (a device, a FIFO, /dev/stdout)."""
    try:
        return not stat.S_ISREG(os.stat(path).st_mode) and not os.path.isdir(path)
    except OSError:
        return False


def write_directly(text: str, output: str) -> None:
    try:
        with open(output, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        raise OutputError(f"cannot write '{output}': {e.strerror or e}") from None


def replace_file(text: str, output: str) -> None:
    """Write `text` to a temporary file beside `output`, then rename it over `output`."""
    if os.path.isdir(output):
        raise OutputError(f"cannot write '{output}': Is a directory")
    if os.path.exists(output) and not os.access(output, os.W_OK):
        raise OutputError(f"cannot write '{output}': Permission denied")
    target = os.path.realpath(output) if os.path.islink(output) else output   # write through a link, as open does
    folder, name = os.path.split(target)
    try:
        fd, temp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder or ".")
    except OSError as e:
        raise OutputError(f"cannot write '{output}': {e.strerror or e}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(temp, new_mode(target))
        os.replace(temp, target)
    except OSError as e:
        remove_quietly(temp)
        raise OutputError(f"cannot write '{output}': {e.strerror or e}") from None
    except BaseException:
        remove_quietly(temp)
        raise


def new_mode(output: str) -> int:
    """The mode the output file keeps (its old one) or gets (0666 less the umask)."""
    try:
        return stat.S_IMODE(os.stat(output).st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def remove_quietly(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass
