"""The one shape of minicuda's on-disk cache entries: the JIT's object code
(vm/jit/cache.py) and the compile cache's modules (minicuda/compile_cache.py).

An entry is a one-line header and its payload:

    MAGIC <format> <producer> <key> <length> <sha256 of the payload>\\n<payload>

It is used only when every field agrees (the producer names the minicuda, or the
minicuda and LLVM, that wrote it).  A damaged or foreign entry is removed with one
warning line, and its owner builds it again; a new entry is written to a temporary
file and renamed into place, so no reader or concurrent writer sees part of one.
Imports nothing heavy: a run from the compile cache loads this and not the compiler.
`sources_fingerprint` names minicuda itself (its version, and the path, size and
modification time of each of its source files), which both caches' keys hold: an
edited compiler or VM never reuses an older one's entries.
"""
from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import threading
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from minicuda.version import __version__

MAX_HEADER = 512
PACKAGES = ("minicuda", "minicuda.grammar", "minicuda.passes", "minicuda.vm")
SOURCE_SUFFIXES = (".py", ".lark")


@cache
def sources_fingerprint() -> str:
    """minicuda's version and the path, size and mtime of each of its source files (once
    per process)."""
    digest = hashlib.sha256(__version__.encode())
    for package in PACKAGES:
        for folder in importlib.util.find_spec(package).submodule_search_locations:
            for dirpath, dirnames, filenames in os.walk(folder):
                dirnames[:] = sorted(d for d in dirnames if os.path.exists(os.path.join(dirpath, d, "__init__.py")))
                for name in sorted(filenames):
                    if name.endswith(SOURCE_SUFFIXES):
                        stat = os.stat(os.path.join(dirpath, name))
                        digest.update(f"{dirpath}/{name}\0{stat.st_size}\0{stat.st_mtime_ns}\0".encode())
    return digest.hexdigest()


def compile_cache_dir() -> Path | None:
    """The compile cache's directory (minicuda/compile_cache.py; the parser keeps its
    prelude's state in it too, grammar/prelude.py): $MINICUDA_COMPILE_CACHE_DIR, else
    modules/ in the JIT's cache directory ($MINICUDA_CACHE_DIR, $XDG_CACHE_HOME/minicuda
    or ~/.cache/minicuda); None when MINICUDA_COMPILE_CACHE=0 turns the cache off."""
    if os.environ.get("MINICUDA_COMPILE_CACHE", "1") == "0":
        return None
    if os.environ.get("MINICUDA_COMPILE_CACHE_DIR"):
        return Path(os.environ["MINICUDA_COMPILE_CACHE_DIR"])
    base = os.environ.get("MINICUDA_CACHE_DIR") or \
        os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "minicuda")
    return Path(base) / "modules"


@dataclass(frozen=True)
class EntryFormat:
    """One cache's entries: its magic word and format number, what its warnings call the
    cache ("JIT cache") and the payload ("object code"), and which code it is for."""
    magic: bytes
    version: int
    cache: str
    payload: str
    subject: str   # what another key's entry is for: "other code", "another program"

    def header(self, producer: str, key: str, data: bytes) -> bytes:
        return b" ".join((self.magic, str(self.version).encode(), producer.encode(), key.encode(),
                          str(len(data)).encode(), hashlib.sha256(data).hexdigest().encode())) + b"\n"

    def verified(self, blob: bytes, producer: str, key: str) -> tuple[bytes | None, str]:
        """(the payload, "") when `blob` is a sound entry for `key`, else (None, what is wrong)."""
        end = blob.find(b"\n", 0, MAX_HEADER)
        fields = blob[:end].split(b" ") if end >= 0 else []
        if len(fields) != 6 or fields[0] != self.magic:
            return None, f"not a minicuda {self.cache} entry"
        if fields[1] != str(self.version).encode() or fields[2] != producer.encode():
            return None, f"written by {fields[2].decode('latin-1')} in format {fields[1].decode('latin-1')}"
        if fields[3] != key.encode():
            return None, f"an entry for {self.subject}"
        data = blob[end + 1:]
        if fields[4] != str(len(data)).encode():
            return None, f"{len(data)} bytes of {self.payload}, not {fields[4].decode('latin-1')}"
        if fields[5] != hashlib.sha256(data).hexdigest().encode():
            return None, "checksum mismatch"
        return data, ""

    def read(self, path: Path, producer: str, key: str) -> tuple[bytes | None, str]:
        """(the payload of the entry at `path`, "") when it is sound; (None, "") when there is
        none or it cannot be read (built again, written anew); (None, what is wrong) else."""
        try:
            blob = path.read_bytes()
        except OSError:
            return None, ""
        return self.verified(blob, producer, key)

    def discard(self, path: Path, why: str) -> None:
        """Remove a damaged or foreign entry, saying so once."""
        print(f"minicuda: warning: discarding damaged {self.cache} entry {path} ({why}); compiling it again",
              file=sys.stderr)
        try:
            path.unlink()
        except OSError:
            pass

    def write(self, path: Path, producer: str, key: str, data: bytes) -> None:
        """Write the entry (a temporary file renamed into place); a cache that cannot be
        written is only slower."""
        tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with open(tmp, "wb") as f:
                f.write(self.header(producer, key, data) + data)
            os.replace(tmp, path)
        except OSError:
            try:
                tmp.unlink()
            except OSError:
                pass
