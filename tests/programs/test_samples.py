"""Every bundled sample and the ground-truth kernels parse and check (each loaded once per
test process: the tests only read what the frontend made of it)."""
from functools import cache

import pytest

from helpers import GROUNDTRUTH, SAMPLES
from minicuda.frontend import load

PROGRAMS = SAMPLES + [GROUNDTRUTH]


@cache
def loaded(path):
    return load(str(path))


def test_the_required_samples_exist():
    names = {p.name for p in SAMPLES}
    assert {"simpleDivergence.cu", "reduceInteger.cu", "sumMatrix.cu", "warpLock.cu"} <= names


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.name for p in PROGRAMS])
def test_program_checks_cleanly(path):
    fe = loaded(path)
    assert not [d for d in fe.diags.diagnostics if d.severity in ("error", "fatal error")]
    assert fe.tu.functions


def test_simple_divergence_kernels_and_host_main():
    tu = loaded(next(p for p in SAMPLES if p.name == "simpleDivergence.cu")).tu
    spaces = {f.name: f.exec_space for f in tu.functions}
    for k in ("mathKernel1", "mathKernel2", "mathKernel3", "mathKernel4", "warmingup"):
        assert spaces[k] == {"global"}
    assert spaces["main"] == {"host"}


def test_reduction_instantiates_the_complete_unroll_template():
    tu = loaded(next(p for p in SAMPLES if p.name == "reduceInteger.cu")).tu
    sizes = sorted(f.template_args[0] for f in tu.functions if f.name == "reduceCompleteUnroll")
    assert sizes == [64, 128, 256, 512, 1024]
