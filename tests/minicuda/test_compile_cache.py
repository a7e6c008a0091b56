"""The compile cache (minicuda/compile_cache.py): a second `minicuda run` of an unchanged
program takes its module from the cache, compiling nothing, and prints exactly what the
first run printed (warnings included, errors compiled and printed again); a changed
header is a new program; a damaged entry is discarded with one warning line and the
program compiled again."""
import pytest

from minicuda import compile_cache
from minicuda.cli import minicuda_main
from minicuda.diagnostics import DiagnosticEngine
from minicuda.grammar.preprocess import preprocess

WARNS = r"""#include <cstdio>
#include "value.h"
int main() { int never = 0; if (VALUE < 0) never = 1 / 0; printf("value %d\n", VALUE + never); return 0; }
"""
ERRS = r"""#include <cstdio>
int main() { int x = 1 / 0; printf("%d\n", undeclared); return 0; }
"""
pytestmark = pytest.mark.slow   # each test compiles a program or two (seconds on a loaded machine)
DAMAGED = "minicuda: warning: discarding damaged compile cache entry "


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("MINICUDA_COMPILE_CACHE_DIR", str(folder))
    monkeypatch.delenv("MINICUDA_COMPILE_CACHE", raising=False)
    return folder


@pytest.fixture
def compiles(monkeypatch):
    """How many times the compiler ran (the cache missed)."""
    count = []
    compile_preprocessed = compile_cache.compile_preprocessed

    def counted(*args):
        count.append(1)
        return compile_preprocessed(*args)
    monkeypatch.setattr(compile_cache, "compile_preprocessed", counted)
    return count


def program(tmp_path, text: str, value: int = 1):
    (tmp_path / "value.h").write_text(f"#define VALUE {value}\n")
    path = tmp_path / "prog.cu"
    path.write_text(text)
    return path


def run(capsys, path, *options) -> tuple[int, str, str]:
    status = minicuda_main(["run", "--engine", "interp", *options, str(path)])
    out, err = capsys.readouterr()
    return status, out, err


def test_a_second_run_compiles_nothing_and_prints_the_same_warnings(tmp_path, cache_dir, compiles, capsys):
    path = program(tmp_path, WARNS)
    first = run(capsys, path)
    assert first[0] == 0 and first[1] == "value 1\n"
    assert "warning: division by zero is undefined" in first[2]
    assert len(compiles) == 1 and len(list(cache_dir.glob("*.mod"))) == 1
    assert run(capsys, path) == first
    assert len(compiles) == 1                                       # from the cache
    assert run(capsys, path, "--no-cache") == first
    assert len(compiles) == 2


def test_a_program_with_errors_prints_them_every_time_and_is_not_kept(tmp_path, cache_dir, compiles, capsys):
    path = program(tmp_path, ERRS)
    first = run(capsys, path)
    assert first[0] == 1 and first[1] == ""
    assert "warning: division by zero" in first[2] and "error: use of undeclared identifier 'undeclared'" in first[2]
    assert first[2].endswith("1 error generated.\n")
    assert run(capsys, path) == first
    assert not cache_dir.exists() or not list(cache_dir.glob("*.mod"))


def test_a_changed_header_is_compiled_again(tmp_path, cache_dir, compiles, capsys):
    path = program(tmp_path, WARNS, value=1)
    assert run(capsys, path)[1] == "value 1\n"
    program(tmp_path, WARNS, value=2)
    assert run(capsys, path)[1] == "value 2\n"
    assert len(compiles) == 2
    assert run(capsys, path)[1] == "value 2\n"
    assert len(compiles) == 2


def test_a_changed_define_is_compiled_again(tmp_path, cache_dir, compiles, capsys):
    path = program(tmp_path, "#include <cstdio>\nint main() { printf(\"%d\\n\", N); return 0; }\n")
    assert run(capsys, path, "-DN=1")[1] == "1\n"
    assert run(capsys, path, "-DN=2")[1] == "2\n"
    assert run(capsys, path, "-DN=1")[1] == "1\n"
    assert len(compiles) == 2


def test_use_fast_math_is_another_entry(tmp_path, cache_dir, compiles, capsys):
    """-use_fast_math changes device code (x / y is __fdividef): not the plain entry."""
    path = program(tmp_path, r"""#include <cstdio>
__global__ void k(float *p) { p[0] = p[1] / p[2]; }
int main() {
    float *p; cudaMallocManaged(&p, 3 * sizeof(float)); p[1] = 1.0f; p[2] = 3e38f;
    k<<<1, 1>>>(p); cudaDeviceSynchronize(); printf("%a\n", p[0]); return 0;
}
""")
    plain = run(capsys, path)
    fast = run(capsys, path, "-use_fast_math")
    assert plain[0] == fast[0] == 0 and len(compiles) == 2 and len(list(cache_dir.glob("*.mod"))) == 2
    assert fast[1] == "0x0p+0\n" != plain[1]   # IEEE: a subnormal; __fdividef: 0 for |y| > 2^126
    assert run(capsys, path, "-use_fast_math") == fast and run(capsys, path) == plain
    assert len(compiles) == 2


def test_ftz_is_another_entry(tmp_path, cache_dir, compiles, capsys):
    """-ftz=true flushes a subnormal product: not the plain entry, nor -use_fast_math -ftz=false's."""
    path = program(tmp_path, r"""#include <cstdio>
__global__ void k(float *p) { p[0] = p[1] * p[2]; }
int main() {
    float *p; cudaMallocManaged(&p, 3 * sizeof(float)); p[1] = 1e-20f; p[2] = 1e-20f;
    k<<<1, 1>>>(p); cudaDeviceSynchronize(); printf("%a\n", p[0]); return 0;
}
""")
    plain = run(capsys, path)
    flushed = run(capsys, path, "-ftz=true")
    assert plain[0] == flushed[0] == 0 and len(compiles) == 2
    assert flushed[1] == "0x0p+0\n" != plain[1]
    assert run(capsys, path, "-use_fast_math", "-ftz=false")[1] == plain[1] and len(compiles) == 3
    assert run(capsys, path, "--ftz=true") == flushed and len(compiles) == 3


def test_fmad_false_is_another_entry(tmp_path, cache_dir, compiles, capsys):
    """--fmad=false keeps a * b - c rounded twice; the default fuses it (FFMA): not one entry."""
    path = program(tmp_path, r"""#include <cstdio>
__global__ void k(float *p) { p[0] = p[1] * p[2] - p[3]; }
int main() {
    float *p; cudaMallocManaged(&p, 4 * sizeof(float));
    p[1] = 3.0f / 13.0f; p[2] = 11.0f / 7.0f; p[3] = 1.0f / 9.0f;
    k<<<1, 1>>>(p); cudaDeviceSynchronize(); printf("%a\n", p[0]); return 0;
}
""")
    fused = run(capsys, path)
    apart = run(capsys, path, "--fmad=false")
    assert fused[0] == apart[0] == 0 and len(compiles) == 2 and len(list(cache_dir.glob("*.mod"))) == 2
    assert fused[1] != apart[1]            # the last bit (tests/data/groundtruth/fma/: an H100's)
    assert run(capsys, path, "-fmad=false") == apart and run(capsys, path, "-fmad=true") == fused
    assert len(compiles) == 2


@pytest.mark.parametrize("damage", ["flipped byte", "truncated", "foreign", "not pickled module"])
def test_a_damaged_entry_is_discarded_with_a_warning_and_rebuilt(tmp_path, cache_dir, compiles, capsys, damage):
    path = program(tmp_path, WARNS)
    first = run(capsys, path)
    entry = next(cache_dir.glob("*.mod"))
    blob = entry.read_bytes()
    head, _, data = blob.partition(b"\n")
    if damage == "flipped byte":
        blob = blob[:-10] + bytes([blob[-10] ^ 0xFF]) + blob[-9:]
    elif damage == "truncated":
        blob = blob[:len(blob) // 2]
    elif damage == "foreign":
        fields = head.split(b" ")
        fields[2] = b"minicuda-0.0.0"
        blob = b" ".join(fields) + b"\n" + data
    else:   # a sound header over a payload that is no (diagnostics, module)
        blob = compile_cache.header(entry.stem, b"\x80\x04K\x01.") + b"\x80\x04K\x01."
    entry.write_bytes(blob)
    status, out, err = run(capsys, path)
    assert (status, out) == first[:2]
    assert err.startswith(DAMAGED + str(entry)) and err.count(DAMAGED) == 1
    assert err.split("\n", 1)[1] == first[2]
    assert len(compiles) == 2
    assert entry.read_bytes().partition(b"\n")[2] != b"" and run(capsys, path) == first   # rebuilt, sound
    assert len(compiles) == 2
    assert not list(cache_dir.glob(".*.tmp"))


def test_the_cache_is_off_with_the_environment_variable(tmp_path, cache_dir, compiles, capsys, monkeypatch):
    monkeypatch.setenv("MINICUDA_COMPILE_CACHE", "0")
    path = program(tmp_path, WARNS)
    assert run(capsys, path) == run(capsys, path)
    assert len(compiles) == 2 and not cache_dir.exists()


def test_the_key_names_minicuda_itself(monkeypatch):
    """An edited minicuda (another fingerprint) never reuses an older one's modules."""
    assert len(compile_cache.minicuda_fingerprint()) == 64
    diags = DiagnosticEngine()
    pp = preprocess("int main() { return 0; }\n", "<input>", diags)
    key = compile_cache.entry_key(pp, diags, ())
    monkeypatch.setattr(compile_cache, "_fingerprint", ["another minicuda"])
    assert compile_cache.entry_key(pp, diags, ()) != key
