"""One pass per file: a registered pass lives in passes/<its name, '-' as '_'>.py, and no
module under passes/ defines a second pass, so adding a pass is one new file and one
registry line (minicuda/pipeline.py)."""
import importlib
import inspect
import pkgutil

import minicuda.passes
from minicuda.pipeline import PASSES


def defined_passes(module) -> list[type]:
    """The pass classes (a `run` and a string `name`) the module defines itself."""
    return [cls for _, cls in inspect.getmembers(module, inspect.isclass)
            if cls.__module__ == module.__name__ and callable(getattr(cls, "run", None))
            and isinstance(getattr(cls, "name", None), str)]


def test_each_registered_pass_lives_in_the_file_named_after_it():
    for name, registered in PASSES.items():
        assert registered.cls.__module__ == "minicuda.passes." + name.replace("-", "_"), name


def test_no_module_under_passes_defines_two_passes():
    for info in pkgutil.walk_packages(minicuda.passes.__path__, "minicuda.passes."):
        module = importlib.import_module(info.name)
        assert len(defined_passes(module)) <= 1, (info.name, [cls.__name__ for cls in defined_passes(module)])
