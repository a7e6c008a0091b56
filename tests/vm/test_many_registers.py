"""A function with more than a thousand registers: register rows and predicate rows
never meet (a predicate's slot is PRED_BASE + its row), on both engines."""
import io

import pytest

import minicuda
from minicuda.vm.code import PRED_BASE, Code
from minicuda.vm.machine import Machine

N = 1100


def many_parameters(n: int) -> str:
    params = ", ".join(f"int p{i}" for i in range(n))
    args = ", ".join(str(i) for i in range(n))
    return (f"#include <cstdio>\nint f({params}) {{ return p0 + p{n - 1} + (p{n // 2} > 3 ? 1 : 0); }}\n"
            f"int main() {{ printf(\"%d\\n\", f({args})); return 0; }}\n")


@pytest.mark.slow
@pytest.mark.parametrize("engine", ["interp", "jit"])
def test_a_function_with_more_than_a_thousand_registers_runs(engine):
    out = io.BytesIO()
    machine = Machine(minicuda.compile(many_parameters(N)), engine=engine, stdout=out)
    assert machine.run(["prog"]) == 0
    assert out.getvalue() == f"{N - 1 + 1}\n".encode()


def test_register_slots_stay_below_the_predicate_base():
    program = minicuda.compile(many_parameters(N))
    code = Code(program.module.functions["f"])
    assert max(code.slot(p.reg) for p in code.fn.params) >= 1000   # past the old predicate base
    assert code.rows < PRED_BASE
