"""Reading a source file: the one place that opens what the user names as input.

Every reader of a program's text (the main .cu file, every #include, a .sass or .ir
module) goes through `read_text` (standard input, `-`, through `read_stream`), which returns the file's text or raises
`SourceFileError` with one message naming the file and what is wrong with it, as a
C compiler words it.  Invariants: nothing but a regular file is opened (a FIFO, a
device such as /dev/zero, a socket or a directory is refused from os.stat, so
nothing blocks); at most MAX_SOURCE_BYTES + 1 bytes are ever read; the text is
UTF-8 with no NUL byte (a byte-order mark is dropped, CRLF and CR line ends read as
LF, as Python's text files do), and the error for a bad byte gives its 1-based line
and byte column.
"""
from __future__ import annotations

import os
import stat
from dataclasses import dataclass

from minicuda.diagnostics import CompileError, Diagnostic

MAX_SOURCE_BYTES = 64 * 1024 * 1024

# what a non-regular file is, by its stat type
FILE_KINDS = [(stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
              (stat.S_ISSOCK, "a socket")]


@dataclass(frozen=True)
class SourceText:
    """A program's text and the name its diagnostics call it by (a path, or `<stdin>`)."""
    filename: str
    text: str


class SourceFileError(CompileError):
    """A file that cannot be read as program text; `message` names it and says why."""

    def __init__(self, message: str):
        self.message = message
        super().__init__([Diagnostic("error", message)])


def read_text(path: str, name: str | None = None) -> str:
    """The UTF-8 text of the regular file at `path`; SourceFileError when it is missing,
    not a regular file, unreadable, larger than MAX_SOURCE_BYTES, or not text.  The
    message calls the file `name` (say, as an #include wrote it), `path` by default."""
    name = path if name is None else name
    return source_text(name, read_bytes(path, name))


def read_stream(stream, name: str = "<stdin>") -> str:
    """The UTF-8 text of a binary stream (standard input), checked as `read_text` checks a file."""
    try:
        data = stream.read(MAX_SOURCE_BYTES + 1)
    except OSError as e:
        raise SourceFileError(f"cannot read '{name}': {e.strerror or e}") from None
    if len(data) > MAX_SOURCE_BYTES:
        raise SourceFileError(too_large(name))
    return source_text(name, data)


def source_text(name: str, data: bytes) -> str:
    """`data` decoded: universal newlines, as open() reads, and no byte-order mark."""
    text = decode(name, data).replace("\r\n", "\n").replace("\r", "\n")
    return text[1:] if text.startswith("\ufeff") else text


def read_bytes(path: str, name: str) -> bytes:
    """At most MAX_SOURCE_BYTES of the regular file at `path`, checked before it is opened."""
    check_regular(path, name)
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_SOURCE_BYTES + 1)
    except OSError as e:
        raise SourceFileError(f"cannot open file '{name}': {e.strerror or e}") from None
    if len(data) > MAX_SOURCE_BYTES:
        raise SourceFileError(too_large(name))
    return data


def check_regular(path: str, name: str) -> None:
    """SourceFileError unless `path` names a regular file no larger than MAX_SOURCE_BYTES."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise SourceFileError(f"no such file or directory: '{name}'") from None
    except OSError as e:
        raise SourceFileError(f"cannot open file '{name}': {e.strerror or e}") from None
    if stat.S_ISDIR(st.st_mode):
        raise SourceFileError(f"'{name}' is a directory, not a source file")
    kind = next((kind for test, kind in FILE_KINDS if test(st.st_mode)), None)
    if kind is not None or not stat.S_ISREG(st.st_mode):
        raise SourceFileError(f"'{name}' is not a regular file ({kind or 'an unknown kind of file'})")
    if st.st_size > MAX_SOURCE_BYTES:
        raise SourceFileError(too_large(name))


def too_large(name: str) -> str:
    return f"'{name}' is too large to be a source file (more than {MAX_SOURCE_BYTES // (1024 * 1024)} MiB)"


def decode(name: str, data: bytes) -> str:
    """`data` as UTF-8 text; SourceFileError at the first NUL byte or invalid UTF-8 sequence."""
    nul = data.find(b"\0")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        if nul < 0 or nul > e.start:
            line, col = position(data, e.start)
            raise SourceFileError(f"'{name}' is not valid UTF-8 text (byte 0x{data[e.start]:02x} at line {line}, "
                                  f"column {col})") from None
    if nul >= 0:
        line, col = position(data, nul)
        raise SourceFileError(f"'{name}' is a binary file, not text (NUL byte at line {line}, column {col})")
    return text


def position(data: bytes, offset: int) -> tuple[int, int]:
    """The 1-based line and byte column of `offset` in `data`."""
    line_start = data.rfind(b"\n", 0, offset) + 1
    return data.count(b"\n", 0, offset) + 1, offset - line_start + 1
