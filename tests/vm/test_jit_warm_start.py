"""A second run of an unchanged program loads its native code from the JIT's disk cache
without generating LLVM IR (the code generator is not even imported), and a run on the
interpreter never loads llvmlite; the cache key (vm/jit/engine.py's `code_description`)
names what the code is generated from, and nothing more."""
import os
import struct
import subprocess
import sys

import minicuda
from minicuda.ir import Imm, Instr, Reg
from minicuda.vm.jit import cache, native
from minicuda.vm.jit.engine import code_description, instr_description
from minicuda.vm.machine import Machine

PROGRAM = r"""#include <cstdio>
__global__ void twice(int *a) { a[threadIdx.x] = 2 * threadIdx.x; }
int main() { int *d, h[32]; cudaMalloc(&d, sizeof h); twice<<<1, 32>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost); printf("%d %d\n", h[1], h[31]); return 0; }
"""
# minicuda run, then which of the JIT's heavy modules the process imported
CHILD = """
import sys
from minicuda.cli import minicuda_main
status = minicuda_main(sys.argv[1:])
print("codegen" if "minicuda.vm.jit.module" in sys.modules else "no-codegen",
      "llvm" if "llvmlite" in sys.modules else "no-llvm", file=sys.stderr)
sys.exit(status)
"""


def run(program, cache_dir, *options) -> subprocess.CompletedProcess:
    env = dict(os.environ, MINICUDA_CACHE_DIR=str(cache_dir))
    for name in ("MINICUDA_JIT_CACHE", "MINICUDA_COMPILE_CACHE", "MINICUDA_COMPILE_CACHE_DIR"):
        env.pop(name, None)
    return subprocess.run([sys.executable, "-c", CHILD, "run", *options, str(program)], env=env,
                          capture_output=True, text=True)


def test_a_second_run_generates_no_llvm_ir(tmp_path):
    program = tmp_path / "twice.cu"
    program.write_text(PROGRAM)
    first = run(program, tmp_path / "cache")
    assert (first.returncode, first.stdout, first.stderr) == (0, "2 62\n", "codegen llvm\n")
    second = run(program, tmp_path / "cache")
    assert (second.returncode, second.stdout, second.stderr) == (0, "2 62\n", "no-codegen llvm\n")


def test_the_interpreter_never_loads_llvm(tmp_path):
    program = tmp_path / "twice.cu"
    program.write_text(PROGRAM)
    r = run(program, tmp_path / "cache", "--engine", "interp")
    assert (r.returncode, r.stdout, r.stderr) == (0, "2 62\n", "no-codegen no-llvm\n")


def describe(source: str, name: str) -> str:
    code = Machine(minicuda.compile(source, opt=0), engine="interp").interp.code(name)
    return code_description(code, "stack", 1, [], False, False)


def test_the_key_ignores_source_locations_and_keeps_every_instruction():
    body = "int f(int x) { return x * 3 + 1; }\nint main() { return f(2); }\n"
    assert describe(body, "f") == describe("// moved down\n\n" + body, "f")
    assert describe(body, "f") != describe(body.replace("3", "5"), "f")


def test_the_key_tells_nan_payloads_apart():
    quiet, other = (struct.unpack("<d", bytes.fromhex(bits))[0] for bits in ("000000000000f87f", "010000000000f87f"))
    one = Instr("MOV", (), (Reg("R1"),), (Imm(quiet),))
    two = Instr("MOV", (), (Reg("R1"),), (Imm(other),))
    assert str(one) == str(two) and instr_description(one, {}) != instr_description(two, {})


def test_the_disk_key_names_minicuda_itself(monkeypatch):
    """An edited minicuda (another fingerprint of its sources) never reuses older native code."""
    key = native.LLVM.get().entry_key("description")
    monkeypatch.setattr(native, "sources_fingerprint", lambda: "another minicuda")
    assert native.LLVM.get().entry_key("description") != key


def test_a_payload_without_entry_pcs_is_discarded(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("MINICUDA_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("MINICUDA_JIT_CACHE", raising=False)
    path = cache.entry_path("k")
    cache.save(path, "k", b"object code with no line of entry pcs")
    assert native.LLVM.get().load("k") is None and not path.exists()
    assert "discarding damaged JIT cache entry" in capsys.readouterr().err
