"""-O3 branches of conditions and if-else-if chains on probe programs against an H100
(tests/data/groundtruth/fidelity/o3cond/: thirty one-launch programs, nvcc 13.0 -O3 sm_90, ncu
2025.3.1 with the fidelity suite's metrics; make_probes.py wrote them, README.md there says
what each varies and what the SASS shows).  Each launch's divergent branches and branches are
compared with minicuda's; the differences known are listed with what differs (docs/fidelity.md,
"Conditions and if-else-if chains"): a change that makes one agree must take it off its list,
and one that breaks an agreeing launch fails."""
import re

import pytest

from fidelity.groundtruth import DATA_DIR, minicuda_metrics
from minicuda.bench.fidelity import gpu_launches

DATA = DATA_DIR / "o3cond"
PROGRAMS = DATA / "programs"
LAUNCHES = {launch.kernel: launch for launch in gpu_launches(DATA / "fidelity.tsv", PROGRAMS) if launch.build == "O3"}

# kernel -> why minicuda's divergent branches differ from the GPU's
DIVERGENT_DIFFERS: dict[str, str] = {
    "arm_ifelse_load": "minicuda 8 divergent branches, the GPU 0: ptxas predicates both arms with their loads "
                       "(`@P0 LDG`, `@!P0 LDG` at [R+4], [R+8]); minicuda's arms count their own address arithmetic "
                       "and reach the divergent threshold",
    "arm_then_load_2": "minicuda 8, the GPU 0: ptxas predicates the two loads and the add (3 instructions, "
                       "[R+imm] addresses); minicuda counts the addresses too",
    "chain_store_3_addr": "minicuda 16, the GPU 8: ptxas keeps the outer branch and predicates the inner arm's "
                          "store with its own EXIT (`@P0 STG; @P0 EXIT`); minicuda keeps both",
    "chain_store_4": "minicuda 16, the GPU 8: LLVM sinks the arms' stores into one STG after the join (and the "
                     "last two arms into a SEL); ptxas predicates the inner if-else and keeps only the outer branch. "
                     "minicuda sinks stores out of a two-armed hammock only, so the chain keeps a branch per level",
    "chain_store_4_load": "minicuda 16, the GPU 24: the arms' loads keep every level of the chain a branch on the "
                          "GPU (one STG after the join); minicuda predicates the innermost level",
    "chain_store_5": "minicuda 24, the GPU 16: as chain_store_4, the store sunk and the two inner levels predicated "
                     "(SEL) on the GPU",
    "cond_and_load_inc": "minicuda 16, the GPU 0: ptxas predicates the load of the second operand and the `k += 2` "
                         "under the combined predicate (`@P0 LDG`, `ISETP.GT.AND P0, ..., P0`, `@P0 LOP3`); "
                         "minicuda keeps an arm that holds predicated code and a load (its nest rule)",
}

# kernel -> why minicuda's branches differ from the GPU's (where its divergent branches agree)
BRANCHES_DIFFER: dict[str, str] = {
    "chain_store_3": "minicuda 8 branches, the GPU 16 (divergent 8 both): the GPU's one STG after the join leaves "
                     "an unconditional BRA per warp over the predicated inner if-else",
    "cond_or_load_uni": "minicuda 16 branches, the GPU 8 (divergent 0 both): the uniform `n < 3` branch over the "
                        "load and SEL is one BRA on the GPU, two jumps here",
}


def test_the_data_is_whole():
    assert "release 13.0" in (DATA / "versions.txt").read_text()
    names = sorted(path.stem for path in PROGRAMS.glob("*.cu"))
    assert sorted(LAUNCHES) == names and len(names) == 30
    assert (DATA / "programs_O3.txt").read_text().count(" OK\n") == 30
    sass = (DATA / "sass" / "sm_90_O3.sass").read_text()
    assert sorted(re.findall(r"\.function _Z\d+(\w+?)PiS_i", sass)) == names
    assert set(DIVERGENT_DIFFERS) | set(BRANCHES_DIFFER) <= set(names)


@pytest.mark.slow   # 30 runs of minicuda
@pytest.mark.parametrize("kernel", sorted(LAUNCHES))
def test_branches_per_launch(tmp_path, capsys, kernel):
    gpu = LAUNCHES[kernel]
    ours = minicuda_metrics(tmp_path, capsys, gpu.source, "O3")
    got = (ours["divergent_branch"], ours["branch"])
    if kernel in DIVERGENT_DIFFERS:
        assert got[0] != gpu.divergent, f"{kernel} now agrees: take it off DIVERGENT_DIFFERS"
        return
    assert got[0] == gpu.divergent, f"{kernel}: minicuda {got}, the GPU {(gpu.divergent, gpu.branches)}"
    if kernel in BRANCHES_DIFFER:
        assert got[1] != gpu.branches, f"{kernel} now agrees: take it off BRANCHES_DIFFER"
    else:
        assert got[1] == gpu.branches, f"{kernel}: minicuda {got}, the GPU {(gpu.divergent, gpu.branches)}"
