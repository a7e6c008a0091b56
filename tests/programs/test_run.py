"""`minicuda run`: whole programs, host code included, with metrics."""
import json

import pytest

from helpers import SAMPLES
from minicuda.cli import minicuda_main

SAMPLE = {p.name: str(p) for p in SAMPLES}


def test_simple_divergence_runs_and_reports_metrics_as_json(tmp_path, capsys):
    out = tmp_path / "m.json"
    # (--time=wall: the program times its kernels with gettimeofday, which --time auto would model,
    # adding the memory counters and the model's figures to each launch)
    assert minicuda_main(["run", SAMPLE["simpleDivergence.cu"], "-G", "--arch", "volta", "--time=wall",
                          "--metrics-json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "using Device 0: Tesla V100-SXM2-16GB" in text
    assert "Execution Configure (block 64, grid 1)" in text and "mathKernel4 <<<    1   64 >>>" in text
    launches = json.loads(out.read_text())
    assert [l["kernel"] for l in launches] == ["warmingup", "mathKernel1", "mathKernel2", "mathKernel3", "mathKernel4"]
    keys = {"kernel", "grid", "block", "arch", "sched", "inst_executed", "thread_inst_executed", "branch",
            "divergent_branch", "branch_efficiency", "warp_execution_efficiency", "theoretical_occupancy",
            "occupancy_limiter", "active_blocks_per_sm", "occupancy_limit_registers", "occupancy_limit_shared_mem",
            "occupancy_limit_warps", "occupancy_limit_blocks"}
    assert all(set(l) == keys for l in launches)
    assert all(l["theoretical_occupancy"] == 100.0 and l["occupancy_limiter"] == "warps+blocks" for l in launches)
    per_warp = {l["kernel"]: l["divergent_branch"] // 2 for l in launches}
    assert per_warp == {"warmingup": 0, "mathKernel1": 1, "mathKernel2": 0, "mathKernel3": 2, "mathKernel4": 0}


def test_program_arguments_reach_main(capsys):
    assert minicuda_main(["run", SAMPLE["sumMatrix.cu"], "64", "48", "16", "8"]) == 0
    out = capsys.readouterr().out
    assert "<<<(4,6), (16,8)>>>" in out and "Arrays match." in out


def test_program_arguments_may_follow_the_options(capsys):
    assert minicuda_main(["run", SAMPLE["sumMatrix.cu"], "--engine", "jit", "--jobs", "2", "64", "48", "16", "8"]) == 0
    assert "Matrix size: nx 64 ny 48" in capsys.readouterr().out
    assert minicuda_main(["run", SAMPLE["sumMatrix.cu"], "--no-such-flag", "64"]) == 2   # before the arguments
    with pytest.raises(SystemExit):
        minicuda_main(["run", SAMPLE["sumMatrix.cu"], "--jobs", "0"])


def test_the_reduction_check_passes_at_a_small_size(capsys):
    assert minicuda_main(["run", SAMPLE["reduceInteger.cu"], "64", "2048"]) == 0
    out = capsys.readouterr().out
    cpu = int(out.split("cpu_sum: ")[1].split()[0])
    sums = [int(part.split()[0]) for part in out.split("gpu_sum: ")[1:]]
    assert len(sums) == 9 and all(s == cpu for s in sums)
    assert "Test failed" not in out


def test_intra_warp_lock_deadlocks_on_pascal_and_completes_on_volta(capsys):
    assert minicuda_main(["run", SAMPLE["warpLock.cu"], "--arch", "pascal"]) == 1
    err = capsys.readouterr().err
    assert "SIMT deadlock" in err and "warpLock.cu:" in err and "independent thread scheduling" in err
    assert minicuda_main(["run", SAMPLE["warpLock.cu"], "--arch", "volta"]) == 0
    assert "counter = 32 (expected 32)" in capsys.readouterr().out


def test_a_kernel_fault_is_reported_with_cudas_message_and_the_program_runs_on(tmp_path, capsys):
    """As on the GPU: the error sticks (the program's own checks see it) and main's status is the exit status."""
    f = tmp_path / "oob.cu"
    f.write_text("#include <stdio.h>\n__global__ void k(int *p) {\n  p[threadIdx.x + 8] = 1;\n}\n"
                 "int main() {\n  int *d;\n  cudaMalloc(&d, 16 * sizeof(int));\n  k<<<1, 32>>>(d);\n"
                 "  cudaDeviceSynchronize();\n  printf(\"reached\\n\");\n  return 0;\n}\n")
    assert minicuda_main(["run", str(f)]) == 0
    captured = capsys.readouterr()
    assert "cudaErrorIllegalAddress" in captured.err and "kernel 'k'" in captured.err
    assert "thread (8, 0, 0)" in captured.err and "oob.cu:3:" in captured.err
    assert "oob.cu:3:5: note: the address is 0 bytes past the end of cudaMalloc(64) at line 7 (64 bytes)" \
        in captured.err
    assert captured.out == "reached\n"


def test_max_steps_ends_an_endless_program(tmp_path, capsys):
    f = tmp_path / "loop.cu"
    f.write_text("int main() { volatile int x = 0; while (1) { x = x + 1; } return 0; }\n")
    assert minicuda_main(["run", str(f), "--max-steps", "2000"]) == 1
    assert "instruction budget exhausted" in capsys.readouterr().err


def test_a_barrier_after_some_threads_exited_runs_on_with_a_warning(tmp_path, capsys):
    f = tmp_path / "bar.cu"
    f.write_text("#include <stdio.h>\n__global__ void k(int *p) {\n  if (threadIdx.x >= 32) return;\n"
                 "  __syncthreads();\n  p[threadIdx.x] = 1;\n}\n"
                 "int main() {\n  int *d; int h[64];\n  cudaMalloc(&d, sizeof(h));\n  cudaMemset(d, 0, sizeof(h));\n"
                 "  k<<<1, 64>>>(d);\n  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);\n"
                 "  printf(\"%d %d\\n\", h[0], h[40]);\n  return 0;\n}\n")
    assert minicuda_main(["run", str(f), "--arch", "volta"]) == 0
    captured = capsys.readouterr()
    assert captured.out.strip() == "1 0"
    assert "warning: __syncthreads() in kernel 'k'" in captured.err and "bar.cu:4:" in captured.err


def test_a_seeded_its_schedule_still_completes_the_lock(capsys):
    for seed in (1, 2, 3):
        assert minicuda_main(["run", SAMPLE["warpLock.cu"], "--arch", "volta", "--sched-seed", str(seed)]) == 0
        assert "counter = 32 (expected 32)" in capsys.readouterr().out


def test_a_host_function_returning_double_keeps_all_64_bits(tmp_path, capsys):
    f = tmp_path / "d.cu"
    f.write_text("#include <stdio.h>\ndouble half(int x) { return x / 2.0 + 1e10; }\n"
                 "int main() { printf(\"%.1f\\n\", half(3)); return 0; }\n")
    assert minicuda_main(["run", str(f)]) == 0
    assert capsys.readouterr().out == "10000000001.5\n"
