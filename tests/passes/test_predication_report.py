"""minicudac --report=predication read against the source: line:column per branch (the
two branches of `a && b` apart), loops in a section of their own with their trip counts,
host code only with --report-host, a device function once per inlined call site,
'1 instruction', a memory fence not called a barrier."""
from minicuda.cli import minicudac_main

SOURCE = """\
__device__ float twice(float x, int n) {
    if (n > 3) x = x * 2.0f;
    return x;
}
__global__ void k(float *a, int n) {
    int t = threadIdx.x;
    if (t < n && a[t] > 0.0f) a[t] = twice(a[t], n);
    a[t] = twice(a[t], t);
    for (int i = 0; i < 10; i++) a[t] += 1.0f;
    for (int i = 0; i < n; i += 2) a[t] += 2.0f;
    if (t == 0) __threadfence();
    if (t == 1) a[0] = 1.0f;
}
int main() {
    float *d;
    cudaMalloc(&d, 256);
    for (int i = 0; i < 3; i++) k<<<1, 32>>>(d, 5);
    return 0;
}
"""


def report(tmp_path, capsys, *options) -> list[str]:
    f = tmp_path / "k.cu"
    f.write_text(SOURCE)
    assert minicudac_main([str(f), "--report=predication", *options]) == 0
    return [line.replace(str(f), "k.cu") for line in capsys.readouterr().out.splitlines()]


def test_the_report_at_O3(tmp_path, capsys):
    assert report(tmp_path, capsys, "-O3") == [
        "k.cu:7:9: k: divergent, 0 instructions, kept: not an if-then or if-then-else hammock (a larger region)",
        "k.cu:7:18: k: divergent, 0 instructions, kept: not an if-then or if-then-else hammock (a larger region)",
        "k.cu:2:9: k: divergent, 1 instruction, predicated: 1 instruction < 7 (divergent threshold)",
        "k.cu:2:9: k: divergent, 1 instruction, predicated: 1 instruction < 7 (divergent threshold)",
        "k.cu:11:9: k: divergent, 1 instruction, kept: a memory fence (MEMBAR.GL) in an arm blocks conversion",
        "k.cu:12:9: k: divergent, 1 instruction, predicated: the branch's target only exits (ptxas's @P EXIT; "
        "its arms would be predicated: 1 instruction < 7 (divergent threshold))",
        "loops:",
        "k.cu:9:21: k: uniform exit, trip count 10, fully unrolled",
        "k.cu:10:21: k: uniform exit, trip count unknown, unrolled by 4 with a remainder loop",
    ]


def test_at_O0_the_called_function_is_listed_once_alone(tmp_path, capsys):
    lines = report(tmp_path, capsys, "-G")
    assert [line for line in lines if "twice" in line] == [
        "k.cu:2:9: twice: divergent, 2 instructions, kept: -O0 keeps every branch"]
    assert lines[lines.index("loops:"):] == ["loops:", "k.cu:9:21: k: uniform exit, trip count 10, not unrolled",
                                             "k.cu:10:21: k: uniform exit, trip count unknown, not unrolled"]


def test_host_code_only_with_report_host(tmp_path, capsys):
    assert not [line for line in report(tmp_path, capsys) if ": main: " in line]
    assert report(tmp_path, capsys, "--report-host")[-1] == "k.cu:17:21: main: uniform exit, trip count 3, not unrolled"
