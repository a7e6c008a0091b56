"""Fixtures every test folder shares; shared constants and helpers live in tests/helpers/."""
import pytest

from helpers import GROUNDTRUTH, ROOT, SAMPLES  # noqa: F401  (older tests import these from conftest)


@pytest.fixture
def root():
    return ROOT
