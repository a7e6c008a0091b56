"""The robustness suite's slow cases stay out of a plain `pytest` run on a developer's
machine and run in CI (which sets CI, as .ci/run does) or when -m names a marker
(`pytest tests/robustness -m slow`)."""
import os
from pathlib import Path

HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config, items):
    if os.environ.get("CI") or config.option.markexpr:
        return
    slow = [item for item in items if item.get_closest_marker("slow") and HERE in item.path.resolve().parents]
    if slow:
        config.hook.pytest_deselected(items=slow)
        chosen = set(map(id, slow))
        items[:] = [item for item in items if id(item) not in chosen]
