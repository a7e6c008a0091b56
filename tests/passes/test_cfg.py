"""CFG construction: successors of every way a block can end, and the virtual exit.

Expectations live in the IR text: `// succs: A B` under a block's label lists its
successors in order (taken target first).
"""
import networkx as nx

from minicuda.ir import format_module, parse_module, verify
from minicuda.passes.cfg import EXIT, build_cfg, conditional_branch

IR = """
.kernel k (%rd0:a:8:pointer, %r9:n:4:value)
  .shared 0 .local 0
.L0:
  // succs: .L1
  S2R %r0, SR_TID.X
  ISETP.LT %p0, %r0, %r9
.L1:
  // succs: .L3 .L2
  @%p0 BRA .L3
.L2:
  // succs: .L5 .L4
  @!%p0 BRA .L5
  BRA .L4
.L3:
  // succs: .L3 .L4
  @%p0 BRA .L3
.L4:
  // succs: .L5
  @%p0 BRA .L5
.L5:
  // succs: EXIT .L6
  @%p0 EXIT
.L6:
  // succs: .L8
  BRA .L8
.L7:
  // succs: EXIT
  TRAP
.L8:
  // succs: EXIT
  STG [%rd0], %r0
  EXIT
.end k

.device f (%r0:x:4:value) -> (%r1)
  .shared 0 .local 0
.L0:
  // succs: EXIT .L1
  ISETP.EQ %p0, %r0, 0
  @%p0 RET
.L1:
  // succs: EXIT
  IADD %r1, %r0, 1
  RET
.end f
"""


def annotations(text: str, key: str) -> dict[str, str]:
    """{block label: text after `// key:`} for the annotations under each label."""
    out, label = {}, None
    for line in text.splitlines():
        s = line.strip()
        if s.endswith(":") and " " not in s:
            label = s[:-1]
        elif s.startswith(f"// {key}:"):
            out[label] = s.split(":", 1)[1].strip()
    return out


def parse(text: str):
    mod = parse_module(text)
    assert parse_module(format_module(mod)) == mod
    for fn in mod.functions.values():
        verify(fn)
    return mod


def test_successors_match_annotations():
    mod = parse(IR)
    chunks = IR.split(".end k")
    for fn, text in zip(mod.functions.values(), chunks):
        cfg = build_cfg(fn)
        want = {label: succs.split() for label, succs in annotations(text, "succs").items()}
        assert {label: cfg.succs(label) for label in want} == want
        assert set(want) == {b.label for b in fn.blocks}


def test_virtual_exit_is_the_one_sink():
    cfg = build_cfg(parse(IR).functions["k"])
    assert EXIT in cfg.graph
    assert cfg.succs(EXIT) == []
    assert sorted(cfg.preds(EXIT)) == [".L5", ".L7", ".L8"]
    assert [n for n in cfg.graph if cfg.graph.out_degree(n) == 0] == [EXIT]
    assert all(nx.has_path(cfg.graph, n, EXIT) for n in cfg.graph)


def test_entry_order_and_reachability():
    cfg = build_cfg(parse(IR).functions["k"])
    assert cfg.entry == ".L0"
    assert cfg.order == [f".L{i}" for i in range(9)]
    # the virtual exit counts as reachable; .L7 (after an unconditional BRA) does not
    assert cfg.reachable() == {f".L{i}" for i in range(9)} - {".L7"} | {EXIT}


def test_guarded_branch_to_the_next_block_has_one_successor():
    fn = parse("""
.kernel k ()
.L0:
  ISETP.EQ %p0, %r0, 0
  @%p0 BRA .L1
.L1:
  EXIT
.end k
""").functions["k"]
    assert build_cfg(fn).succs(".L0") == [".L1"]
    assert conditional_branch(fn.blocks[0]) is not None


def test_conditional_branch():
    fn = parse(IR).functions["k"]
    found = {b.label: conditional_branch(b) for b in fn.blocks}
    assert {label for label, br in found.items() if br is not None} == {".L1", ".L2", ".L3", ".L4"}
    br = found[".L2"]
    assert (br.target, br.guard.name, br.guard_neg) == (".L5", "%p0", True)
