"""record.sh's Python half (standard library only, so it runs on the GPU machine as is).

`record_tsv.py tsv OUT.tsv NCU_O3.csv NCU_G.csv` turns the CSV of `ncu --csv --print-units base`
(one row per launch and metric) into the table format of tests/data/groundtruth/h200_seed_kernels.tsv:
a `# build O3` / `# build G` line, a header, then one row per launch in ncu's order.

`record_tsv.py sass OUT_DIR ARCH_BUILD.raw...` keeps the function bodies of `cuobjdump -sass`
output: `.function NAME` then `ADDR INSTRUCTION` lines, the encodings, headers and the NOP
padding after the last instruction dropped. ARCH_BUILD.raw (sm_90_G.raw) becomes ARCH_BUILD.sass."""
import csv
import pathlib
import re
import sys

COLUMNS = ["id", "kernel", "grid", "block", "br", "div", "uni", "brinst", "winst", "tinst",
           "tinst_on", "regs", "occ%", "branch_eff%", "warp_eff%"]
METRIC_COLUMNS = {
    "smsp__sass_branch_targets.sum": "br",
    "smsp__sass_branch_targets_threads_divergent.sum": "div",
    "smsp__sass_branch_targets_threads_uniform.sum": "uni",
    "smsp__sass_inst_executed_op_branch.sum": "brinst",
    "smsp__inst_executed.sum": "winst",
    "smsp__thread_inst_executed.sum": "tinst",
    "smsp__thread_inst_executed_pred_on.sum": "tinst_on",
    "launch__registers_per_thread": "regs",
    "sm__warps_active.avg.pct_of_peak_sustained_active": "occ%",
}
INSTRUCTION = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;")
FUNCTION = re.compile(r"Function : (\S+)")


def ncu_launches(csv_path: pathlib.Path) -> list[dict]:
    """One dict per launch (column name -> text), in the order ncu profiled them."""
    launches: dict[tuple, dict] = {}
    rows = [line for line in csv_path.read_text(errors="replace").splitlines() if line.startswith('"')]
    for row in csv.DictReader(rows):
        if row.get("ID", "").isdigit():
            key = (row["Process ID"], int(row["ID"]))
            launch = launches.setdefault(key, {"kernel": row["Kernel Name"], "grid": row["Grid Size"],
                                               "block": row["Block Size"]})
            column = METRIC_COLUMNS.get(row["Metric Name"])
            if column:
                launch[column] = row["Metric Value"].replace(",", "")
    return list(launches.values())


def number(text: str) -> float:
    try:
        return float(text)
    except (TypeError, ValueError):
        return float("nan")


def table_rows(launches: list[dict]) -> list[list[str]]:
    rows = []
    for index, launch in enumerate(launches):
        br, div, winst, tinst = (number(launch.get(c)) for c in ("br", "div", "winst", "tinst"))
        branch_eff = 100.0 * (br - div) / br if br else 100.0
        warp_eff = 100.0 * tinst / (32 * winst) if winst else 0.0
        cells = [str(index), launch["kernel"], launch["grid"], launch["block"]]
        for column in COLUMNS[4:12]:
            value = number(launch.get(column))
            cells.append(str(int(value)) if value == value else "nan")
        cells += [f"{number(launch.get('occ%')):.2f}", f"{branch_eff:.1f}", f"{warp_eff:.1f}"]
        rows.append(cells)
    return rows


def write_tsv(out: pathlib.Path, csv_o3: pathlib.Path, csv_g: pathlib.Path) -> None:
    lines = []
    for build, path in (("O3", csv_o3), ("G", csv_g)):
        lines.append(f"# build {build}")
        lines.append("\t".join(COLUMNS))
        lines += ["\t".join(cells) for cells in table_rows(ncu_launches(path))]
    out.write_text("\n".join(lines) + "\n")


def compact_sass(text: str) -> str:
    functions: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        if match := FUNCTION.search(line):
            functions.append((match.group(1), []))
        elif functions and (match := INSTRUCTION.search(line)):
            functions[-1][1].append(f"{match.group(1)} {match.group(2)}")
    out = []
    for name, body in sorted(functions):
        while body and body[-1].endswith(" NOP"):
            body.pop()
        out.append(f".function {name}")
        out += body
        out.append("")
    return "\n".join(out)


def write_sass(out_dir: pathlib.Path, raws: list[pathlib.Path]) -> None:
    for raw in raws:
        (out_dir / (raw.stem + ".sass")).write_text(compact_sass(raw.read_text(errors="replace")))


if __name__ == "__main__":
    if sys.argv[1] == "tsv":
        write_tsv(*(pathlib.Path(a) for a in sys.argv[2:5]))
    else:
        write_sass(pathlib.Path(sys.argv[2]), [pathlib.Path(a) for a in sys.argv[3:]])
