"""The JIT's disk cache: compiled object code kept between runs, verified before use.

An entry is one file, `<key>.jit` in the cache directory, named by a hash of what
it was compiled from (the function's description, minicuda's sources, the CPU, the
compiler's versions and FORMAT; vm/jit/native.py).  It holds a header line and the
payload, the pcs native code can be entered at and the object code:

    MINICUDA-JIT <FORMAT> <compiler> <key> <length> <sha256 of the payload>\\n<payload>

`load` returns the object only when every field matches this compiler and this key
and the object has its length and checksum; anything else (a truncated or
overwritten file, random bytes, an entry of another minicuda, llvmlite or LLVM) is
discarded, with one warning line on stderr, and compiled again: LLVM is never
handed bytes that it did not write for this very module.  `save` writes a new
entry to a temporary file in the same directory and renames it into place, so a
reader, or a concurrent writer, never sees part of an entry.
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

import llvmlite
import llvmlite.binding as llvm

from minicuda.cache_entry import EntryFormat
from minicuda.version import __version__

FORMAT = 2   # 2: the payload starts with the entry pcs
ENTRIES = EntryFormat(b"MINICUDA-JIT", FORMAT, "JIT cache", "object code", "other code")


def compiler_id() -> str:
    """What made the object code: minicuda, llvmlite and LLVM, by version."""
    return f"minicuda-{__version__}/llvmlite-{llvmlite.__version__}/llvm-{'.'.join(map(str, llvm.llvm_version_info))}"


def cache_dir() -> Path | None:
    """Where compiled objects are kept between runs: $MINICUDA_CACHE_DIR, else
    $XDG_CACHE_HOME/minicuda or ~/.cache/minicuda; MINICUDA_JIT_CACHE=0 turns it off."""
    if os.environ.get("MINICUDA_JIT_CACHE", "1") == "0":
        return None
    base = os.environ.get("MINICUDA_CACHE_DIR") or \
        os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "minicuda")
    return Path(base) / "jit"


def entry_key(*parts: str) -> str:
    """The name of the entry compiled from `parts` by this compiler in this format."""
    return hashlib.sha1("\0".join((*parts, compiler_id(), str(FORMAT))).encode()).hexdigest()


def entry_path(key: str) -> Path | None:
    directory = cache_dir()
    return directory / f"{key}.jit" if directory is not None else None


def header(key: str, data: bytes) -> bytes:
    return ENTRIES.header(compiler_id(), key, data)


def load(path: Path | None, key: str) -> bytes | None:
    """The object code of the entry at `path`, when there is one and it is sound; a
    damaged or foreign entry is removed, with a warning, and None returned."""
    if path is None:
        return None
    data, why = ENTRIES.read(path, compiler_id(), key)
    if why:
        ENTRIES.discard(path, why)
    return data


def verified(blob: bytes, key: str) -> tuple[bytes | None, str]:
    """(the object code, "") when `blob` is a sound entry for `key`, else (None, what is wrong)."""
    return ENTRIES.verified(blob, compiler_id(), key)


def save(path: Path | None, key: str, data: bytes) -> None:
    """Write the entry (a temporary file renamed into place); a cache that cannot be
    written is only slower."""
    if path is not None:
        ENTRIES.write(path, compiler_id(), key, data)
