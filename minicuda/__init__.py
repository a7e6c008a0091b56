"""minicuda: a compiler and SIMT virtual machine for mini-CUDA.

`minicuda.compile(path_or_source, arch, opt, **options)` is the Python API's entry
point (minicuda/api.py).
"""
import importlib as _importlib
import os as _os

# In a source checkout (tests run from the repository root) the subpackages live in
# the top-level folders grammar/, passes/ and vm/; an installed minicuda has them
# inside the package, where package-dir put them.
_root = _os.path.dirname(_os.path.dirname(_os.path.abspath(__file__)))
if _os.path.isfile(_os.path.join(_root, "grammar", "minicuda.lark")) and _root not in __path__:
    __path__.append(_root)

from minicuda.version import __version__  # noqa: E402  (after __path__ is set)

__all__ = ["__version__", "compile"]


def __getattr__(name: str):
    """`minicuda.compile` (minicuda/api.py), loaded on first use (PEP 562): a program
    that only loads the VM (`minicuda.vm`, running a .sass file) never imports the
    frontend, the passes or the driver, and `import minicuda.ir` stays cheap."""
    if name == "compile":
        return _importlib.import_module("minicuda.api").compile
    raise AttributeError(f"module 'minicuda' has no attribute '{name}'")
