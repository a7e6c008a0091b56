"""minicuda run as nvprof and ncu users type it: -arch=sm_XX, --metrics with nvprof's and
ncu's names, and minicuda's options ending where the program's arguments start."""
import json
from pathlib import Path

import pytest

from minicuda.cli import minicuda_main
from minicuda.vm.metrics import METRICS, NCU_METRICS

SOURCE = """\
#include <cstdio>
__global__ void split(int *a) {
    int i = threadIdx.x;
    if (i % 2) a[i] = i * 3; else a[i] = -i;
}
int main(int argc, char **argv) {
    printf("argc=%d", argc);
    for (int i = 1; i < argc; i++) printf(" [%s]", argv[i]);
    printf("\\n");
    int *d;
    cudaMalloc(&d, 64 * sizeof(int));
    split<<<1, 64>>>(d);
    cudaDeviceSynchronize();
    return 0;
}
"""


@pytest.fixture
def program(tmp_path):
    path = tmp_path / "split.cu"
    path.write_text(SOURCE)
    return str(path)


def run(capsys, *argv):
    status = minicuda_main(["run", *argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def metric_rows(out: str) -> dict[str, str]:
    """{metric name: value} of the metrics table."""
    rows = [line.split() for line in out.splitlines() if line.startswith("        ")]
    return {row[0]: row[-1] for row in rows}


@pytest.mark.parametrize("options, arch", [(["-arch=sm_60"], "[sm_60, stack]"), (["-arch", "sm_90"], "[sm_90, its]"),
                                           (["--arch", "pascal"], "[sm_60, stack]"),
                                           (["--gpu-architecture=sm_75"], "[sm_75, its]")])
def test_arch_spellings(program, capsys, options, arch):
    status, out, _ = run(capsys, *options, program, "--metrics", "branch")
    assert status == 0 and f"Kernel: split <<<(1,1,1), (64,1,1)>>> {arch}" in out


def test_a_metric_name_is_the_metrics_value_not_the_programs_argument(program, capsys):
    status, out, _ = run(capsys, program, "-G", "--metrics", "branch_efficiency")
    assert status == 0 and "argc=1\n" in out
    assert metric_rows(out) == {"branch_efficiency": "80.00%"}


def test_nvprof_names_comma_separated_and_repeated_in_the_order_given(program, capsys):
    status, out, _ = run(capsys, program, "-G", "--metrics", "divergent_branch,branch", "--metrics=branch_efficiency")
    assert status == 0
    assert list(metric_rows(out).items()) == [("divergent_branch", "2"), ("branch", "10"), ("branch_efficiency", "80.00%")]


def test_ncu_names_in_ncus_units(program, capsys):
    names = ["smsp__sass_branch_targets.sum", "smsp__sass_branch_targets_threads_divergent.sum",
             "smsp__sass_branch_targets_threads_uniform.sum", "smsp__sass_average_branch_targets_threads_uniform.pct",
             "smsp__inst_executed.sum", "smsp__thread_inst_executed.sum"]
    status, out, _ = run(capsys, program, "-G", "--metrics", ",".join(names))
    rows = metric_rows(out)
    assert status == 0 and list(rows) == names
    assert (rows[names[0]], rows[names[1]], rows[names[2]], rows[names[3]]) == ("10", "2", "8", "80.00%")
    ratio = run(capsys, program, "-G", "--metrics", "smsp__thread_inst_executed_per_inst_executed.ratio,"
                                                    "inst_executed,thread_inst_executed")[1]
    values = metric_rows(ratio)
    assert float(values["smsp__thread_inst_executed_per_inst_executed.ratio"]) == \
        round(int(values["thread_inst_executed"]) / int(values["inst_executed"]), 2)


def test_threads_not_predicated_off_go_by_nvprofs_name_and_the_old_one(program, capsys):
    status, out, _ = run(capsys, program, "-O3", "--metrics", "not_predicated_off_thread_inst_executed,"
                                                              "thread_inst_executed_pred_on,thread_inst_executed")
    rows = metric_rows(out)
    assert status == 0 and list(rows) == ["not_predicated_off_thread_inst_executed", "thread_inst_executed_pred_on",
                                          "thread_inst_executed"]
    # the two arms are predicated: each lane runs one arm's instructions, so fewer are on than issued
    assert rows["not_predicated_off_thread_inst_executed"] == rows["thread_inst_executed_pred_on"]
    assert int(rows["not_predicated_off_thread_inst_executed"]) < int(rows["thread_inst_executed"])
    assert "not_predicated_off_thread_inst_executed" in [m.name for m in METRICS]


@pytest.mark.parametrize("options", [["--metrics", "all"], ["--metrics"], ["--metrics=all"]])
def test_all_and_a_bare_metrics_print_every_nvprof_metric(program, capsys, options):
    status, out, _ = run(capsys, program, *options)
    assert status == 0 and list(metric_rows(out)) == [m.name for m in METRICS]


def test_without_metrics_no_table(program, capsys):
    assert "Metric result" not in run(capsys, program)[1]


def test_an_unknown_metric_is_rejected_with_the_known_ones_before_running(program, capsys):
    status, out, err = run(capsys, program, "--metrics", "branch,warp_efficency")
    assert status == 1 and out == ""
    assert err.startswith("minicuda: error: unknown metric 'warp_efficency'; known metrics: all, inst_executed, ")
    assert all(m.name in err for m in METRICS + NCU_METRICS)


def test_the_programs_arguments_start_after_the_inputs_and_keep_what_follows(program, capsys):
    status, out, err = run(capsys, program, "--metrics", "branch", "5", "--metrics", "-n")
    assert status == 0 and "argc=4 [5] [--metrics] [-n]\n" in out and list(metric_rows(out)) == ["branch"]
    assert err == ("minicuda: warning: '--metrics' comes after the program's arguments and is passed to the "
                   "program; minicuda's own options go before them\n")
    status, out, err = run(capsys, program, "5", "-n", "-O", "--count=3")
    assert status == 0 and "argc=5 [5] [-n] [-O] [--count=3]\n" in out and err == ""   # none of run's long options


def test_double_dash_ends_minicudas_options(program, capsys):
    status, out, _ = run(capsys, program, "--", "-n", "3")
    assert status == 0 and out == "argc=3 [-n] [3]\n"
    status, out, _ = run(capsys, "--", program, "-x")
    assert status == 0 and out == "argc=2 [-x]\n"
    status, out, err = run(capsys, program, "--", "7", "--engine=interp")   # after --: no warning
    assert status == 0 and out == "argc=3 [7] [--engine=interp]\n" and err == ""


def test_an_unknown_option_before_the_programs_arguments_is_named(program, capsys):
    status, out, err = run(capsys, program, "-n", "3")
    assert status == 2 and out == ""
    assert err == "minicuda fatal   : Unknown option '-n' (the program's own options go after --)\n"


@pytest.mark.parametrize("options, predicated", [([], False), (["--predication-rule", "guide"], True),
                                                 (["--divergent-threshold", "8"], True)])
def test_run_takes_the_predication_settings_and_writes_the_decisions(tmp_path, capsys, options, predicated):
    """A divergent arm of exactly 7 instructions (tests/sweep/data/branchy.cu): kept under < 7,
    predicated under <= 7 or < 8."""
    data = Path(__file__).parents[1] / "sweep" / "data"
    out = tmp_path / "decisions.json"
    assert minicuda_main(["run", "-q", *options, "--decisions-json", str(out), str(data / "branchy.cu"), "1"]) == 0
    first = json.loads(out.read_text())[0]
    assert (first["line"], first["instructions"], first["predicated"]) == (8, 7, predicated)
