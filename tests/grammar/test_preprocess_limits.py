"""The preprocessor's limits: an #include of what is not a text file, include depth,
macro expansion size, and time that grows linearly with the text's length."""
import os
import time

import pytest

import minicuda.grammar.preprocess as preprocess_module
from minicuda.diagnostics import CompileError
from minicuda.frontend import preprocess_only
from minicuda.sourcefile import MAX_SOURCE_BYTES


def fatal_header(path) -> str:
    """The header of the error that stops preprocessing `path`."""
    with pytest.raises(CompileError) as e:
        preprocess_only(str(path))
    return e.value.diagnostics[-1].header()


def including(tmp_path, target: str):
    main = tmp_path / "a.cu"
    main.write_text(f'int a;\n#include "{target}"\nint b;\n')
    return main


@pytest.fixture
def bad_files(tmp_path):
    (tmp_path / "bin.h").write_bytes(b"int x;\nab\0c\n")
    (tmp_path / "latin.h").write_bytes(b"int x;\n// caf\xe9 = 1\n")
    os.mkfifo(tmp_path / "pipe.h")
    return tmp_path


@pytest.mark.parametrize("target, message", [
    ("bin.h", "'bin.h' is a binary file, not text (NUL byte at line 2, column 3)"),
    ("latin.h", "'latin.h' is not valid UTF-8 text (byte 0xe9 at line 2, column 7)"),
    ("pipe.h", "'pipe.h' is not a regular file (a FIFO)"),
    ("/dev/zero", "'/dev/zero' is not a regular file (a character device)"),
    ("/dev/urandom", "'/dev/urandom' is not a regular file (a character device)"),
])
def test_an_include_that_is_not_a_text_file_is_a_located_fatal_error(bad_files, target, message):
    start = time.monotonic()
    assert fatal_header(including(bad_files, target)) == f"{including(bad_files, target)}:2:10: fatal error: {message}"
    assert time.monotonic() - start < 10


def test_an_include_naming_a_directory_is_not_found_as_c_compilers_search_on(tmp_path):
    (tmp_path / "sub").mkdir()
    assert fatal_header(including(tmp_path, "sub")) == f"{tmp_path / 'a.cu'}:2:10: fatal error: 'sub' file not found"
    other = tmp_path / "inc"
    other.mkdir()
    (other / "sub").write_text("int found;\n")
    main = including(tmp_path, "sub")
    assert "int found;" in preprocess_only(str(main), include_dirs=[str(other)])[0].text


def test_an_include_larger_than_the_cap_is_refused_without_reading_it(tmp_path):
    big = tmp_path / "big.h"
    with open(big, "wb") as f:
        f.truncate(MAX_SOURCE_BYTES + 1)   # sparse: nothing to read, and nothing is read
    assert fatal_header(including(tmp_path, "big.h")).endswith(
        "2:10: fatal error: 'big.h' is too large to be a source file (more than 64 MiB)")


def test_an_angle_include_names_the_file_as_written(bad_files):
    main = bad_files / "a.cu"
    main.write_text("#include <bin.h>\n")
    with pytest.raises(CompileError) as e:
        preprocess_only(str(main), include_dirs=[str(bad_files)])
    assert e.value.diagnostics[-1].header() == \
        f"{main}:1:10: fatal error: 'bin.h' is a binary file, not text (NUL byte at line 2, column 3)"


@pytest.mark.parametrize("files", [
    {"self.h": '#include "self.h"\n'},
    {"self.h": '#include "self.h"\n#include "self.h"\n'},   # each level twice: 2**200 without the stop
    {"self.h": '#include "other.h"\n', "other.h": '#include "self.h"\n'},
])
def test_an_include_cycle_stops_at_depth_200(tmp_path, files):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    start = time.monotonic()
    header = fatal_header(including(tmp_path, "self.h"))
    assert header.endswith(":1:10: fatal error: #include nested depth 200 exceeds maximum of 200")
    assert time.monotonic() - start < 30


def chain(tmp_path, depth: int):
    """a.cu including h1.h including ... h{depth}.h: depth + 1 files open at once."""
    for i in range(1, depth):
        (tmp_path / f"h{i}.h").write_text(f'#include "h{i + 1}.h"\n')
    (tmp_path / f"h{depth}.h").write_text("int deepest;\n")
    return including(tmp_path, "h1.h")


def test_two_hundred_files_open_at_once_is_the_most_allowed(tmp_path):
    assert "int deepest;" in preprocess_only(str(chain(tmp_path, 199)))[0].text
    assert fatal_header(chain(tmp_path, 200)) == \
        f"{tmp_path / 'h199.h'}:1:10: fatal error: #include nested depth 200 exceeds maximum of 200"


def test_an_exponential_object_like_macro_is_stopped_at_its_use(tmp_path):
    f = tmp_path / "e.cu"
    f.write_text("int a;\n" + "".join(f"#define M{i} M{i + 1} M{i + 1}\n" for i in range(40)) + "int x = M0;\n")
    start = time.process_time()   # CPU time: a shared machine's load does not count
    assert fatal_header(f) == f"{f}:42:9: fatal error: macro expansion of 'M0' is too large (more than 1048576 tokens)"
    assert time.process_time() - start < 30


def test_an_exponential_function_like_macro_is_stopped_at_its_use(tmp_path):
    f = tmp_path / "e.cu"
    f.write_text("#define TWICE(x) x x\nint y = " + "TWICE(" * 40 + "1" + ")" * 40 + ";\n")
    assert fatal_header(f) == f"{f}:2:9: fatal error: macro expansion of 'TWICE' is too large (more than 1048576 tokens)"


TRICKY = """\
#define F(x) ((x) + 1)
#define G F
#define H() F
#define OBJ 7
#define CAT(a, b) a##b
int a0 = F(
  2);
int a1 = G
  (3);
int a2 = H()
  (4);
int a3 = F
(OBJ);
int line = __LINE__; int c = __COUNTER__;
int a4 = CAT(a,
  0) + CAT(a, 1);
"""


@pytest.mark.parametrize("unbalanced", ["", "#define OPEN F(\nint o = OPEN 1\n);\n"])
def test_expanding_in_pieces_gives_the_same_text_as_expanding_whole(tmp_path, monkeypatch, unbalanced):
    f = tmp_path / "t.cu"
    f.write_text(unbalanced + TRICKY * 40)
    monkeypatch.setattr(preprocess_module, "PIECE_TOKENS", 10**9)
    whole = preprocess_only(str(f))[0].text
    monkeypatch.setattr(preprocess_module, "PIECE_TOKENS", 1)
    assert preprocess_only(str(f))[0].text == whole
    assert "int a2 = ((4) + 1);" in whole and "int a3 = ((7) + 1);" in whole


def cpu_seconds_to_preprocess(tmp_path, lines: int) -> float:
    """The best of two runs' CPU time: one run's garbage collection or a neighbour's cache
    pressure is not the preprocessor's growth."""
    f = tmp_path / f"n{lines}.cu"
    f.write_text("#define N 3\n#define F(x) ((x) + 1)\n" + "".join(f"int v{i} = F(N);\n" for i in range(lines)))
    times = []
    for _ in range(2):
        start = time.process_time()
        preprocess_only(str(f))
        times.append(time.process_time() - start)
    return min(times)


@pytest.mark.slow
def test_preprocessing_time_grows_linearly_with_the_number_of_lines(tmp_path):
    small = cpu_seconds_to_preprocess(tmp_path, 4000)
    large = cpu_seconds_to_preprocess(tmp_path, 16000)
    # 4 times the lines: linear is 4 times the CPU time, quadratic 16 (pcpp alone: about 30);
    # 12 leaves room for the noise of CPU time shared with the suite's other workers (8.4 seen)
    assert large < 12 * small


@pytest.mark.parametrize("text", [
    "".join(f"#define M{i} M{i + 1}\n" for i in range(600)) + "#define M600 1\nint x = M0;\n",
    "#define F(x) x\n" + "\n" * 600 + "int x = " + "F(" * 600 + "1" + ")" * 600 + ";\n",
])
def test_macros_nested_past_512_levels_are_a_located_error_not_a_recursion_error(tmp_path, text):
    f = tmp_path / "n.cu"
    f.write_text(text)
    assert fatal_header(f) == f"{f}:602:9: fatal error: macro expansion nested more than 512 levels deep"


def test_the_deepest_includes_may_hold_the_deepest_macros(tmp_path):
    main = chain(tmp_path, 199)
    (tmp_path / "h199.h").write_text("".join(f"#define M{i} M{i + 1}\n" for i in range(500)) + "#define M500 1\n"
                                     "#define F(x) x\nint x = M0 + " + "F(" * 500 + "2" + ")" * 500 + ";\n")
    assert "int x = 1 + 2;" in preprocess_only(str(main))[0].text
