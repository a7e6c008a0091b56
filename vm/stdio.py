"""C's FILE streams for host code: real files relative to the working directory and
the three standard streams, as glibc (2.36, Linux) runs them.

A FILE * the program holds is the address of a FILE-sized host allocation (glibc's
sizeof(FILE)), so a NULL or closed stream is caught as the native program's fault
is: every call reads a byte of it first, and `fclose` frees it, so a later use is a
use after free (SIGSEGV, with where it was closed).  The address maps to a `CFile`.

Invariants:

- A `CFile` buffers as glibc does: a disk file's writes stay in a 4096-byte buffer
  until it fills, `fflush`, `fseek`, `fclose` or the program's end (`exit` or
  returning from main) flush them; a program killed by a signal or `abort()` loses
  them, as the native one does.  Reads fill a buffer of the same size; a read after
  a write flushes first and a write after a read moves the file back to the
  position the program has reached, so `r+` streams see their own writes.
- End of file is sticky (glibc 2.28 on): once a read hit it, reads return EOF until
  `clearerr`, `fseek` or `rewind`.
- stdout and stderr write through the runtime's streams; a write to stderr first
  flushes stdout, so the two interleave as on a terminal.  stdin is read lazily.
- Failures set `errno` (a host int the program reads through `errno`), with
  Linux's numbers and glibc's strerror texts.
"""
from __future__ import annotations

import errno as E
import os
import struct
import sys

from minicuda.vm.scanf import BytesSource, ScanfError, Stored, scan

FILE_SIZE = 216          # glibc's sizeof(FILE) on x86-64
BUFFER = 4096            # glibc's buffer: st_blksize of a file on most file systems
EOF = -1
STANDARD_STREAMS = ("stdin", "stdout", "stderr")
SEEK_WHENCE = {0: os.SEEK_SET, 1: os.SEEK_CUR, 2: os.SEEK_END}


def standard_streams(memory) -> dict[str, int]:
    """The FILE objects stdin, stdout and stderr point at (made before the program's
    globals, which hold their addresses)."""
    return {name: memory.alloc(FILE_SIZE, "static", name, align=16) for name in STANDARD_STREAMS}


def open_flags(mode: bytes) -> tuple[int, bool, bool] | None:
    """(os.open flags, readable, writable) for an fopen mode; None when glibc refuses it."""
    if not mode or mode[0] not in b"rwa":
        return None
    plus = b"+" in mode[1:7]
    access = os.O_RDWR if plus else os.O_RDONLY if mode[0] == ord("r") else os.O_WRONLY
    flags = access | {ord("r"): 0, ord("w"): os.O_CREAT | os.O_TRUNC, ord("a"): os.O_CREAT | os.O_APPEND}[mode[0]]
    if b"x" in mode[1:7] and mode[0] != ord("r"):
        flags |= os.O_EXCL
    return flags, plus or mode[0] == ord("r"), plus or mode[0] != ord("r")


class CFile:
    """One stream: its buffers and flags; the backend (a file descriptor, or one of
    the runtime's standard streams) is the subclass's."""

    def __init__(self, name: str, readable: bool, writable: bool, set_errno):
        self.name, self.readable, self.writable = name, readable, writable
        self.set_errno = set_errno
        self.buf, self.pos = b"", 0        # read-ahead and how much of it the program has read
        self.pending = bytearray()          # written, not yet handed to the backend
        self.eof = self.error = False

    # the backend
    def fill(self) -> bytes:
        raise NotImplementedError

    def emit(self, data: bytes) -> None:
        raise NotImplementedError

    def backend_seek(self, offset: int, whence: int) -> int:
        raise OSError(E.ESPIPE, os.strerror(E.ESPIPE))

    def backend_close(self) -> None:
        pass

    # reading
    def failed(self, code: int) -> int:
        self.error = True
        self.set_errno(code)
        return EOF

    def refill(self) -> bool:
        """More read-ahead; False at the end of the input (or a read error)."""
        if self.eof:
            return False
        if not self.readable:
            self.failed(E.EBADF)
            return False
        self.flush()
        try:
            self.buf, self.pos = self.fill(), 0
        except OSError as e:
            self.buf, self.pos = b"", 0
            self.failed(e.errno or E.EIO)
            return False
        if not self.buf:
            self.eof = True
        return bool(self.buf)

    def getc(self) -> int:
        if self.pos >= len(self.buf) and not self.refill():
            return EOF
        self.pos += 1
        return self.buf[self.pos - 1]

    def ungetc(self, c: int) -> int:
        if c == EOF:
            return EOF
        c &= 0xFF
        if self.pos > 0 and self.buf[self.pos - 1] == c:
            self.pos -= 1
        else:
            self.buf, self.pos = bytes([c]) + self.buf[self.pos:], 0
        self.eof = False
        return c

    def read(self, n: int) -> bytes:
        out = bytearray()
        while len(out) < n:
            if self.pos >= len(self.buf) and not self.refill():
                break
            take = self.buf[self.pos:self.pos + n - len(out)]
            self.pos += len(take)
            out += take
        return bytes(out)

    def readline(self, limit: int) -> bytes:
        """fgets: up to `limit` bytes, through the first newline."""
        out = bytearray()
        while len(out) < limit:
            if self.pos >= len(self.buf) and not self.refill():
                break
            end = self.buf.find(b"\n", self.pos, self.pos + limit - len(out))
            stop = end + 1 if end >= 0 else min(len(self.buf), self.pos + limit - len(out))
            out += self.buf[self.pos:stop]
            self.pos = stop
            if end >= 0:
                break
        return bytes(out)

    # writing
    def write(self, data: bytes) -> bool:
        if not self.writable:
            self.failed(E.EBADF)
            return False
        if self.pos < len(self.buf):   # the program read up to pos: the file goes back there
            try:
                self.backend_seek(self.pos - len(self.buf), os.SEEK_CUR)
            except OSError:
                pass
        self.buf, self.pos = b"", 0
        self.pending += data
        if len(self.pending) >= BUFFER:
            return self.flush()
        return True

    def flush(self) -> bool:
        if not self.pending:
            return True
        data, self.pending = bytes(self.pending), bytearray()
        try:
            self.emit(data)
        except OSError as e:
            self.failed(e.errno or E.EIO)
            return False
        return True

    # positioning
    def tell(self) -> int:
        try:
            return self.backend_seek(0, os.SEEK_CUR) - (len(self.buf) - self.pos) + len(self.pending)
        except OSError as e:
            self.set_errno(e.errno)
            return -1

    def seek(self, offset: int, whence: int) -> bool:
        if whence not in SEEK_WHENCE:
            self.set_errno(E.EINVAL)
            return False
        if whence == 1:
            offset += self.tell()
            whence = 0
        self.flush()
        try:
            if self.backend_seek(offset, SEEK_WHENCE[whence]) < 0:
                raise OSError(E.EINVAL, "")
        except OSError as e:
            self.set_errno(e.errno or E.EINVAL)
            return False
        self.buf, self.pos, self.eof = b"", 0, False
        return True

    def close(self, flush: bool = True) -> bool:
        done = self.flush() if flush else True
        self.backend_close()
        return done


class DiskFile(CFile):
    """A file fopen opened: a file descriptor, read and written in the buffer's blocks."""

    def __init__(self, name: str, fd: int, readable: bool, writable: bool, set_errno):
        super().__init__(name, readable, writable, set_errno)
        self.fd = fd

    def fill(self) -> bytes:
        return os.read(self.fd, BUFFER)

    def emit(self, data: bytes) -> None:
        while data:
            data = data[os.write(self.fd, data):]

    def backend_seek(self, offset: int, whence: int) -> int:
        return os.lseek(self.fd, offset, whence)

    def backend_close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


class StandardStream(CFile):
    """stdin, stdout or stderr: the runtime's streams, written through at once."""

    def __init__(self, name: str, runtime, set_errno):
        super().__init__(name, name == "stdin", name != "stdin", set_errno)
        self.runtime = runtime

    def fill(self) -> bytes:
        self.runtime.out.flush()   # a prompt comes out before the program waits for its answer
        source = self.runtime.stdin()
        return source.read1(BUFFER) if hasattr(source, "read1") else source.read(BUFFER)

    def write(self, data: bytes) -> bool:
        if not self.writable:
            self.failed(E.EBADF)
            return False
        if self.name == "stderr":
            sys.stdout.flush()
            self.runtime.out.flush()
            self.runtime.err.write(data)
            self.runtime.err.flush()
        else:
            self.runtime.out.write(data)
        return True

    def flush(self) -> bool:
        if self.name == "stdout":
            self.runtime.out.flush()
        return True


class StdioCalls:
    """The runtime's <stdio.h> and <errno.h> calls (mixed into vm/runtime.py's Runtime,
    which gives `memory`, `machine`, `out`, `err`, `format` and `write_string`)."""

    def init_stdio(self, stdin=None) -> None:
        self.stdin_stream = stdin
        self.errno_address = self.memory.alloc(4, "static", "errno", align=4)
        self.files: dict[int, CFile] = {}
        self.closed_standard: set[int] = set()
        for name, address in self.machine.stream_handles.items():
            self.files[address] = StandardStream(name, self, self.set_errno)

    def stdin(self):
        if self.stdin_stream is None:
            self.stdin_stream = getattr(sys.stdin, "buffer", None) or open(os.devnull, "rb")
        return self.stdin_stream

    def set_errno(self, code: int) -> None:
        self.memory.write(self.errno_address, struct.pack("<i", code))

    def stream(self, handle: int) -> CFile | None:
        """The stream a FILE * names, its FILE read as glibc reads it first (NULL or a
        closed stream faults); None for a standard stream the program closed."""
        self.memory.read(handle, 1)
        if handle in self.closed_standard:
            self.set_errno(E.EBADF)
            return None
        file = self.files.get(handle)
        if file is None:
            raise RuntimeError(f"the pointer {handle:#x} passed as a FILE * is not a stream fopen returned")
        return file

    def close_files(self, flush: bool) -> None:
        """At the program's end: what exit() flushes, or (`flush` False) what a signal loses."""
        for file in self.files.values():
            file.close(flush)
        self.files.clear()

    # ---- opening and closing -----------------------------------------------------------------
    def rt_fopen(self, path, mode) -> int:
        name, mode = self.memory.read_cstring(path), self.memory.read_cstring(mode)
        opened = open_flags(mode)
        if opened is None:
            self.set_errno(E.EINVAL)
            return 0
        flags, readable, writable = opened
        try:
            fd = os.open(name, flags | getattr(os, "O_CLOEXEC", 0), 0o666)
        except OSError as e:
            self.set_errno(e.errno or E.EIO)
            return 0
        handle = self.memory.alloc(FILE_SIZE, "host", f'fopen("{name.decode("latin-1")}", '
                                                      f'"{mode.decode("latin-1")}")', align=16)
        self.files[handle] = DiskFile(name.decode("latin-1"), fd, readable, writable, self.set_errno)
        return handle

    def rt_fclose(self, handle) -> int:
        file = self.stream(handle)
        if file is None:
            return EOF & 0xFFFFFFFF
        done = file.close()
        if isinstance(file, StandardStream):
            self.closed_standard.add(handle)
        else:
            del self.files[handle]
            self.memory.free(handle, "host")
        return 0 if done else EOF & 0xFFFFFFFF

    def rt_remove(self, path) -> int:
        name = self.memory.read_cstring(path)
        try:
            os.rmdir(name) if os.path.isdir(name) and not os.path.islink(name) else os.remove(name)
        except OSError as e:
            self.set_errno(e.errno or E.EIO)
            return EOF & 0xFFFFFFFF
        return 0

    def rt_rename(self, old, new) -> int:
        try:
            os.rename(self.memory.read_cstring(old), self.memory.read_cstring(new))
        except OSError as e:
            self.set_errno(e.errno or E.EIO)
            return EOF & 0xFFFFFFFF
        return 0

    # ---- writing --------------------------------------------------------------------------
    def put(self, handle: int, data: bytes) -> bool:
        file = self.stream(handle)
        return file is not None and file.write(data)

    def rt_fprintf(self, handle, *args) -> int:
        self.stream(handle)
        text = self.format(list(args))
        return len(text) if self.put(handle, text) else EOF & 0xFFFFFFFF

    def rt_fputs(self, s, handle) -> int:
        self.stream(handle)
        return 1 if self.put(handle, self.memory.read_cstring(s)) else EOF & 0xFFFFFFFF

    def rt_fputc(self, c, handle) -> int:
        return c & 0xFF if self.put(handle, bytes([c & 0xFF])) else EOF & 0xFFFFFFFF

    def rt_fwrite(self, p, size, n, handle) -> int:
        self.stream(handle)
        if not size or not n:
            return 0
        return n if self.put(handle, self.memory.read(p, size * n)) else 0

    def rt_fflush(self, handle) -> int:
        files = list(self.files.values()) if handle == 0 else [self.stream(handle)]
        done = all(f.flush() for f in files if f is not None)
        return 0 if done and None not in files else EOF & 0xFFFFFFFF

    def rt_perror(self, s) -> int:
        code = struct.unpack("<i", self.memory.read(self.errno_address, 4))[0]
        prefix = self.memory.read_cstring(s) if s else b""
        self.files[self.machine.stream_handles["stderr"]].write(
            (prefix + b": " if prefix else b"") + os.strerror(code).encode() + b"\n")
        return 0

    # ---- reading --------------------------------------------------------------------------
    def rt_fgetc(self, handle) -> int:
        file = self.stream(handle)
        return (EOF if file is None else file.getc()) & 0xFFFFFFFF

    def rt_getchar(self) -> int:
        return self.rt_fgetc(self.machine.stream_handles["stdin"])

    def rt_ungetc(self, c, handle) -> int:
        file = self.stream(handle)
        c = c & 0xFFFFFFFF
        return (EOF if file is None or c == 0xFFFFFFFF else file.ungetc(c)) & 0xFFFFFFFF

    def rt_fgets(self, buffer, n, handle) -> int:
        file = self.stream(handle)
        n = n - (1 << 32) if n & 0x80000000 else n & 0xFFFFFFFF
        if file is None or n <= 0:
            return 0
        line = file.readline(n - 1)
        if not line and (n > 1 or file.error):
            return 0
        self.write_string(buffer, line)
        return buffer

    def rt_fread(self, p, size, n, handle) -> int:
        file = self.stream(handle)
        if file is None or not size or not n:
            return 0
        data = file.read(size * n)
        self.memory.write(p, data)
        return len(data) // size

    def rt_fscanf(self, handle, fmt, *pointers) -> int:
        file = self.stream(handle)
        if file is None:
            return EOF & 0xFFFFFFFF
        return self.scan_into(fmt, file, pointers)

    def rt_scanf(self, fmt, *pointers) -> int:
        return self.rt_fscanf(self.machine.stream_handles["stdin"], fmt, *pointers)

    def rt_sscanf(self, s, fmt, *pointers) -> int:
        return self.scan_into(fmt, BytesSource(self.memory.read_cstring(s)), pointers)

    def scan_into(self, fmt: int, source, pointers) -> int:
        try:
            stored, count = scan(self.memory.read_cstring(fmt), source)
        except ScanfError as e:
            raise RuntimeError(str(e)) from None
        if len(stored) > len(pointers):
            raise RuntimeError(f"scanf: conversion {len(pointers) + 1} has no pointer argument to store to")
        for value, p in zip(stored, pointers):
            self.memory.write(p, _stored_bytes(value))
        return count & 0xFFFFFFFF

    # ---- state and position -----------------------------------------------------------------
    def rt_feof(self, handle) -> int:
        file = self.stream(handle)
        return int(file is not None and file.eof)

    def rt_ferror(self, handle) -> int:
        file = self.stream(handle)
        return int(file is not None and file.error)

    def rt_clearerr(self, handle) -> int:
        file = self.stream(handle)
        if file is not None:
            file.eof = file.error = False
        return 0

    def rt_fseek(self, handle, offset, whence) -> int:
        file = self.stream(handle)
        offset = offset - (1 << 64) if offset >> 63 else offset
        return 0 if file is not None and file.seek(offset, whence & 0xFFFFFFFF) else EOF & 0xFFFFFFFF

    def rt_ftell(self, handle) -> int:
        file = self.stream(handle)
        return (file.tell() if file is not None else -1) & 0xFFFFFFFFFFFFFFFF

    def rt_rewind(self, handle) -> int:
        file = self.stream(handle)
        if file is not None and file.seek(0, 0):
            file.error = False
        return 0

    # ---- errno ------------------------------------------------------------------------------
    def rt_errno_location(self) -> int:
        return self.errno_address

    def rt_strerror(self, code) -> int:
        code = code - (1 << 32) if code & 0x80000000 else code & 0xFFFFFFFF
        return self.machine.string(os.strerror(code).encode())


def _stored_bytes(value: Stored) -> bytes:
    if value.kind == "bytes":
        return value.value
    if value.kind == "float":
        return struct.pack("<f" if value.size == 4 else "<d", value.value)
    return (int(value.value) & ((1 << (8 * value.size)) - 1)).to_bytes(value.size, "little")
