"""The JIT reads each function's own symbols: functions whose code differs only in the
objects they name (a string, a `__constant__` array, a shared array) compile to one text
and share its native code, each with its symbols in its own order; a function's
context follows the symbols of the launch it runs in."""
import io

import pytest

import minicuda
from minicuda.vm.callstack import StatePool
from minicuda.vm.jit.engine import compile_function, state_context
from minicuda.vm.machine import Machine

# sayA and sayB, sumA and sumB are the same code but for the string or the array they read
# (recursive, so not inlined)
SAME_TEXT = r"""
#include <cstdio>
__constant__ int ca[4] = {1, 2, 3, 4};
__constant__ int cb[4] = {10, 20, 30, 40};
void sayA(int n) { if (n > 0) { sayA(n - 1); return; } printf("first\n"); }
void sayB(int n) { if (n > 0) { sayB(n - 1); return; } printf("second\n"); }
__device__ int sumA(int n) { if (n > 0) return sumA(n - 1) + ca[n]; return ca[0]; }
__device__ int sumB(int n) { if (n > 0) return sumB(n - 1) + cb[n]; return cb[0]; }
__global__ void k(int *out) { out[threadIdx.x] = threadIdx.x ? sumB(3) : sumA(3); }
int main(void)
{
    sayA(2);
    sayB(2);
    int *d, h[2];
    cudaMalloc(&d, sizeof(h));
    k<<<1, 2>>>(d);
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    printf("%d %d\n", h[0], h[1]);
    return 0;
}
"""


@pytest.mark.parametrize("engine", ["interp", "jit"])
def test_functions_of_the_same_text_read_their_own_strings_and_constants(engine):
    out = io.BytesIO()
    machine = Machine(minicuda.compile(SAME_TEXT), engine=engine, stdout=out)
    assert machine.run(["prog"]) == 0
    assert out.getvalue().decode() == "first\nsecond\n10 100\n"


def test_a_functions_context_follows_the_symbols_of_a_new_launch():
    # a call stack's state outlives its launch; a later launch's symbols may be a new
    # dict at the address of a freed one, with the dynamic array elsewhere
    source = "extern __shared__ int dyn[];\n__device__ void put(int t) { dyn[t] = t; }\n" \
             "__global__ void k() { put(threadIdx.x); }\nint main(void) { return 0; }\n"
    machine = Machine(minicuda.compile(source, opt=0), engine="jit")
    code = machine.interp.code("put")
    compiled = compile_function(code, machine.interp.sched, 32, kernel=False)
    state = StatePool().take(code)
    first = {"dynamic_smem": 0x100}
    state_context(state, first, compiled, machine.interp)
    del first
    second = {"dynamic_smem": 0x200}
    assert list(state_context(state, second, compiled, machine.interp).syms) == [0x200]


def test_a_contexts_table_follows_a_new_launchs_block_scope():
    # a kept context saw one launch's block scope; the next launch's scope (shared memory
    # with storage of its own) may be made at the freed one's address while the memory's
    # version stands, and native code must then read the new scope's storage
    from minicuda.vm.memory import BlockScope
    source = "__device__ void put(int *p) { *p = 1; }\n__global__ void k(int *p) { put(p); }\n" \
             "int main(void) { return 0; }\n"
    machine = Machine(minicuda.compile(source, opt=0), engine="jit")
    interp = machine.interp
    code = interp.code("put")
    compiled = compile_function(code, interp.sched, 32, kernel=False)
    context = state_context(StatePool().take(code), {}, compiled, interp)
    kept = []   # the old storage stays alive, so a new scope's cannot reuse its address
    for _ in range(8):
        scope = BlockScope([("s", 64)], [])
        context.set_table(interp.memory, scope, interp.side)
        assert scope.allocs[0].data.ctypes.data in context.table[2], "the table holds another scope's storage"
        kept.append(scope.allocs[0].data)
        del scope
