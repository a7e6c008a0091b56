"""The pass registry (minicuda/pipeline.py): the pipelines, --print-after, the CLI's help
and the README's pass list all come from it."""
import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import pytest

import minicuda.passes
from minicuda.cli import compiler_parser, minicudac_main
from minicuda.passes.fma_contract import FmaContract
from minicuda.passes.if_convert import IfConvert
from minicuda.passes.reconverge import Reconverge
from minicuda.pipeline import PASSES, PIPELINES, Options, check_pass_names, pipeline

ROOT = Path(__file__).resolve().parents[2]
CLEANUP = ["constant-fold", "copy-propagation", "cse", "dce", "simplify-cfg"]


def readme_passes() -> list[tuple[str, str]]:
    text = (ROOT / "README.md").read_text()
    section = text.split("\n## Passes\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\| `([a-z0-9-]+)` \| (.*) \|$", section, re.MULTILINE)


def test_the_readme_lists_exactly_the_registered_passes():
    assert readme_passes() == [(name, p.description) for name, p in PASSES.items()]


def test_every_pass_class_in_passes_is_registered_under_its_name():
    found = set()
    for module in pkgutil.iter_modules(minicuda.passes.__path__):
        for _, cls in inspect.getmembers(importlib.import_module(f"minicuda.passes.{module.name}"), inspect.isclass):
            if callable(getattr(cls, "run", None)) and isinstance(getattr(cls, "name", None), str):
                found.add(cls.name)
    assert found == set(PASSES)
    for name, registered in PASSES.items():
        built = registered.build(Options())
        assert built.name == name and registered.description and len(registered.description) < 100


def test_the_pipelines_keep_their_order():
    assert PIPELINES[0] == ["keep-branches", "g-shape", "reconverge", "regalloc"]
    assert PIPELINES[3] == CLEANUP + ["sroa"] + CLEANUP + ["loop-unroll", "constant-propagation", "reassociate"] + CLEANUP \
        + ["sroa"] + CLEANUP + ["fold-conditions"] + CLEANUP + ["hoist-sink", "sink-select", "fuse-address",
        "fuse-imad", "gvn"] + CLEANUP + ["if-convert", "fma-contract"] + CLEANUP + ["reconverge", "regalloc"]
    for opt in (1, 2, 3):
        assert [p.name for p in pipeline(Options(opt=opt))] == PIPELINES[3]
    assert [p.name for p in pipeline(Options(opt=0))] == PIPELINES[0]


def test_passes_are_built_with_the_options():
    options = Options(arch=60, uniform_threshold=2)
    passes = {p.name: p for p in pipeline(options)}
    assert isinstance(passes["if-convert"], IfConvert) and passes["if-convert"].options is options
    assert passes["reconverge"] == Reconverge(stack_arch=True)
    assert passes["fma-contract"] == FmaContract(enabled=True)
    assert {p.name: p for p in pipeline(Options(fmad=False))}["fma-contract"] == FmaContract(enabled=False)
    assert {p.name: p for p in pipeline(Options(arch=90))}["reconverge"] == Reconverge(stack_arch=False)


def test_print_after_takes_registered_names_and_all():
    check_pass_names(["dce", "all", "regalloc"])
    with pytest.raises(ValueError) as e:
        check_pass_names(["dce", "bogus"])
    assert str(e.value) == f"unknown pass 'bogus' for --print-after (passes: {', '.join(PASSES)})"


def test_minicudac_refuses_an_unknown_pass_and_lists_the_known_ones(tmp_path, capsys):
    source = tmp_path / "k.cu"
    source.write_text("__global__ void k(int *a) { a[0] = 1; }\n")
    assert minicudac_main([str(source), "--print-after=hoist_sink"]) == 2
    err = capsys.readouterr().err
    assert "unknown pass 'hoist_sink'" in err and ", ".join(PASSES) in err
    assert minicudac_main([str(source), "--print-after=dce", "-o", str(tmp_path / "k.sass")]) == 0
    assert "// *** IR after dce ***" in capsys.readouterr().err


def test_the_cli_help_lists_every_pass_with_its_description():
    text = compiler_parser().format_help()
    for name, p in PASSES.items():
        assert re.search(rf"^  {re.escape(name)} +{re.escape(p.description)}$", text, re.MULTILINE), name
