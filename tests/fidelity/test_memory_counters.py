"""minicuda's memory counters and theoretical occupancy against the GPU's, launch by launch.

tests/fidelity/memory/record.sh built every program there with nvcc -O3 -arch=sm_90 and ran it
under ncu on an H100 (the command, nvcc's and ncu's versions: tests/data/groundtruth/memory/
versions.txt).  Every launch's global load/store requests, sectors and efficiency, shared
load/store requests, wavefronts and bank conflicts must equal the GPU's within 2%, and its
theoretical occupancy with its block limits the GPU's exactly (given the GPU's register count;
with minicuda's own, the occupancy and every limit but the registers').  Local requests and
sectors too, but for local_array, whose array ptxas keeps in registers."""
import csv
import json
import pathlib

import pytest

from minicuda.cli import minicuda_main
from minicuda.vm.occupancy import occupancy

HERE = pathlib.Path(__file__).resolve().parent
PROGRAMS = HERE / "memory"
DATA = HERE.parent / "data" / "groundtruth" / "memory"
NAMES = sorted(p.stem for p in PROGRAMS.glob("*.cu"))

# ncu's name -> the key of minicuda's --metrics-json
COMPARED = {
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum": "global_ld_requests",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum": "global_ld_sectors",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum": "global_st_requests",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum": "global_st_sectors",
    "smsp__sass_data_bytes_mem_global_op_ld.sum": "global_ld_bytes",
    "smsp__sass_data_bytes_mem_global_op_st.sum": "global_st_bytes",
    "smsp__inst_executed_op_shared_ld.sum": "shared_ld_requests",
    "smsp__inst_executed_op_shared_st.sum": "shared_st_requests",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum": "shared_ld_sectors",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum": "shared_st_sectors",
    "l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum": "local_ld_requests",
    "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum": "local_ld_sectors",
    "l1tex__t_requests_pipe_lsu_mem_local_op_st.sum": "local_st_requests",
    "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum": "local_st_sectors",
}
REGISTERS_NOT_LOCAL = {"local_array"}   # ptxas keeps its array in registers, minicuda in local memory
CONFLICTS = {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum": "ld",
             "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum": "st"}
EFFICIENCY = {"smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct": "ld",
              "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct": "st"}
LIMITS = ("registers", "shared_mem", "warps", "blocks")


def gpu_launches(path: pathlib.Path) -> list[dict]:
    """ncu's --csv rows of one program, one dict of metric -> value per launch, in launch order."""
    rows = [line for line in path.read_text().splitlines() if line.startswith('"')]
    launches: dict[str, dict] = {}
    for row in csv.DictReader(rows):
        launch = launches.setdefault(row["ID"], {"kernel": row["Kernel Name"]})
        value = row["Metric Value"].replace(",", "")
        try:
            launch[row["Metric Name"]] = float(value)
        except ValueError:
            launch[row["Metric Name"]] = value
    return [launches[i] for i in sorted(launches, key=int)]


def minicuda_launches(name: str, tmp_path) -> list[dict]:
    out = tmp_path / f"{name}.json"
    code = minicuda_main(["run", str(PROGRAMS / f"{name}.cu"), "--arch", "sm_90", "-q", "--metrics", "memory",
                          "--metrics-json", str(out)])
    assert code == 0
    return json.loads(out.read_text())


def near(ours: float, theirs: float) -> bool:
    return abs(ours - theirs) <= 0.02 * max(abs(theirs), 1e-9)


def bank_conflicts(launch: dict, op: str) -> int:
    return launch[f"shared_{op}_sectors"] - launch[f"shared_{op}_groups"]


def efficiency(launch: dict, op: str) -> float:
    sectors = launch[f"global_{op}_sectors"]
    return 100.0 * launch[f"global_{op}_bytes"] / (32 * sectors) if sectors else 0.0


def test_every_program_has_its_gpu_record():
    assert len(NAMES) >= 10
    for name in NAMES:
        assert gpu_launches(DATA / f"{name}.csv"), name
    versions = (DATA / "versions.txt").read_text()
    assert "release 13.0" in versions and "nvcc -O3 -arch=sm_90" in versions
    assert all(f"{name} OK" in versions for name in NAMES)


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_memory_counters_equal_the_gpu(name, tmp_path, capsys):
    gpu = gpu_launches(DATA / f"{name}.csv")
    ours = minicuda_launches(name, tmp_path)
    capsys.readouterr()
    assert [m["kernel"] for m in ours] == [g["kernel"] for g in gpu]
    for i, (m, g) in enumerate(zip(ours, gpu)):
        where = f"{name} launch {i} ({g['kernel']})"
        for ncu, key in COMPARED.items():
            if key.startswith("local") and name in REGISTERS_NOT_LOCAL:
                continue
            assert near(m[key], g[ncu]), f"{where}: {key} {m[key]}, the GPU's {ncu} {g[ncu]}"
        for ncu, op in CONFLICTS.items():
            assert near(bank_conflicts(m, op), g[ncu]), f"{where}: {op} bank conflicts"
        for ncu, op in EFFICIENCY.items():
            assert near(efficiency(m, op), g[ncu]), f"{where}: {op} efficiency {efficiency(m, op)}, GPU {g[ncu]}"
    # minicuda's own launches: its theoretical occupancy and the limits that do not depend on
    # the register count (minicuda's can be below ptxas's: aos_increment 32 blocks, the GPU 16)
    for i, (m, g) in enumerate(zip(ours, occupancy_launches(name))):
        assert m["theoretical_occupancy"] == g["sm__maximum_warps_per_active_cycle_pct"], f"{name} launch {i}"
        for limit in ("shared_mem", "warps", "blocks"):
            assert m[f"occupancy_limit_{limit}"] == g[f"launch__occupancy_limit_{limit}"], f"{name} launch {i} {limit}"


def occupancy_launches(name: str) -> list[dict]:
    return gpu_launches(DATA / f"{name}.occupancy.csv")


@pytest.mark.parametrize("name", NAMES)
def test_theoretical_occupancy_equals_the_gpu(name):
    """The calculator, given the GPU's registers per thread, gives ncu's block limits and
    theoretical occupancy for every launch."""
    for g in occupancy_launches(name):
        shared = int(g["launch__shared_mem_per_block_static"] + g["launch__shared_mem_per_block_dynamic"])
        o = occupancy(90, 0, shared, int(g["launch__block_size"]), registers=int(g["launch__registers_per_thread"]))
        assert {k: o.limits[k] for k in LIMITS} == {k: g[f"launch__occupancy_limit_{k}"] for k in LIMITS}, g["kernel"]
        assert o.percent == pytest.approx(g["sm__maximum_warps_per_active_cycle_pct"], abs=0.01)
        assert o.warps == g["sm__maximum_warps_avg_per_active_cycle"]


def test_shared_memory_limits_the_occupancy_of_a_large_block(tmp_path, capsys):
    """minicuda's own launches: 100 KiB of dynamic shared memory per block of 256 threads leaves
    2 blocks (16 warps, 25%) per SM of an H100, limited by shared memory."""
    out = tmp_path / "m.json"
    assert minicuda_main(["run", str(PROGRAMS / "occupancy.cu"), "--arch", "sm_90", "--metrics",
                          "theoretical_occupancy", "--metrics-json", str(out)]) == 0
    heavy = [m for m in json.loads(out.read_text()) if m["kernel"] == "shared_heavy"]
    assert [(m["theoretical_occupancy"], m["occupancy_limiter"]) for m in heavy] == [(62.5, "shared_mem"),
                                                                                     (25.0, "shared_mem")]
    assert "theoretical_occupancy" in capsys.readouterr().out


def test_resource_usage_prints_the_occupancy_and_its_limits(capsys):
    """minicudac --resource-usage: a 1024-thread block with a 4 KiB tile holds 2 blocks per SM
    (warps), its shared memory 3 (the 16 KiB carveout the driver picks), as ncu reports."""
    from minicuda.cli import minicudac_main

    assert minicudac_main([str(PROGRAMS / "transpose_shared.cu"), "--arch", "sm_90", "--resource-usage",
                           "-o", "/dev/null"]) == 0
    err = capsys.readouterr().err
    assert ("minicuda info : Occupancy at 1024 threads per block: 100.00% (64 of 64 warps per SM, 2 blocks), limited "
            "by warps (blocks per SM: registers 4, shared_mem 3, warps 2, blocks 32)") in err
    assert err.count("Occupancy at 256 threads per block") == 2   # the two kernels; main has none
