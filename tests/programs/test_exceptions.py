"""C++ exceptions as an uncaught one ends a native program: libstdc++'s terminate message
(g++ 13 here: the expected lines are its output), abort's status 134; `try` runs its body,
and a throw inside one (which C++ would catch) is minicuda's located error; both engines."""
import pytest

from minicuda.cli import minicuda_main

ENGINES = ["interp", "jit"]

THROWS = """#include <stdio.h>
#include <stdexcept>
int check(int v) {
    if (v > 3) throw std::out_of_range("value too large");
    return v;
}
int main(int argc, char **argv) {
    try {
        printf("in try %d\\n", check(1));
    } catch (const std::exception &e) {
        printf("never\\n");
    } catch (...) {
    }
    if (argc == 2) throw 42;
    if (argc == 3) throw "text";
    if (argc == 4) throw 1.5;
    if (argc == 5) throw std::exception();
    if (argc == 6) throw std::runtime_error("bad thing");
    if (argc == 7) { try { check(9); } catch (std::out_of_range &e) { } }
    return check(argc);
}
"""

# argc -> what g++'s program writes to stderr before abort
TERMINATE = {
    1: "terminate called after throwing an instance of 'int'\n",
    2: "terminate called after throwing an instance of 'char const*'\n",
    3: "terminate called after throwing an instance of 'double'\n",
    4: "terminate called after throwing an instance of 'std::exception'\n  what():  std::exception\n",
    5: "terminate called after throwing an instance of 'std::runtime_error'\n  what():  bad thing\n",
    7: "terminate called after throwing an instance of 'std::out_of_range'\n  what():  value too large\n",
}


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("extra", sorted(TERMINATE))
def test_an_uncaught_exception_is_libstdcxx_terminate_and_abort(extra, engine, tmp_path, capsys):
    (tmp_path / "throws.cu").write_text(THROWS)
    assert minicuda_main(["run", "--engine", engine, str(tmp_path / "throws.cu")] + ["x"] * extra) == 134
    captured = capsys.readouterr()
    assert captured.out == "in try 1\n"
    assert captured.err == TERMINATE[extra] + "Aborted\n"


@pytest.mark.parametrize("engine", ENGINES)
def test_a_throw_inside_a_try_block_is_an_error_at_the_throw(engine, tmp_path, capsys):
    (tmp_path / "throws.cu").write_text(THROWS)
    assert minicuda_main(["run", "--engine", engine, str(tmp_path / "throws.cu")] + ["x"] * 6) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{tmp_path / 'throws.cu'}:4:16: error: an exception ('std::out_of_range') thrown inside "
                          f"a 'try' block: catching exceptions is not supported")


def test_a_return_from_inside_a_try_block_leaves_it(tmp_path, capsys):
    source = """int f() { try { return 1; } catch (...) { } return 0; }
int main() { f(); throw 7; }
"""
    (tmp_path / "r.cu").write_text(source)
    assert minicuda_main(["run", str(tmp_path / "r.cu")]) == 134
    assert "instance of 'int'" in capsys.readouterr().err


CLASSES = """#include <stdio.h>
#include <stdexcept>
struct GpuError : public std::runtime_error {
    explicit GpuError(const char *msg) : std::runtime_error(msg) {}
};
struct LaunchError : GpuError {
    int code;
    LaunchError(const char *msg, int c) : GpuError(msg), code(c) {}
};
struct Plain {
    int code;
    Plain(int c) : code(c) { printf("Plain(%d)\\n", c); }
};
namespace gpu { struct Fault : std::logic_error { Fault() : std::logic_error("fault") {} }; }
GpuError made(const char *msg) { return GpuError(msg); }
int main(int argc, char **argv) {
    printf("start\\n");
    if (argc == 2) throw GpuError("device ran out");
    if (argc == 3) throw Plain(7);
    if (argc == 4) throw gpu::Fault();
    if (argc == 5) { GpuError e("thrown by name"); throw e; }
    if (argc == 6) throw LaunchError("bad launch", 3);
    if (argc == 7) throw made("from a call");
    if (argc == 8) { try { throw Plain(1); } catch (const Plain &p) { } }
    return 0;
}
"""

# argc -> the program's stdout and what g++'s program writes to stderr before abort
CLASS_TERMINATE = {
    2: ("start\n", "'GpuError'\n  what():  device ran out\n"),
    3: ("start\nPlain(7)\n", "'Plain'\n"),
    4: ("start\n", "'gpu::Fault'\n  what():  fault\n"),
    5: ("start\n", "'GpuError'\n  what():  thrown by name\n"),
    6: ("start\n", "'LaunchError'\n  what():  bad launch\n"),
    7: ("start\n", "'GpuError'\n  what():  from a call\n"),
}


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("argc", sorted(CLASS_TERMINATE))
def test_a_class_thrown_by_value_is_reported_with_its_what(argc, engine, tmp_path, capsys):
    (tmp_path / "classes.cu").write_text(CLASSES)
    assert minicuda_main(["run", "--engine", engine, str(tmp_path / "classes.cu")] + ["x"] * (argc - 1)) == 134
    captured = capsys.readouterr()
    out, err = CLASS_TERMINATE[argc]
    assert captured.out == out
    assert captured.err == "terminate called after throwing an instance of " + err + "Aborted\n"


def test_a_class_thrown_inside_a_try_block_is_an_error_at_the_throw(tmp_path, capsys):
    (tmp_path / "classes.cu").write_text(CLASSES)
    assert minicuda_main(["run", str(tmp_path / "classes.cu")] + ["x"] * 7) == 1
    err = capsys.readouterr().err
    assert f"classes.cu:24:28: error: an exception ('Plain') thrown inside a 'try' block" in err


MESSAGE_FROM_STRING = """#include <stdio.h>
#include <stdexcept>
#include <string>
int check(int v) {
    if (v < 0) throw std::invalid_argument("negative value: " + std::to_string(v));
    return v;
}
int main(int argc, char **argv) {
    std::runtime_error built(std::string("built ") + "here");
    printf("%d %s\\n", check(3), built.what());
    return check(-argc);
}
"""


@pytest.mark.parametrize("engine", ENGINES)
def test_a_std_exception_built_from_a_std_string_keeps_its_text(engine, tmp_path, capsys):
    """`throw std::invalid_argument("..." + std::to_string(v))`, as host code reports a bad
    input: the message outlives the temporary string (g++ 13's output)."""
    (tmp_path / "message.cu").write_text(MESSAGE_FROM_STRING)
    assert minicuda_main(["run", "--engine", engine, str(tmp_path / "message.cu")]) == 134
    captured = capsys.readouterr()
    assert captured.out == "3 built here\n"
    assert captured.err == ("terminate called after throwing an instance of 'std::invalid_argument'\n"
                            "  what():  negative value: -1\nAborted\n")
