"""minicudac reads nvcc's command line: each spelling in its `=` and space forms, the one
target simulated of several, ptxas's resource report, and nvcc-worded errors."""
import io
import sys

import pytest

from minicuda.cli import compiler_parser, minicudac_main

SOURCE = """\
__device__ int table[4];
__global__ void scale(float *a, int n) {
    __shared__ float tile[64];
    int i = threadIdx.x;
    tile[i] = a[i];
    __syncthreads();
    if (i < n) a[i] = tile[63 - i] * 2.0f + table[i % 4];
}
__global__ void fill(int *a) { a[threadIdx.x] = FILL; }
int main() { return 0; }
"""


@pytest.fixture
def source(tmp_path):
    path = tmp_path / "k.cu"
    path.write_text(SOURCE)
    return path


@pytest.fixture(scope="module")
def plain(tmp_path_factory):
    """(exit status, sass text, stderr, path) of minicudac SOURCE -DFILL=1 with no other
    option, SOURCE at `path`: what the options that change nothing, or only add .FTZ, are
    compared with (compiled once for all of them; `as_at` puts another path in its text)."""
    path = tmp_path_factory.mktemp("plain") / "k.cu"
    path.write_text(SOURCE)
    out = path.with_suffix(".sass")
    with pytest.MonkeyPatch.context() as patch:
        err = io.StringIO()
        patch.setattr(sys, "stderr", err)
        status = minicudac_main([str(path), "-DFILL=1", "-o", str(out)])
    return status, out.read_text() if status == 0 else "", err.getvalue(), path


def as_at(plain, source) -> str:
    """The plain compile's sass text as if its source had been at `source`."""
    return plain[1].replace(str(plain[3]), str(source))


def compiled(source, capsys, *options):
    """(exit status, sass text, stderr) of minicudac SOURCE OPTIONS -DFILL=1."""
    out = source.with_suffix(".sass")
    status = minicudac_main([str(source), "-DFILL=1", "-o", str(out), *options])
    err = capsys.readouterr().err
    return status, out.read_text() if status == 0 else "", err


def target_of(sass: str) -> str:
    return sass.splitlines()[0].split(" for ")[1].split(",")[0]


@pytest.mark.parametrize("options, target", [
    (["-arch=sm_90"], "sm_90"), (["-arch", "sm_60"], "sm_60"), (["--arch", "sm_75"], "sm_75"),
    (["--gpu-architecture=sm_80"], "sm_80"), (["--gpu-architecture", "compute_70"], "sm_70"),
    (["-arch=compute_89"], "sm_89"),
    (["-arch=compute_80", "-code=sm_86"], "sm_86"), (["-arch", "compute_80", "--gpu-code", "sm_80,sm_86"], "sm_86"),
    (["-gencode", "arch=compute_60,code=sm_60"], "sm_60"),
    (["-gencode=arch=compute_75,code=sm_75", "--generate-code", "arch=compute_90,code=[sm_90,compute_90]"],
     "sm_90"),
    (["-gencode", "arch=compute_90,code=sm_90", "-gencode", "arch=compute_70,code=sm_70"], "sm_90"),
])
def test_the_target_options_name_the_gpu_simulated(source, capsys, options, target):
    status, sass, err = compiled(source, capsys, *options)
    assert status == 0, err
    assert target_of(sass) == target
    assert err == ""   # several targets are noted only with -v


def test_verbose_says_which_of_several_targets_is_simulated(source, capsys):
    status, sass, err = compiled(source, capsys, "-gencode", "arch=compute_60,code=sm_60",
                                 "-gencode", "arch=compute_90,code=sm_90", "-v")
    assert status == 0 and target_of(sass) == "sm_90"
    assert err == "minicudac: note: several targets (sm_60, sm_90): minicuda simulates one GPU, sm_90, the highest\n"


def test_help_says_one_target_is_simulated():
    assert "simulates ONE GPU" in " ".join(compiler_parser().format_help().split())


@pytest.mark.parametrize("options, message", [
    (["-arch=sm_80", "-code=sm_86"], "Value of -arch option ('sm_80') must be a virtual code architecture"),
    (["-gencode", "arch=compute_80"], "Option '--generate-code arch=compute_80', missing code"),
    (["-gencode", "code=sm_80"], "Option '--generate-code code=sm_80', missing arch"),
    (["-gencode", "foo"], "'foo' is not in 'keyword=value' format"),
    (["-gencode", "arch=compute_80,code=sm_81"], "Unsupported gpu architecture 'sm_81'"),
    (["-std=c++23"], "Value 'c++23' is not defined for option 'std'"),
    (["-std", "gnu++17"], "Value 'gnu++17' is not defined for option 'std'"),
    (["-foo"], "Unknown option '-foo'"),
    (["--no-such-option=3"], "Unknown option '--no-such-option=3'"),
    (["-Xptxas", "-maxrregcount=32"], "Unknown ptxas option '-maxrregcount=32'"),
])
def test_what_nvcc_rejects_is_a_fatal_error_naming_it(source, capsys, options, message):
    status, _, err = compiled(source, capsys, *options)
    assert status == 2
    assert err.startswith(f"minicudac fatal   : {message}")


@pytest.mark.parametrize("options", [
    ["-std=c++11"], ["-std=c++14"], ["-std", "c++17"], ["--std=c++20"], ["-std=c++03"],
    ["-lineinfo"], ["--generate-line-info"], ["--extended-lambda"], ["--expt-extended-lambda"],
    ["--expt-relaxed-constexpr"],
    ["-Xcompiler", "-Wall"], ["-Xcompiler=-Wall,-O2"], ["--compiler-options", "-fPIC"], ["-ccbin", "g++"],
    ["-g"], ["-Xptxas", "-O3"], ["-O3"], ["-rdc=true"], ["--relocatable-device-code=true"], ["-rdc", "true"],
    ["-I", "."], ["--include-path=."],
])
def test_options_without_effect_here_are_accepted_and_change_nothing(source, capsys, plain, options):
    assert plain[0] == 0 and plain[2] == ""
    status, sass, err = compiled(source, capsys, *options)
    assert status == 0 and err == ""
    assert sass.splitlines()[1:] == as_at(plain, source).splitlines()[1:]


@pytest.mark.parametrize("options", [["-use_fast_math"], ["--use_fast_math"], ["-ftz=true"], ["--ftz", "true"]])
def test_fast_math_and_ftz_add_only_ftz_to_this_program(source, capsys, plain, options):
    """No call here that -use_fast_math maps; it implies -ftz=true, which marks the float
    instructions .FTZ and changes nothing else."""
    status, sass, err = compiled(source, capsys, *options)
    assert status == 0 and err == "" and ".FTZ" in sass
    def words(text):
        return [line.split() for line in text.splitlines()[1:]]
    assert words(sass.replace(".FTZ", "")) == words(as_at(plain, source))


@pytest.mark.parametrize("options", [["-O0"], ["-G"], ["--device-debug"]])
def test_debug_and_optimisation_levels(source, capsys, options):
    status, sass, _ = compiled(source, capsys, *options)
    assert status == 0 and ", -O0" in sass.splitlines()[0]


def test_define_macro_spellings(source, capsys, tmp_path):
    texts = set()
    out = tmp_path / "d.sass"
    for options in (["-DFILL=7"], ["-D", "FILL=7"], ["--define-macro=FILL=7"], ["--define-macro", "FILL=7"]):
        assert minicudac_main([str(source), *options, "-o", str(out)]) == 0
        texts.add(out.read_text())
    assert len(texts) == 1 and texts != {compiled(source, capsys)[1]}   # FILL=7 is not FILL=1
    assert minicudac_main([str(source), "-o", str(out)]) == 1   # FILL undefined: the macro did the work
    assert "FILL" in capsys.readouterr().err


PTXAS_SM90 = """\
ptxas info    : 16 bytes gmem
ptxas info    : Compiling entry function 'fill' for 'sm_90'
ptxas info    : Function properties for fill
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used {fill} registers, used 0 barriers
ptxas info    : Compiling entry function 'scale' for 'sm_90'
ptxas info    : Function properties for scale
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used {scale} registers, used 1 barriers, 256 bytes smem
"""


@pytest.mark.parametrize("options", [["-Xptxas", "-v"], ["-Xptxas=-v"], ["--ptxas-options=-v"],
                                     ["--ptxas-options", "-v"], ["-Xptxas", "-v,-O3"], ["-Xptxas", "--verbose"]])
def test_ptxas_verbose_prints_the_resource_report_in_ptxas_wording(source, capsys, options):
    status, _, err = compiled(source, capsys, "-arch=sm_90", *options)
    assert status == 0
    registers = [line.split()[4] for line in err.splitlines() if "Used" in line]
    assert err == PTXAS_SM90.format(fill=registers[0], scale=registers[1])
    assert all(int(r) > 0 for r in registers)


def test_ptxas_reports_constant_bank_zero_below_sm_90(source, capsys):
    status, _, err = compiled(source, capsys, "-arch=sm_75", "-Xptxas", "-v")
    used = [line for line in err.splitlines() if "Used" in line]
    assert status == 0 and len(used) == 2
    assert used[1].endswith(" bytes cmem[0]") and ", used 1 barriers, 256 bytes smem, " in used[1]


def test_ptxas_report_with_c_and_rdc(source, capsys, tmp_path):
    obj = tmp_path / "k.o"
    assert minicudac_main([str(source), "-DFILL=1", "-c", "-rdc=true", "-Xptxas", "-v", "-o", str(obj)]) == 0
    err = capsys.readouterr().err
    assert err.startswith("ptxas info    : 16 bytes gmem\n") and "Compiling entry function 'scale" in err
    assert obj.exists()


def test_a_device_side_launch_needs_rdc_as_nvcc_says(tmp_path, capsys):
    path = tmp_path / "nested.cu"
    path.write_text("__global__ void child() {}\n__global__ void parent() { child<<<1, 1>>>(); }\n"
                    "int main() { parent<<<1, 1>>>(); return 0; }\n")
    assert minicudac_main([str(path), "-arch=sm_90", "-o", str(tmp_path / "n.sass")]) == 1
    err = capsys.readouterr().err
    assert f"{path}:2:28: error: kernel launch from __device__ or __global__ functions requires separate " \
        "compilation mode" in err
    assert minicudac_main([str(path), "-rdc=true", "-arch=sm_90", "-o", str(tmp_path / "n.sass")]) == 0
