"""minicuda -G beside the GPU on headercalls.cu: per kernel, ncu's branches and divergent
branches (nvcc -G, sm_90) and minicuda's (`minicuda run -G -arch sm_90 --metrics-json`).

    python tests/data/groundtruth/fidelity/gcalls/compare.py

Read by tests/fidelity/test_header_calls.py, which holds minicuda to the GPU kernel by kernel."""
import csv
import io
import json
import pathlib
import subprocess
import tempfile

HERE = pathlib.Path(__file__).resolve().parent


def gpu_counts(build: str = "G", folder: pathlib.Path = HERE) -> dict[str, tuple[int, int, int]]:
    """kernel -> (branches, divergent branches, warp instructions) from ncu's CSV in `folder`."""
    lines = (folder / f"ncu_{build}.csv").read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith('"ID"'))
    metrics: dict[str, dict[str, int]] = {}
    for row in csv.DictReader(io.StringIO("\n".join(lines[start:]))):
        metrics.setdefault(row["Kernel Name"], {})[row["Metric Name"]] = int(row["Metric Value"].replace(",", ""))
    return {k: (m["smsp__sass_branch_targets.sum"], m["smsp__sass_branch_targets_threads_divergent.sum"],
                m["smsp__inst_executed.sum"]) for k, m in metrics.items()}


def minicuda_counts(launches: list[dict]) -> dict[str, tuple[int, int, int]]:
    return {m["kernel"]: (m["branch"], m["divergent_branch"], m["inst_executed"]) for m in launches}


def run_minicuda(program: pathlib.Path = HERE / "headercalls.cu") -> list[dict]:
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp) / "metrics.json"
        subprocess.run(["minicuda", "run", str(program), "-G", "-arch", "sm_90",
                        "-q", "--metrics-json", str(out)], check=True, stdout=subprocess.DEVNULL)
        return json.loads(out.read_text())


def main(folder: pathlib.Path = HERE, program: str = "headercalls.cu") -> None:
    gpu, mine = gpu_counts("G", folder), minicuda_counts(run_minicuda(folder / program))
    print("| kernel | GPU br | GPU div | GPU winst | minicuda br | minicuda div | minicuda winst |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for k, (b, d, w) in gpu.items():
        mb, md, mw = mine[k]
        print(f"| {k} | {b} | {d} | {w} | {mb}{'' if mb == b else ' (differs)'} | {md} | {mw} |")
    print(f"branches equal on {sum(mine[k][0] == v[0] for k, v in gpu.items())} of {len(gpu)} kernels")


if __name__ == "__main__":
    main()
