"""scanf's input matching as glibc (2.36, the C locale) does it, over any source of bytes
with one byte of push-back (a FILE, a string).

Invariants:

- `scan` reads the input only through `source.getc()` (a byte, or -1 at the end) and
  `source.ungetc(byte)`, and pushes back at most the one byte that ended a field, as
  glibc does: "100ergs" read with %f consumes "100e" (and stores 100).
- It returns what to store, not where: one `Stored` per conversion that assigns (in
  the order of the pointer arguments), and the count scanf returns (-1, EOF, when the
  input ended before the first conversion).  Integers are converted as glibc converts
  them (strtol / strtoul on the field, then truncated to the stored width), floats
  correctly rounded to float or double (vm/libc.py's strtof / strtod).
- A format minicuda cannot honour (wide strings, long double) raises `ScanfError`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from minicuda.vm import libc

__all__ = ["ScanfError", "Stored", "scan", "BytesSource"]

EOF = -1
_SPACE = b" \t\n\v\f\r"
_SPEC = re.compile(rb"%(\*?)(\d*)(hh|h|ll|l|L|q|j|z|t)?(\[\^?\]?[^\]]*\]|.?)", re.S)
_INT_BYTES = {None: 4, b"hh": 1, b"h": 2, b"l": 8, b"ll": 8, b"q": 8, b"j": 8, b"z": 8, b"t": 8}
_BASES = {b"d": 10, b"i": 0, b"u": 10, b"o": 8, b"x": 16, b"X": 16, b"p": 16}
_FLOATS = b"aAeEfFgG"
_HEX = b"0123456789abcdefABCDEF"


class ScanfError(Exception):
    """The format asks for a conversion minicuda does not support."""


@dataclass
class Stored:
    """What one conversion assigns: an integer of `size` bytes, a float of `size`
    bytes (4 or 8), or bytes (a string, with its NUL where C stores one)."""
    kind: str       # "int", "float" or "bytes"
    size: int
    value: int | float | bytes


class BytesSource:
    """sscanf's input: a string, read to its end."""

    def __init__(self, data: bytes):
        self.data, self.pos = bytes(data), 0

    def getc(self) -> int:
        if self.pos >= len(self.data):
            self.pos = len(self.data) + 1   # as far as getc goes: ungetc puts nothing back
            return EOF
        self.pos += 1
        return self.data[self.pos - 1]

    def ungetc(self, c: int) -> None:
        if c != EOF:
            self.pos -= 1


class _Input:
    """The source and the count of bytes consumed so far (for %n)."""

    def __init__(self, source):
        self.source, self.consumed = source, 0

    def getc(self) -> int:
        c = self.source.getc()
        if c != EOF:
            self.consumed += 1
        return c

    def ungetc(self, c: int) -> None:
        if c != EOF:
            self.source.ungetc(c)
            self.consumed -= 1

    def skip_space(self) -> int:
        """Skip white space; the next byte, pushed back (EOF at the end)."""
        c = self.getc()
        while c != EOF and c in _SPACE:
            c = self.getc()
        self.ungetc(c)
        return c


class _Stop(Exception):
    """Matching ends: `input_failure` when the input ran out, else a byte did not match."""

    def __init__(self, input_failure: bool):
        self.input_failure = input_failure


def scan(fmt: bytes, source) -> tuple[list[Stored], int]:
    """(what the conversions store, scanf's return value)."""
    fmt = bytes(fmt).split(b"\0", 1)[0]
    stream = _Input(source)
    stored: list[Stored] = []
    assigned, converted = 0, False
    pos = 0
    try:
        while pos < len(fmt):
            ch = fmt[pos]
            if ch in _SPACE:
                stream.skip_space()
                pos += 1
                continue
            if ch != ord("%") or fmt[pos + 1:pos + 2] == b"%":
                pos += 2 if ch == ord("%") else 1
                if ch == ord("%"):
                    stream.skip_space()
                _match_byte(stream, ch)
                continue
            match = _SPEC.match(fmt, pos)
            pos = match.end()
            value = _convert(match, stream)
            if value is None:
                continue
            if not match.group(1):
                stored.append(value)
                if match.group(4) != b"n":
                    assigned += 1
            converted = converted or match.group(4) != b"n"
    except _Stop as stop:
        if stop.input_failure and not converted:
            return stored, EOF
    return stored, assigned


def _match_byte(stream: _Input, expected: int) -> None:
    c = stream.getc()
    if c == EOF:
        raise _Stop(True)
    if c != expected:
        stream.ungetc(c)
        raise _Stop(False)


def _convert(match: re.Match, stream: _Input) -> Stored | None:
    text, width, length, conv = match.group(0), match.group(2), match.group(3), match.group(4)
    width = int(width) if width else None
    if width == 0 or conv == b"":
        raise ScanfError(f"scanf: the conversion '{text.decode('latin-1')}' is not valid")
    if (length == b"l" and conv[:1] in b"sc[") or (length == b"L" and conv in _FLOATS):
        raise ScanfError(f"scanf: the conversion '{text.decode('latin-1')}' is not supported")
    if conv == b"n":
        return Stored("int", _INT_BYTES.get(length, 4), stream.consumed)
    if conv[:1] not in b"cs[" + _FLOATS + b"diouxXp":
        raise ScanfError(f"scanf: the conversion '{text.decode('latin-1')}' is not a scanf conversion")
    if conv[:1] not in b"c[" and stream.skip_space() == EOF:
        raise _Stop(True)
    if conv == b"c":
        return Stored("bytes", 0, _take(stream, width or 1, lambda c: True, exact=True))
    if conv == b"s":
        return Stored("bytes", 0, _take(stream, width, lambda c: c not in _SPACE) + b"\0")
    if conv[:1] == b"[":
        return Stored("bytes", 0, _take(stream, width, _scanset(conv)) + b"\0")
    if conv in _FLOATS:
        return _float(stream, width, length)
    return _integer(stream, width, length, conv)


def _take(stream: _Input, width: int | None, accepts, exact: bool = False) -> bytes:
    """Bytes while `accepts` them, at most `width`; none at all is a failure."""
    out = bytearray()
    c = EOF
    while width is None or len(out) < width:
        c = stream.getc()
        if c == EOF:
            break
        if not accepts(c):
            stream.ungetc(c)
            break
        out.append(c)
    if not out:
        raise _Stop(c == EOF)
    if exact and len(out) < width:   # %5c short of its five bytes: glibc assigns nothing
        raise _Stop(True)
    return bytes(out)


def _scanset(conv: bytes):
    body = conv[1:-1]
    negate = body.startswith(b"^")
    body = body[1:] if negate else body
    members, i = set(), 0
    while i < len(body):
        if i + 2 < len(body) and body[i + 1] == ord("-"):   # a-z; a '-' first or last is itself
            members.update(range(body[i], body[i + 2] + 1))
            i += 3
        else:
            members.add(body[i])
            i += 1
    return (lambda c: c not in members) if negate else (lambda c: c in members)


class _Field:
    """A numeric field read byte by byte within a width."""

    def __init__(self, stream: _Input, width: int | None):
        self.stream, self.left, self.text = stream, width if width is not None else 1 << 62, bytearray()
        self.next = self._peek()

    def _peek(self) -> int:
        if self.left <= 0:
            return EOF
        return self.stream.getc()

    def at(self, allowed: bytes) -> bool:
        return self.next != EOF and self.next in allowed

    def accept(self, allowed: bytes) -> bool:
        if self.at(allowed):
            self.text.append(self.next)
            self.left -= 1
            self.next = self._peek()
            return True
        return False

    def accept_word(self, word: bytes) -> bool:
        """The rest of a word like "inf", any case, each byte a new look-ahead."""
        for ch in word:
            if not self.accept(bytes([ch, ch ^ 0x20])):
                return False
        return True

    def finish(self) -> bytes:
        self.stream.ungetc(self.next)
        return bytes(self.text)


def _integer(stream: _Input, width: int | None, length: bytes | None, conv: bytes) -> Stored:
    field = _Field(stream, width)
    field.accept(b"+-")
    base = _BASES[conv]
    if base in (0, 16) and field.accept(b"0"):
        if field.accept(b"xX"):
            base = 16
        elif base == 0:
            base = 8
    elif base == 0:
        base = 10
    digits = {8: b"01234567", 10: b"0123456789", 16: _HEX}[base]
    while field.accept(digits):
        pass
    text = field.finish()
    if not any(c in digits for c in text.lstrip(b"+-")):
        raise _Stop(False)
    parse = libc.strtol if conv in b"di" else libc.strtoul
    value, _ = parse(text, base)
    size = 8 if conv == b"p" else _INT_BYTES.get(length, 8)
    return Stored("int", size, value & ((1 << (8 * size)) - 1))


def _float(stream: _Input, width: int | None, length: bytes | None) -> Stored:
    """The longest prefix of a floating constant the field holds, read byte by byte;
    glibc converts what of it is a number ("100e" of "100ergs" is 100)."""
    field = _Field(stream, width)
    field.accept(b"+-")
    if field.at(b"iI"):
        if field.accept_word(b"inf") and field.at(b"iI"):
            field.accept_word(b"inity")
    elif field.at(b"nN"):
        field.accept_word(b"nan")
    else:
        digits, mark = b"0123456789", b"eE"
        if field.accept(b"0") and field.accept(b"xX"):
            digits, mark = _HEX, b"pP"
        while field.accept(digits):
            pass
        if field.accept(b"."):
            while field.accept(digits):
                pass
        if field.accept(mark):
            field.accept(b"+-")
            while field.accept(b"0123456789"):
                pass
    text = field.finish()
    value, consumed = (libc.strtof if length is None else libc.strtod)(text)
    if not consumed:
        raise _Stop(False)
    return Stored("float", 4 if length is None else 8, value)
