"""A kernel's blocks start from the launch's template with only the register rows some
thread may read before writing (vm/jit/live_rows.py's `block_start_rows`): the other rows
keep the worker's previous block's values, which no thread reads, so results and metrics
stay the interpreter's.  Kernels with a loop, a shuffle or a call copy every row."""
import minicuda
from helpers.run_source import run_on_both_engines
from minicuda.vm.jit.live_rows import block_start_rows
from minicuda.vm.machine import Machine

# a partial last warp (48 threads), a divergent if/else writing x on every path, a guarded
# store: run on one worker, every block starts over the previous block's registers
PICK = r"""
__global__ void pick(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int x;
    if (threadIdx.x % 3 == 0)
        x = blockIdx.x * 7;
    else
        x = threadIdx.x + n;
    if (i < n)
        out[i] = x;
}
__global__ void sum(int *out, int n)
{
    int s = 0;
    for (int k = 0; k < n; k++)
        s += k * threadIdx.x;
    out[threadIdx.x] = s;
}
__global__ void rotate(int *out)
{
    out[threadIdx.x] = __shfl_sync(0xffffffff, (int)threadIdx.x, (threadIdx.x + 1) % 32);
}
int main()
{
    int n = 200, h[200], *d;
    cudaMalloc(&d, sizeof h);
    pick<<<5, 48>>>(d, n);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    long s = 0;
    for (int i = 0; i < n; i++)
        s = s * 31 + h[i];
    printf("%d %d %d %ld\n", h[0], h[49], h[199], s);
    sum<<<1, 32>>>(d, 4);
    rotate<<<1, 32>>>(d);
    return 0;
}
"""


def codes(tmp_path):
    f = tmp_path / "prog.cu"
    f.write_text("#include <stdio.h>\n" + PICK)
    interp = Machine(minicuda.compile(str(f)), engine="jit", jobs=1).interp
    return {name: interp.code(name) for name in ("pick", "sum", "rotate")}


def test_a_straight_kernel_starts_its_blocks_with_its_parameters_rows_only(tmp_path):
    code = codes(tmp_path)["pick"]
    rows = block_start_rows(code)
    params = {code.slot(p.reg) for p in code.fn.params}
    assert rows is not None and params <= set(rows) | {r + 1 for r in rows}
    assert len(rows) < code.rows - 2   # the rows the kernel writes before reading are left


def test_loops_and_shuffles_copy_every_row(tmp_path):
    found = codes(tmp_path)
    assert block_start_rows(found["sum"]) is None
    assert block_start_rows(found["rotate"]) is None


def test_blocks_over_the_previous_blocks_registers_match_the_interpreter(tmp_path, capsys):
    code, out, _ = run_on_both_engines(tmp_path, capsys, PICK, options=("--jobs", "1", "--metrics"))
    assert code == 0
    assert out.startswith("0 201 207 8687295432889714035\n")
    assert "Thread Instructions Executed" in out
