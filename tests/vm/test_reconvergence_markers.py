"""The stack model reconverges where the printed markers say (the rule is in
minicuda/ir.py): SSY/BSSY before a branch names its join, a marker ending a loop's
preheader names the join of the loop's branch, and no marker means the exit.  The
compiler places the markers at the immediate post-dominators, so what the VM reads
from them is what it used to compute from the CFG; and the markers follow the
scheduling model the module is compiled for."""
import subprocess
import sys

import numpy as np
import pytest

from conftest import ROOT, SAMPLES
import minicuda
from minicuda.compiler import pipeline
from minicuda.frontend import load
from minicuda.ir import parse_module, reconvergence_joins
from minicuda.passes.cfg import EXIT, conditional_branch
from minicuda.passes.inline import inline_device_calls
from minicuda.passes.lower import lower
from minicuda.pipeline import Options, run_passes
from minicuda.vm.code import Code
from minicuda.vm.launcher import Device
from minicuda.vm.machine import Machine

IF_ELSE = """.arch sm_60
.sched stack
.kernel k (R0:out:8:pointer)
  .shared 0 .local 0
.L0:
  S2R R2, SR_TID.X
  LOP.AND R3, R2, 1
  ISETP.EQ.S32 P0, R3, 0
  SSY .L3
  @P0 BRA .L2
.L1:
  MOV R4, 1
  BRA .L3
.L2:
  MOV R4, 2
.L3:
  SYNC
  IADD R4, R4, 1
  IADD R4, R4, 1
  IADD R4, R4, 1
  IADD R4, R4, 1
  IADD R4, R4, 1
  EXIT
.end k
"""

LOOP = """.arch sm_60
.sched stack
.kernel k (R0:n:4:value)
  .shared 0 .local 0
.L0:
  S2R R2, SR_TID.X
  MOV R3, 0
  SSY .L3
.L1:
  IADD R3, R3, 1
  ISETP.LT.S32 P0, R3, R2
  @P0 BRA .L1
.L2:
  BRA .L3
.L3:
  SYNC
  EXIT
.end k
"""


def test_the_marker_before_a_branch_names_its_join():
    fn = parse_module(IF_ELSE, check=True).functions["k"]
    assert reconvergence_joins(fn) == {".L0": ".L3", ".L1": None, ".L2": None, ".L3": None}
    code = Code(fn)
    assert code.rpc[".L0"] == code.label_pc[".L3"] and code.rpc[".L1"] == code.end
    bssy = IF_ELSE.replace("SSY .L3", "BSSY B0, .L3").replace("  SYNC", "  BSYNC B0")
    assert reconvergence_joins(parse_module(bssy, check=True).functions["k"])[".L0"] == ".L3"


def test_a_marker_ending_a_preheader_names_the_join_of_the_loops_branch():
    fn = parse_module(LOOP, check=True).functions["k"]
    assert reconvergence_joins(fn)[".L1"] == ".L3"
    jumping = LOOP.replace("  SSY .L3\n.L1:", "  SSY .L3\n  BRA .L1\n.L1:")
    assert reconvergence_joins(parse_module(jumping, check=True).functions["k"])[".L1"] == ".L3"
    without = LOOP.replace("  SSY .L3\n", "")
    assert set(reconvergence_joins(parse_module(without, check=True).functions["k"]).values()) == {None}


def test_a_branchs_own_marker_wins_over_its_preheaders():
    text = LOOP.replace("  ISETP.LT.S32 P0, R3, R2\n", "  ISETP.LT.S32 P0, R3, R2\n  SSY .L2\n")
    assert reconvergence_joins(parse_module(text, check=True).functions["k"])[".L1"] == ".L2"


@pytest.mark.parametrize("engine", ["interp", "jit"])
def test_the_stack_model_runs_what_the_markers_say(engine):
    """Without its SSY the two sides of the branch meet only at the exit: each runs the
    join block on its own, so the warp issues the join's 7 instructions twice."""
    def run(text):
        return Device(parse_module(text, check=True), engine=engine).launch("k", 1, 32, np.zeros(1, np.int32))
    marked, unmarked = run(IF_ELSE), run(IF_ELSE.replace("  SSY .L3\n", ""))
    assert (marked.divergent_branch, unmarked.divergent_branch) == (1, 1)
    assert (marked.inst_executed, unmarked.inst_executed) == (15, 21)
    assert marked.max_stack_depth == unmarked.max_stack_depth == 3


def _before_register_allocation(path, arch: int, opt: int):
    """Each function of the program after the passes up to reconverge, with its analyses."""
    options = Options(arch=arch, opt=opt)
    module = lower(load(str(path)).tu, f"sm_{arch}", g_shape=opt == 0)
    inline_device_calls(module, forced_only=opt == 0)
    passes = [p for p in pipeline(options) if p.name != "regalloc"]
    for fn in module.functions.values():
        yield fn, run_passes(fn, passes, options, module)


@pytest.mark.parametrize("opt", [0, 3])
@pytest.mark.parametrize("path", SAMPLES, ids=[p.name for p in SAMPLES])
def test_the_markers_name_the_immediate_post_dominator_of_every_divergent_branch(path, opt):
    for arch in (60, 70):
        for fn, analyses in _before_register_allocation(path, arch, opt):
            ipdom, divergence = analyses.get("ipdom"), analyses.get("divergence")
            joins = reconvergence_joins(fn)
            for b in fn.blocks:
                if conditional_branch(b) is None:
                    continue
                post = None if ipdom.get(b.label) in (None, EXIT) else ipdom[b.label]
                if opt == 0 and post is not None and [i.op for i in fn.block(post).instrs] == ["EXIT"]:
                    post = None   # -O0's one exit block (g-shape) is the exit: no marker
                if divergence.branch_is_uniform(b.label):
                    assert joins[b.label] is None, (fn.name, b.label)
                elif arch == 60:
                    assert joins[b.label] == post, (fn.name, b.label)
                else:   # ITS: no marker on a loop's branch
                    assert joins[b.label] in (post, None), (fn.name, b.label)


REDUCE = str(next(p for p in SAMPLES if p.name == "reduceInteger.cu"))


def test_forcing_the_stack_model_compiles_ssy_markers_and_runs_as_a_stack_arch():
    volta = minicuda.compile(REDUCE, arch="volta", sched="stack")
    ops = {i.op for fn in volta.module.functions.values() for i in fn.instructions()}
    assert volta.module.sched == "stack" and {"SSY", "SYNC"} <= ops and not {"BSSY", "BSYNC"} & ops
    pascal = minicuda.compile(REDUCE, arch="pascal")
    metrics = []
    for prog in (volta, pascal):
        m = Machine(prog, stdout=open("/dev/null", "wb"))
        assert m.sched == "stack" and m.run(["reduce", "32", "1024"]) == 0
        metrics.append([{k: v for k, v in l.as_dict().items() if k != "arch"} for l in m.launches])
    assert metrics[0] == metrics[1]


def test_a_compiled_program_gives_the_module_for_the_model_asked_for():
    prog = minicuda.compile(REDUCE, arch="volta")
    assert prog.module.sched == "its"
    stack = prog.module_for("stack")
    assert stack.sched == "stack" and prog.module_for("stack") is stack and prog.module_for("its") is prog.module
    assert Device(prog, sched="stack").module is stack and Device(prog, sched="scalar").module is prog.module
    with pytest.raises(ValueError, match="placed for the its model"):
        Machine(prog.module, sched="stack")


def test_the_vm_runs_a_module_without_the_frontend_or_the_passes(tmp_path):
    sass = tmp_path / "warpLock.sass"
    prog = minicuda.compile(str(next(p for p in SAMPLES if p.name == "warpLock.cu")), arch="volta")
    sass.write_text(prog.sass())
    script = (f"import sys\nfrom minicuda.ir import parse_module\nfrom minicuda.vm.machine import Machine\n"
              f"import minicuda.vm.launcher, minicuda.vm.engine, minicuda.vm.jit.engine\n"
              f"m = Machine(parse_module(open({str(sass)!r}).read()), engine='jit')\n"
              f"code = m.run(['warpLock'])\n"
              f"bad = sorted(n for n in sys.modules if n.startswith(('minicuda.grammar', 'minicuda.passes', "
              f"'minicuda.compiler', 'minicuda.frontend')))\n"
              f"print('loaded:', bad, 'exit', code)\n")
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert "counter = 32 (expected 32)" in r.stdout and "loaded: [] exit 0" in r.stdout
