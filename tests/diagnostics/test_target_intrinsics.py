"""Intrinsics a target does not declare: __match_any_sync and __match_all_sync are
sm_70's (CUDA's sm_70_rt.h); below it nvcc reports the name as undeclared, at the call."""
import pytest

from minicuda.cli import minicuda_main, minicudac_main

MATCH = """\
__global__ void k(int *p, int *all) {
    int v = p[threadIdx.x], same;
    p[threadIdx.x] = __match_any_sync(0xffffffff, v);
    all[threadIdx.x] = __match_all_sync(0xffffffff, v, &same);
}
int main() { return 0; }
"""


def compile_errors(tmp_path, capsys, *options, text: str = MATCH) -> tuple[int, list[str]]:
    """(exit status, the diagnostics' lines about the program, less its path)."""
    source = tmp_path / "match.cu"
    source.write_text(text)
    status = minicudac_main([*options, str(source), "-o", str(tmp_path / "match.sass")])
    err = capsys.readouterr().err
    assert "Traceback" not in err and "cooperative_groups.h" not in err
    prefix = f"{source}:"
    return status, [line[len(prefix):] for line in err.splitlines() if line.startswith(prefix)]


@pytest.mark.parametrize("options", [["--arch", "pascal"], ["-arch=sm_60"], ["-arch=sm_52"]])
def test_the_match_intrinsics_are_undefined_below_sm_70(tmp_path, capsys, options):
    status, lines = compile_errors(tmp_path, capsys, *options)
    assert status == 1
    assert lines == ['3:22: error: identifier "__match_any_sync" is undefined',
                     '4:24: error: identifier "__match_all_sync" is undefined']


@pytest.mark.parametrize("arch", ["sm_70", "sm_90"])
def test_the_match_intrinsics_compile_from_sm_70(tmp_path, capsys, arch):
    assert compile_errors(tmp_path, capsys, f"-arch={arch}") == (0, [])


def test_minicuda_run_reports_it_too(tmp_path, capsys):
    source = tmp_path / "match.cu"
    source.write_text(MATCH)
    assert minicuda_main(["run", "--arch", "sm_60", str(source)]) == 1
    err = capsys.readouterr().err
    assert 'error: identifier "__match_any_sync" is undefined' in err and "Traceback" not in err


TILE = """\
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int *p) {
    auto tile = cg::tiled_partition<32>(cg::this_thread_block());
    p[threadIdx.x] += tile.shfl(p[0], 0);
    p[threadIdx.x] = tile.match_any(p[threadIdx.x]);
}
int main() { return 0; }
"""


@pytest.mark.parametrize("arch, errors", [
    ("sm_60", ['6:22: error: class "thread_block_tile<32>" has no member "match_any"']),
    ("sm_70", []),
])
def test_a_tiles_match_any_is_sm_70s_too(tmp_path, capsys, arch, errors):
    """CUDA's cooperative_groups.h declares match_any for sm_70 on: below it the call is
    the error, not the header's use of __match_any_sync (nor the tile's other members)."""
    assert compile_errors(tmp_path, capsys, f"-arch={arch}", text=TILE) == (1 if errors else 0, errors)
