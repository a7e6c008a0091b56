"""The JIT's disk cache (vm/jit/cache.py): an entry is used only when its header names
this compiler, this format and this code, and its object code has its length and
checksum; a damaged or foreign entry is discarded with one warning line and compiled
again, so the program's output and exit status are as without a cache (before, LLVM
aborted: "The file was not recognized as a valid object file", exit 134, or SIGSEGV)."""
import os
import subprocess
import threading

import pytest

from minicuda.vm.jit import cache

PROGRAM = r"""#include <stdio.h>
__global__ void twice(int *a) { a[threadIdx.x] = 2 * threadIdx.x; }
int main() { int *d, h[32]; cudaMalloc(&d, sizeof h); twice<<<1, 32>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost); printf("%d %d\n", h[1], h[31]); return 0; }
"""
WARNING = "minicuda: warning: discarding damaged JIT cache entry "


def run(program, cache_dir) -> subprocess.CompletedProcess:
    env = dict(os.environ, MINICUDA_CACHE_DIR=str(cache_dir))
    env.pop("MINICUDA_JIT_CACHE", None)
    return subprocess.run(["minicuda", "run", str(program)], env=env, capture_output=True, text=True)


def foreign(blob: bytes) -> bytes:
    """The entry as another minicuda would have written it (a valid object, a header not ours)."""
    head, _, data = blob.partition(b"\n")
    fields = head.split(b" ")
    fields[2] = b"minicuda-0.0.1/llvmlite-0.1/llvm-3.0"
    return b" ".join(fields) + b"\n" + data


DAMAGE = {
    "truncated": lambda blob: blob[:len(blob) // 2],
    "empty": lambda blob: b"",
    "random bytes": lambda blob: os.urandom(len(blob)),
    "a bare object file": lambda blob: blob.partition(b"\n")[2],
    "one byte flipped": lambda blob: blob[:-40] + bytes([blob[-40] ^ 0xFF]) + blob[-39:],
    "another version's entry": foreign,
}


@pytest.fixture(scope="module")
def entries(tmp_path_factory):
    """A program and the cache its first run wrote: {entry name: its bytes}."""
    where = tmp_path_factory.mktemp("jitcache")
    program = where / "twice.cu"
    program.write_text(PROGRAM)
    first = run(program, where / "cache")
    assert first.returncode == 0 and first.stdout == "2 62\n" and first.stderr == ""
    files = {p.name: p.read_bytes() for p in (where / "cache" / "jit").iterdir()}
    assert files and all(name.endswith(".jit") for name in files)
    return program, files


@pytest.mark.slow
@pytest.mark.parametrize("damage", list(DAMAGE))
def test_a_damaged_entry_is_discarded_and_compiled_again(tmp_path, entries, damage):
    program, files = entries
    (tmp_path / "jit").mkdir()
    for name, blob in files.items():
        (tmp_path / "jit" / name).write_bytes(DAMAGE[damage](blob))
    r = run(program, tmp_path)
    assert r.returncode == 0 and r.stdout == "2 62\n"
    warnings = r.stderr.splitlines()
    assert len(warnings) == len(files) and all(w.startswith(WARNING) for w in warnings), r.stderr
    assert {p.name: p.read_bytes() for p in (tmp_path / "jit").iterdir()} == files   # rebuilt as it was
    again = run(program, tmp_path)
    assert (again.returncode, again.stdout, again.stderr) == (0, "2 62\n", "")


def test_verified_accepts_only_a_sound_entry_for_its_key():
    data = bytes(range(256)) * 8
    blob = cache.header("k1", data) + data
    assert cache.verified(blob, "k1") == (data, "")
    assert cache.verified(blob, "k2")[0] is None
    assert cache.verified(blob + b"x", "k1")[0] is None
    assert cache.verified(blob[:-1], "k1")[0] is None
    assert cache.verified(foreign(blob), "k1")[0] is None
    assert cache.verified(b"\n" * 10, "k1")[0] is None


def test_concurrent_writers_never_leave_part_of_an_entry(tmp_path, monkeypatch):
    monkeypatch.setenv("MINICUDA_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("MINICUDA_JIT_CACHE", raising=False)
    path = cache.entry_path("k")
    payloads = [bytes([n]) * 300_000 for n in range(8)]
    seen = []

    def write(data):
        for _ in range(5):
            cache.save(path, "k", data)

    def read():
        for _ in range(200):
            if path.exists():
                seen.append(cache.verified(path.read_bytes(), "k")[0])

    threads = [threading.Thread(target=write, args=(p,)) for p in payloads] + [threading.Thread(target=read)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(s in payloads for s in seen)
    assert cache.load(path, "k") in payloads
    assert [p.name for p in tmp_path.joinpath("jit").iterdir()] == [path.name]   # no temporary file left
