"""Dynamic parallelism's compile-time errors, as nvcc 13 words them: a kernel launch in
device code without -rdc=true; a device-side cudaDeviceSynchronize() for sm_90 (CUDA 12
removed it, as the note says), accepted for sm_80 (CUDA 11's meaning); a device-side
launch for a target before sm_35."""
import pytest

from minicuda.cli import minicudac_main

LAUNCH = """\
__global__ void child(int *p) { p[threadIdx.x] = 1; }
__global__ void parent(int *p) {
    child<<<1, 4>>>(p);
    cudaDeviceSynchronize();
}
"""


def compile_errors(tmp_path, capsys, *options) -> tuple[int, list[str]]:
    source = tmp_path / "nested.cu"
    source.write_text(LAUNCH)
    status = minicudac_main([*options, str(source), "-o", str(tmp_path / "nested.sass")])
    err = capsys.readouterr().err
    assert "Traceback" not in err
    prefix = f"{source}:"
    return status, [line[len(prefix):] for line in err.splitlines() if line.startswith(prefix)]


def test_a_device_side_launch_needs_separate_compilation(tmp_path, capsys):
    status, lines = compile_errors(tmp_path, capsys, "-arch=sm_80")
    assert status == 1
    assert lines == ["3:5: error: kernel launch from __device__ or __global__ functions requires separate "
                     "compilation mode"]


def test_device_side_synchronize_is_an_error_for_sm_90(tmp_path, capsys):
    status, lines = compile_errors(tmp_path, capsys, "-rdc=true", "-arch=sm_90")
    assert status == 1
    assert lines[0] == '4:5: error: calling a __host__ function("cudaDeviceSynchronize") from a __global__ ' \
                       'function("parent") is not allowed'
    assert lines[1].startswith("4:5: note: CUDA 12 removed device-side cudaDeviceSynchronize()")


@pytest.mark.parametrize("arch", ["sm_35", "sm_60", "sm_80"])
def test_device_side_synchronize_keeps_cuda_11_meaning_below_sm_90(tmp_path, capsys, arch):
    status, lines = compile_errors(tmp_path, capsys, "-rdc=true", f"-arch={arch}")
    assert status == 0 and lines == []


def test_a_device_side_launch_needs_sm_35(tmp_path, capsys):
    status, lines = compile_errors(tmp_path, capsys, "-rdc=true", "-arch=sm_30")
    assert status == 1
    assert lines[0] == "3:5: error: a kernel launch from device code (dynamic parallelism) needs sm_35 or later; " \
                       "the target is sm_30"
