"""If-conversion on whole programs: the seed kernels, -O0 and long arms.  The pass on IR
text (nvcc's thresholds pinned at their boundaries, the Programming Guide's rule, the
threshold options, guarded arms, returning and empty arms, barriers) is FileCheck tests:
tests/passes/filecheck/if-convert/."""
import minicuda
from helpers import GROUNDTRUTH
from minicuda.ir import format_function
from minicuda.passes.if_convert import IfConvert


def test_seed_kernels_keep_no_divergent_branch_at_O3():
    program = minicuda.compile(str(GROUNDTRUTH), opt=3, verify_each=True)
    for name in ("mathKernel1", "mathKernel2", "mathKernel3", "mathKernel4", "addSubDivergent"):
        fn = program.functions[name]
        assert not [i for i in fn.instructions() if i.op == "BRA" and i.guard is not None], format_function(fn)
        records = [d for d in program.branch_decisions if d.function == name]
        assert records and all(d.predicated for d in records)


def test_long_arms_are_kept_at_O3():
    src = """__global__ void k(float *c) {
  int t = threadIdx.x;
  float a = c[t];
  if (t % 2 == 0) { a = a * 2.0f + 1.0f; a = a * a - 3.0f; a = a / 7.0f + a; a = a * 0.5f - 2.0f; }
  else { a = a * 3.0f + 2.0f; a = a * a + 4.0f; a = a / 5.0f - a; a = a * 0.25f + 1.0f; }
  c[t] = a;
}"""
    program = minicuda.compile(src, opt=3)
    (d,) = program.branch_decisions
    assert not d.predicated and d.instructions >= 14 and d.line == 4


def test_a_conversion_decides_again_only_the_branches_it_touched(monkeypatch):
    """A switch of 200 kept branches whose last arm is converted, then the hammock
    around it: each branch is decided about once, not once per conversion (the pass
    swept the whole function again after each one), with the same records."""
    cases = "".join(f"    case {c}: v = {c * 7 + 1}; break;\n" for c in range(200))
    src = f"""__global__ void k(int *out, int n) {{
  int t = threadIdx.x, v = 0;
  switch (t) {{
{cases}  default: v = -1; break;
  }}
  if (n > 3) v += n;
  out[t] = v;
}}"""
    decided = []
    decide = IfConvert.decide
    monkeypatch.setattr(IfConvert, "decide", lambda self, *args: decided.append(args[3]) or decide(self, *args))
    program = minicuda.compile(src, opt=3)
    records = [d for d in program.branch_decisions if d.function == "k"]
    assert sum(d.predicated for d in records) >= 1 and len(records) > 200
    assert len(decided) < len(records) + 10
