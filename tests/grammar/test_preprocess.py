"""Preprocessing: includes, macros, conditionals, and locations mapped back."""
import pytest

from minicuda.diagnostics import CompileError, DiagnosticEngine
from minicuda.frontend import load, preprocess_only
from minicuda.grammar import preprocess as preprocess_module


def pp(src, **kw):
    return preprocess_only(src, **kw)[0]


def test_object_and_function_like_macros_with_stringize_and_paste():
    out = pp('#define N 4\n#define SQ(x) ((x)*(x))\n#define STR(x) #x\n#define CAT(a,b) a##b\n'
             'int CAT(va,r) = SQ(N); const char *s = STR(hello);\n').text
    assert "int var = ((4)*(4));" in out
    assert 'const char *s = "hello";' in out


def test_conditionals_with_defined_and_elif():
    out = pp("#if defined(__CUDACC__) && X > 1\nint bad;\n#elif !defined(Y)\nint good;\n#else\nint other;\n#endif\n").text
    assert "int good;" in out and "bad" not in out and "other" not in out


def test_undef_and_command_line_defines():
    out = pp("#ifdef A\nint a = A;\n#endif\n#ifndef B\nint nob;\n#endif\n", defines=["A=7"], undefines=[]).text
    assert "int a = 7;" in out and "int nob;" in out
    out = pp("#define A 1\n#undef A\n#ifdef A\nint a;\n#endif\n").text
    assert "int a;" not in out


def test_file_and_line_macros_name_the_user_file(tmp_path):
    f = tmp_path / "k.cu"
    f.write_text("\n\nint line = __LINE__;\nconst char *file = __FILE__;\n")
    out = pp(str(f)).text
    assert "int line = 3;" in out
    assert str(f) in out


def test_pragma_unroll_is_kept_for_the_compiler():
    out = pp("__global__ void k(int *p) {\n#pragma unroll\n  for (int i = 0; i < 4; i++) p[i] = i;\n}\n").text
    assert "#pragma unroll" in out


def test_quoted_include_relative_to_the_including_file_and_dash_I(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "helper.h").write_text("#define HELPER 42\n")
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "other.h").write_text("#define OTHER 7\n")
    main = tmp_path / "sub" / "main.cu"
    main.write_text('#include "helper.h"\n#include "other.h"\nint x = HELPER + OTHER;\n')
    out = pp(str(main), include_dirs=[str(tmp_path / "inc")]).text
    assert "int x = 42 + 7;" in out


@pytest.mark.parametrize("header", ["cuda_runtime.h", "stdio.h", "stdlib.h", "string.h", "math.h", "sys/time.h",
                                    "time.h", "cstdio", "cstdlib", "cstring", "cmath", "ctime", "cuda.h",
                                    "stdint.h", "limits.h", "assert.h"])
def test_system_headers_resolve_to_minicuda_declarations(header):
    load(f"#include <{header}>\nint main() {{ return 0; }}\n")


def test_locations_map_back_through_includes(tmp_path):
    (tmp_path / "h.h").write_text("\n\n__device__ int f(int x) { return y; }\n")
    main = tmp_path / "m.cu"
    main.write_text('#include "h.h"\nint main() { return 0; }\n')
    with pytest.raises(CompileError) as e:
        load(str(main))
    d = e.value.diagnostics[0]
    assert d.loc.file.endswith("h.h") and (d.loc.line, d.loc.col) == (3, 34)


def test_user_lines_are_not_shifted_by_the_implicit_cuda_runtime_include():
    with pytest.raises(CompileError) as e:
        load("int main() {\n  return nope;\n}\n")
    assert (e.value.diagnostics[0].loc.line, e.value.diagnostics[0].loc.col) == (2, 10)


def test_missing_include_is_a_located_fatal_error():
    diags = DiagnosticEngine()
    with pytest.raises(CompileError):
        preprocess_only('int a;\n#include "missing.h"\n', diags=diags)
    d = diags.diagnostics[0]
    assert d.severity == "fatal error" and d.message == "'missing.h' file not found"
    assert (d.loc.line, d.loc.col) == (2, 10)


# lines a macro's invocation or expansion reaches past the line that names it
_REACHING_MACROS = """#define F(a, b) ((a) + (b))
#define G F
#define ID(x, y) x y
int u = G
(1,
 2)x;
int v = ID(
    3 + (4),
    5)
  (6);
int w = F(7, 8) + y;
#if 0
ignored(1);
#endif
G
#if 1
  (9, 10);
#endif
int line = __LINE__ * (2);
    indented   (spaced ,   text);


z = 1.5f + 0x1F + 5f;
"""


@pytest.mark.parametrize("text", [_REACHING_MACROS, _REACHING_MACROS.replace("\n", " \n"),
                                  _REACHING_MACROS.rstrip("\n")])
def test_plain_lines_are_written_as_pcpp_writes_them_token_by_token(monkeypatch, text):
    fast = pp(text)
    monkeypatch.setattr(preprocess_module, "_plain_line", lambda line, macros: False)
    slow = pp(text)
    assert fast.text == slow.text and fast.line_map == slow.line_map
    assert "int u = ((1) + (2)) x;" in fast.text and "((9) + (10));" in fast.text


def test_pragma_push_and_pop_macro_set_a_macro_aside_and_bring_it_back():
    out = pp('#define min(a, b) MIN\n#pragma push_macro("min")\n#undef min\nint min(int x, int y);\n'
             '#pragma pop_macro("min")\nint q = min(1, 2);\n#pragma push_macro("none")\n#define none 1\n'
             '#pragma pop_macro("none")\nint r = none;\n').text
    assert "int min(int x, int y);" in out and "int q = MIN;" in out and "int r = none;" in out


def test_a_byte_order_mark_opens_a_file_or_a_header_harmlessly(tmp_path):
    (tmp_path / "h.h").write_bytes(b"\xef\xbb\xbf#pragma once\nint from_header = 1;\n")
    (tmp_path / "m.cu").write_bytes(b'\xef\xbb\xbf#include "h.h"\nint main() { return from_header; }\n')
    fe = load(str(tmp_path / "m.cu"))
    assert [f.name for f in fe.tu.functions] == ["main"]


def test_pragma_once_reads_a_header_once_by_any_path(tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    (tmp_path / "real" / "once.h").write_text("#pragma once\nint once_only = 1;\n")
    (tmp_path / "real" / "guarded.h").write_text("#ifndef G\n#define G\nint guarded = 1;\n#endif\n")
    (tmp_path / "m.cu").write_text('#include "real/once.h"\n#include "link/once.h"\n#include "./real/../link/once.h"\n'
                                   '#include "real/guarded.h"\n#include "link/guarded.h"\n'
                                   'int main() { return once_only + guarded; }\n')
    fe = load(str(tmp_path / "m.cu"))
    assert fe.pp.text.count("int once_only = 1;") == 1 and fe.pp.text.count("int guarded = 1;") == 1
