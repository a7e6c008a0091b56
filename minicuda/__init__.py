"""minicuda: a compiler and SIMT virtual machine for mini-CUDA."""
import os as _os

# In a source checkout (tests run from the repository root) the subpackages live in
# the top-level folders grammar/, passes/ and vm/; an installed minicuda has them
# inside the package, where package-dir put them.
_root = _os.path.dirname(_os.path.dirname(_os.path.abspath(__file__)))
if _os.path.isfile(_os.path.join(_root, "grammar", "minicuda.lark")) and _root not in __path__:
    __path__.append(_root)

__version__ = "0.1.0"
