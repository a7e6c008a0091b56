"""minicuda.bench as a package of its own: its native sources travel with it, it runs as
`python -m minicuda.bench`, and only the command line imports it."""
import ast
import subprocess
import sys

from minicuda.bench.suites import NATIVE_DIR, SUITES


def test_every_suite_has_its_driver_and_baselines_next_to_the_package():
    for suite in SUITES:
        for name in (f"{suite.sample}_driver.cu", f"{suite.sample}.c", f"{suite.sample}.cl"):
            assert (NATIVE_DIR / name).is_file(), name
    assert (NATIVE_DIR / "timing.h").is_file() and (NATIVE_DIR / "numba_sim.py").is_file()


def imported_modules(path):
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.module
            yield from (f"{node.module}.{alias.name}" for alias in node.names)


def test_only_the_command_line_imports_the_benchmark(root):
    outside = [p for folder in ("minicuda", "grammar", "passes", "vm") for p in (root / folder).rglob("*.py")
               if "bench" not in p.relative_to(root).parts and p != root / "minicuda" / "cli.py"]
    assert outside
    importers = [str(p.relative_to(root)) for p in outside
                 if any(m == "minicuda.bench" or m.startswith("minicuda.bench.") for m in imported_modules(p))]
    assert importers == []


def test_runs_as_a_module(root):
    result = subprocess.run([sys.executable, "-m", "minicuda.bench", "--help"], capture_output=True, text=True,
                            cwd=root)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("usage: minicuda bench") and "--quick" in result.stdout
