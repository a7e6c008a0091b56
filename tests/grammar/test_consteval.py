"""Constant evaluation (grammar/consteval.py): the compile-time value of a C constant
expression is the value gcc computes and the value the VM computes at run time."""
import shutil
import subprocess

import pytest

from minicuda.cli import minicuda_main
from minicuda.diagnostics import CompileError
from minicuda.frontend import load
from minicuda.grammar import ast as A
from minicuda.grammar import consteval
from minicuda.grammar import types as T

GCC = shutil.which("gcc")

# (type, printf format, expression) whose value C defines; each is a global's initialiser
DEFINED = [
    ("long long", "%lld", "4611686018427387905LL / 1"),
    ("long long", "%lld", "-9223372036854775807LL / 3"),
    ("long long", "%lld", "9007199254740993LL % 10"),
    ("unsigned", "%u", "0u - 1"),
    ("unsigned", "%u", "4294967295u + 1u"),
    ("unsigned long long", "%llu", "18446744073709551615ULL * 3"),
    ("int", "%d", "-7 / 2"), ("int", "%d", "-7 % 2"), ("int", "%d", "7 % -2"), ("int", "%d", "7 / -2"),
    ("int", "%d", "-7 % -2"), ("long long", "%lld", "-7LL / 2"),
    ("int", "%d", "1 << 30"), ("int", "%d", "-16 >> 2"), ("unsigned", "%u", "0x80000000u >> 31"),
    ("long long", "%lld", "1LL << 62"), ("unsigned long long", "%llu", "1ULL << 63"),
    ("int", "%d", "3 < 4u"), ("int", "%d", "-1 < 0u"), ("int", "%d", "-1 < 0LL"), ("int", "%d", "-1LL < 0ULL"),
    ("int", "%d", "!5 + ~0"), ("int", "%d", "(0 || 3) + (2 && 0)"), ("int", "%d", "1 ? 2 : 3"),
    ("int", "%d", "0 ? 2 : 3.5"), ("int", "%d", "(int)sizeof(long) * 2"), ("int", "%d", "(int)sizeof(float[3])"),
    ("int", "%d", "(int)3.99"), ("int", "%d", "(int)-3.99"), ("int", "%d", "(unsigned char)300"),
    ("int", "%d", "(signed char)200"), ("int", "%d", "(short)70000"), ("unsigned", "%u", "(unsigned)-1"),
    ("long long", "%lld", "(unsigned)-1"), ("long long", "%lld", "(long long)(int)4294967297LL"),
    ("int", "%d", "(bool)256 + (bool)0.5"), ("int", "%d", "'\\xff' + 1"), ("int", "%d", "(unsigned char)'\\xff'"),
    ("float", "%.9g", "0.1f * 3.0f"), ("double", "%.17g", "0.1 * 3.0"), ("float", "%.9g", "1.0f / 3.0f"),
    ("double", "%.17g", "(double)(1.0f / 3.0f)"), ("double", "%.17g", "1.0 / 3.0"), ("double", "%.17g", "0.1f"),
    ("float", "%.9g", "16777217"), ("float", "%.9g", "1152921573326323713LL"),
    ("double", "%.17g", "9007199254740993LL"), ("double", "%.17g", "18446744073709551615ULL"),
    ("float", "%.9g", "0.1"), ("float", "%.9g", "-(0.5f - 0.25f)"), ("double", "%.17g", "2.5 > 2 ? 1e300 * 10 : 0"),
]

# (type, printf format, expression) that C leaves undefined or implementation-defined:
# the value must be the one the VM computes at run time
RUN_TIME = [
    ("int", "%d", "(-2147483647 - 1) / -1"), ("int", "%d", "(-2147483647 - 1) % -1"),
    ("long long", "%lld", "(-9223372036854775807LL - 1) / -1"), ("int", "%d", "2147483647 + 1"),
    ("int", "%d", "1 << 31"), ("int", "%d", "1 << 32"), ("int", "%d", "1 << 40"), ("int", "%d", "-8 >> 40"),
    ("unsigned", "%u", "0xffffffffu >> 32"), ("long long", "%lld", "1LL << 64"),
    ("int", "%d", "(int)2147483648.0"), ("int", "%d", "(int)-1e20"), ("unsigned", "%u", "(unsigned)-1.5"),
    ("long long", "%lld", "(long long)1e30"), ("unsigned char", "%d", "(unsigned char)1000.0"),
]


def run_program(tmp_path, capsys, text: str) -> str:
    path = tmp_path / "p.cu"
    path.write_text(text)
    assert minicuda_main(["run", str(path)]) == 0
    return capsys.readouterr().out


def globals_program(cases) -> str:
    """A program whose globals are the cases' constant expressions, each printed on a line."""
    lines = ["#include <stdio.h>"] + [f"{ty} g{i} = {expr};" for i, (ty, _, expr) in enumerate(cases)]
    lines.append("int main() {")
    lines += [f'  printf("{fmt}\\n", g{i});' for i, (_, fmt, _) in enumerate(cases)]
    return "\n".join(lines + ["  return 0;", "}", ""])


def run_time_program(cases) -> str:
    """The same expressions computed at run time: every literal operand read from a volatile."""
    lines = ["#include <stdio.h>", "int main() {"]
    for i, (ty, fmt, expr) in enumerate(cases):
        lhs, op, rhs = _split(expr)
        lines.append(f"  volatile {_literal_type(lhs)} a{i} = {lhs}; volatile {_literal_type(rhs)} b{i} = {rhs};"
                     if op else f"  volatile double a{i} = {lhs};")
        value = f"a{i} {op} b{i}" if op else f"{expr.split(')')[0]})a{i}"
        lines.append(f'  {ty} r{i} = {value}; printf("{fmt}\\n", r{i});')
    return "\n".join(lines + ["  return 0;", "}", ""])


def _split(expr: str):
    """'(a) / -1' -> ('(a)', '/', '-1'); a cast '(int)2.0' -> ('2.0', None, None)."""
    for op in (" / ", " % ", " << ", " >> ", " + "):
        if op in expr:
            lhs, rhs = expr.split(op)
            return lhs, op.strip(), rhs
    return expr.split(")", 1)[1], None, None


def _literal_type(literal: str) -> str:
    text = literal.lower()
    if "ll" in text:
        return "long long"
    return "unsigned" if text.endswith("u") else "int"


def gcc_output(tmp_path, text: str) -> str:
    source, binary = tmp_path / "p.c", tmp_path / "p"
    source.write_text(text.replace("(bool)", "(_Bool)"))
    subprocess.run([GCC, "-w", "-o", str(binary), str(source)], check=True)
    return subprocess.run([str(binary)], check=True, capture_output=True, text=True).stdout


def test_a_64_bit_division_in_a_global_is_exact_and_matches_run_time(tmp_path, capsys):
    out = run_program(tmp_path, capsys, """#include <stdio.h>
long long g = 4611686018427387905LL / 1;
int main() {
  volatile long long one = 1;
  long long r = 4611686018427387905LL / one;
  printf("%lld %lld\\n", g, r);
  return 0;
}
""")
    assert out == "4611686018427387905 4611686018427387905\n"


@pytest.mark.skipif(GCC is None, reason="gcc is not installed")
def test_globals_get_the_values_gcc_computes(tmp_path, capsys):
    text = globals_program(DEFINED)
    assert run_program(tmp_path, capsys, text).splitlines() == gcc_output(tmp_path, text).splitlines()


def test_undefined_cases_get_the_values_the_vm_computes_at_run_time(tmp_path, capsys):
    constant = run_program(tmp_path, capsys, globals_program(RUN_TIME)).splitlines()
    run_time = run_program(tmp_path, capsys, run_time_program(RUN_TIME[3:])).splitlines()
    assert constant[3:] == run_time
    assert constant[:3] == ["-2147483648", "0", "-9223372036854775808"]   # wraparound, as the GPU does
    # host code computing MIN / -1 at run time traps, as x86-64's idiv does (SIGFPE)
    for case in RUN_TIME[:3]:
        (tmp_path / "trap.cu").write_text(run_time_program([case]))
        assert minicuda_main(["run", str(tmp_path / "trap.cu")]) == 136
        assert capsys.readouterr().err.endswith("Floating point exception\n")
    assert constant[5:10] == ["0", "0", "-1", "0", "0"]                       # a count >= the width
    assert constant[10:] == ["2147483647", "-2147483648", "0", "9223372036854775807", "255"]   # saturated


def checked_globals(src: str) -> dict[str, A.VarDecl]:
    return {v.name: v for d in load(src).tu.decls if isinstance(d, A.Declaration) for v in d.decls}


def value_of(src: str, name: str = "g"):
    return consteval.evaluate(checked_globals(src)[name].init)


def test_a_constant_variable_is_its_value_and_a_self_reference_is_not_constant():
    assert value_of("const int N = 4; int g = N * 2 + 1;") == 9
    assert consteval.evaluate_or_none(checked_globals("int n = 4; int g = n;")["g"].init) is None
    assert consteval.evaluate_or_none(checked_globals("const int a = a + 1; int g = 0;")["a"].init) is None


def test_and_or_and_conditional_evaluate_only_the_deciding_operand():
    assert value_of("int n; int g = 0 && n;") == 0
    assert value_of("int n; int g = 1 || 1 / 0;") == 1
    assert value_of("int n; int g = 1 ? 2 : n;") == 2
    with pytest.raises(consteval.NotConstant):
        value_of("int n; int g = 1 && n;")


def test_integer_division_by_zero_is_not_a_constant_but_float_division_is_ieee():
    with pytest.raises(consteval.NotConstant):
        value_of("int g = 1 / 0;")
    with pytest.raises(consteval.NotConstant):
        value_of("int g = 1 % 0;")
    assert value_of("double g = 1.0 / 0.0;") == float("inf")
    assert value_of("float g = -1.0f / 0.0f;") == float("-inf")


def test_float_arithmetic_rounds_to_float_and_double_does_not():
    assert value_of("float g = 0.1f + 0.2f;") == consteval.float32(consteval.float32(0.1) + consteval.float32(0.2))
    assert value_of("double g = 0.1 + 0.2;") == 0.1 + 0.2
    assert value_of("float g = 1e30f * 1e30f;") == float("inf")      # float overflows where double would not


def test_conversions():
    assert consteval.convert(-1, T.INT, T.UINT) == 4294967295
    assert consteval.convert(4294967297, T.LLONG, T.INT) == 1
    assert consteval.convert(-3.99, T.DOUBLE, T.INT) == -3
    assert consteval.convert(float("nan"), T.DOUBLE, T.INT) == 0
    assert consteval.convert(float("-inf"), T.FLOAT, T.Prim(name="unsigned int")) == 0
    assert consteval.convert(2 ** 60 + 2 ** 36 + 1, T.LLONG, T.FLOAT) == 2 ** 60 + 2 ** 37   # rounded once
    assert consteval.convert(0.1, T.DOUBLE, T.FLOAT) == consteval.float32(0.1) != 0.1
    assert consteval.convert(0.5, T.DOUBLE, T.BOOL) == 1
    assert consteval.wrap(255, T.CHAR) == -1 and consteval.wrap(-1, T.Prim(name="unsigned short")) == 65535


def test_sema_uses_exact_values_for_array_sizes_and_case_labels():
    src = """__global__ void k(long long x, int *o) {
  int a[4611686018427387905LL / 1 - 4611686018427387904LL];
  switch (x) { case 4611686018427387905LL / 1: o[0] = sizeof(a); break; case 4611686018427387904LL: break; }
}"""
    fn = next(f for f in load(src).tu.functions if f.name == "k")
    assert fn.body.items[0].declaration.decls[0].ty.length == 1
    with pytest.raises(CompileError) as e:
        load(src.replace("4611686018427387904LL:", "4611686018427387905LL:"))
    assert "duplicate case value '4611686018427387905'" in str([d.message for d in e.value.diagnostics])


def test_a_global_pointer_takes_a_null_constant_or_any_address(tmp_path, capsys):
    out = run_program(tmp_path, capsys, "#include <stdio.h>\nint *p = 0;\nfloat *q = NULL;\n"
                      "int main() { printf(\"%d\\n\", p == NULL && q == 0); return 0; }\n")
    assert out == "1\n"
    out = run_program(tmp_path, capsys, "#include <stdio.h>\nint x[4];\nint *p = (int *)8;\nint *r = &x[2];\n"
                      "int main() { printf(\"%ld %d\\n\", (long)p, (int)(r - x)); return 0; }\n")
    assert out == "8 2\n"   # set before main runs, as a dynamic initialiser
