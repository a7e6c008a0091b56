"""The passes cost work near linear in a function's size: counted (CFGs built, passes
run, calls examined), not timed; and the graph algorithms written for that speed give
networkx's answers."""
import gc
import random

import networkx as nx

import minicuda
from minicuda import pipeline
from minicuda.bench.compile_scale import elseif_program, file_program
from minicuda.ir import Reg, format_module
from minicuda.passes import constant_propagation, hoist_sink, if_convert, inline, simplify_cfg
from minicuda.passes.cfg import CFG, EXIT, strongly_connected
from minicuda.passes.cse import CommonSubexpressions
from minicuda.passes.fuse_imad import FuseImad
from minicuda.passes.postdom import ipdom_of

CALLS = 300
MANY_CALLS = """__device__ int bump(int x) { return x * 3 + 1; }

__global__ void k(int *out)
{
    int s = threadIdx.x;
""" + "    s = bump(s);\n" * CALLS + """    out[threadIdx.x] = s;
}
"""


def test_an_else_if_chain_is_merged_without_a_cfg_per_arm(monkeypatch):
    """300 arms: simplify-cfg used to restart (a new CFG) after merging each empty join block."""
    built = []
    real = pipeline.ANALYSES["cfg"]
    monkeypatch.setitem(pipeline.ANALYSES, "cfg", lambda fn, analyses: built.append(fn.name) or real(fn, analyses))
    minicuda.compile(elseif_program(300))
    assert built.count("pick") < 60


def test_merging_into_one_long_block_reads_each_merged_block_once(monkeypatch):
    """main of the file program grows by a merged block per inlined call: simplify-cfg
    used to look through all of main for an early jump before every merge."""
    scanned = []

    def counting_any(items):
        items = list(items)
        scanned.append(len(items))
        return any(items)

    monkeypatch.setattr(simplify_cfg, "any", counting_any, raising=False)
    source = file_program(1200)
    minicuda.compile(source)
    assert sum(scanned) < 3 * source.count("\n")   # it was over 40 times that


SWITCH_CASES = 300
SWITCH = """__global__ void k(int *out)
{
    int x = threadIdx.x, r = -1;
    switch (x * 313) {
""" + "".join(f"        case {i}: r = {i * 7 % 1000} + x; break;\n" for i in range(SWITCH_CASES)) + """        default: r = 0;
    }
    out[x] = r;
}
"""


def test_a_switch_is_hoisted_from_with_one_dominator_tree(monkeypatch):
    """A switch's compare chain is 300 branches that are no hammocks: hoist-sink used to
    build a dominator tree and walk it for every block under each (cubic: 2 minutes for
    1000 cases), where no side shares a computation at all."""
    built = []
    real = hoist_sink.immediate_dominators
    monkeypatch.setattr(hoist_sink, "immediate_dominators", lambda *a: built.append(1) or real(*a))
    minicuda.compile(SWITCH)
    assert len(built) <= 1


def test_a_switch_walks_for_cycles_only_where_a_branch_can_exit(monkeypatch):
    """if-convert looks for a cycle through a branch (a walk of the function) only where
    one of its targets only exits: none of the switch's 300 comparisons."""
    walks = []
    real = if_convert.reaches
    monkeypatch.setattr(if_convert, "reaches", lambda *a: walks.append(1) or real(*a))
    minicuda.compile(SWITCH)
    assert len(walks) < 10


def test_constant_propagation_meets_a_switchs_join_once(monkeypatch):
    """The join after 300 cases has 301 predecessors: constant-propagation used to meet
    all their exits again after each case's block (quadratic)."""
    read = []

    class CountingCFG:
        def __init__(self, cfg):
            self.entry, self.succs = cfg.entry, cfg.succs
            self.preds = lambda label: read.append(len(cfg.preds(label))) or cfg.preds(label)

    real = constant_propagation._entry_facts
    monkeypatch.setattr(constant_propagation, "_entry_facts", lambda fn, cfg: real(fn, CountingCFG(cfg)))
    minicuda.compile(SWITCH)
    assert 0 < sum(read) < 4 * SWITCH_CASES


def random_cfg(rng: random.Random) -> CFG:
    labels = [f"L{i}" for i in range(rng.randint(1, 25))]
    succ = {label: list(dict.fromkeys(rng.choice(labels + [EXIT]) for _ in range(rng.choice([0, 1, 1, 2, 2, 3]))))
            for label in labels}
    return CFG(succ, labels[0], labels)


def test_post_dominators_and_cycles_are_networkxs():
    rng = random.Random(11)
    for _ in range(500):
        cfg = random_cfg(rng)
        idom = nx.immediate_dominators(cfg.graph.reverse(copy=True), EXIT)
        assert ipdom_of(cfg) == {label: idom[label] if label in idom else None for label in cfg.order}
        assert strongly_connected(cfg) == {n: c for c in nx.strongly_connected_components(cfg.graph) for n in c}


def test_a_cleanup_pass_that_changed_nothing_runs_again_only_after_a_change(monkeypatch):
    """-O3 runs the cleanup seven times; once cse has found nothing, it runs again only
    after another pass changed the function (here fewer than 3.5 runs a function of the
    7: reassociate's changes to the program's index arithmetic wake it once more in a
    few), and the code is what running it every time gives."""
    runs = []
    real = CommonSubexpressions.run
    monkeypatch.setattr(CommonSubexpressions, "run", lambda self, fn, analyses: runs.append(fn.name) or
                        real(self, fn, analyses))
    source = file_program(96)
    skipping = format_module(minicuda.compile(source).module)
    functions, skipped_runs = len(set(runs)), len(runs)
    assert skipped_runs < 3.5 * functions
    monkeypatch.setattr(pipeline.Analyses, "settled", lambda self, name: False)
    assert format_module(minicuda.compile(source).module) == skipping
    assert len(runs) - skipped_runs == 7 * functions


def test_inlining_examines_each_instruction_once(monkeypatch):
    """300 calls of one device function: the walk goes on after each copied body instead
    of starting over from the kernel's first block."""
    examined = []
    real = inline._is_call
    monkeypatch.setattr(inline, "_is_call", lambda ins: examined.append(ins) or real(ins))
    kernel = minicuda.compile(MANY_CALLS).module.functions["k"]
    assert not any(ins.op == "CALL" for ins in kernel.instructions())
    assert len(examined) < 20 * CALLS


def test_inlining_copies_the_rest_of_a_block_once(monkeypatch):
    """300 calls in one block: each call's continuation block used to be built from a
    copy of everything after the call (the copies summed quadratically)."""
    built = []
    real = inline.Block
    monkeypatch.setattr(inline, "Block", lambda label, instrs: built.append(len(instrs)) or real(label, instrs))
    kernel = minicuda.compile(MANY_CALLS).module.functions["k"]
    assert not any(ins.op == "CALL" for ins in kernel.instructions())
    assert sum(built) < 20 * CALLS   # it was over 100 times CALLS


def test_the_cycle_collector_skips_the_ast_and_module_while_passes_run_only(monkeypatch):
    frozen = []
    real = CommonSubexpressions.run
    monkeypatch.setattr(CommonSubexpressions, "run", lambda self, fn, analyses: frozen.append(gc.get_freeze_count())
                        or real(self, fn, analyses))
    minicuda.compile(MANY_CALLS)
    assert frozen and min(frozen) > 0
    assert gc.get_freeze_count() == 0


def test_fuse_imad_walks_back_only_from_an_add_of_a_product(monkeypatch):
    """300 loaded values summed in one block: fuse-imad used to walk back through the
    block from every add to each operand's write (a load, far back): quadratic."""
    values = 300
    loads = "".join(f"    int v{i} = in[{i} * 32 + threadIdx.x];\n" for i in range(values))
    total = "".join(f"    s = s * 3 + v{i};\n" for i in reversed(range(values)))
    source = f"__global__ void k(const int *in, int *out) {{\n{loads}    int s = 0;\n{total}" \
             "    out[threadIdx.x] = s;\n}\n"
    compared, running = [], []
    real_eq, real_run = Reg.__eq__, FuseImad.run
    monkeypatch.setattr(Reg, "__eq__", lambda a, b: (running and compared.append(1)) or real_eq(a, b))
    monkeypatch.setattr(FuseImad, "run", lambda self, fn, analyses: running.append(1) or real_run(self, fn, analyses))
    kernel = minicuda.compile(source).module.functions["k"]
    assert sum(ins.op == "IMAD" for ins in kernel.instructions()) >= values - 1
    assert len(compared) < 100 * values
