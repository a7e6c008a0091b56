import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
SAMPLES = sorted((ROOT / "samples").glob("*.cu"))
GROUNDTRUTH = ROOT.parent / "shared" / "groundtruth" / "seed_kernels.cu"


@pytest.fixture
def root():
    return ROOT
