"""minicuda: a compiler and SIMT virtual machine for mini-CUDA."""
import os as _os

# In a source checkout (tests run from the repository root) the subpackages live in
# the top-level folders grammar/, passes/ and vm/; an installed minicuda has them
# inside the package, where package-dir put them.
_root = _os.path.dirname(_os.path.dirname(_os.path.abspath(__file__)))
if _os.path.isfile(_os.path.join(_root, "grammar", "minicuda.lark")) and _root not in __path__:
    __path__.append(_root)

from minicuda.version import __version__  # noqa: E402  (after __path__ is set)


def compile(path_or_source, arch="sm_70", opt=3, **options):
    """Compile a mini-CUDA program (a path or the source text itself).

    Returns a CompiledProgram: `.functions` (the IR), `.sass()`, `.resource_usage`
    and `.branch_decisions` (one record per conditional branch: file, line,
    function, uniform, instructions, threshold, predicated, reason).  Keyword
    options: uniform_threshold, divergent_threshold, rule ("seed" or "guide"),
    verify_each, sched ("stack" or "its": place the reconvergence markers for that
    model, not the arch's), include_dirs, defines.
    """
    from minicuda.compiler import compile_program
    from minicuda.pipeline import Options
    include_dirs = options.pop("include_dirs", ())
    defines = options.pop("defines", ())
    return compile_program(path_or_source, arch, opt, Options(**options), include_dirs, defines)
