"""Lowering: the checked AST to IR, one Function per kernel, device and host function.

Scalars whose address is never taken live in virtual registers (`%r` 32-bit,
`%rd` 64-bit, `%p` predicates for conditions); arrays, structs and address-taken
locals live in the function's frame (`$frame+off`, accessed with LDL/STL).
Pointers are 64-bit generic addresses; an access through a known variable uses the
load/store of its space (LDS/STS shared, LDC constant, LDL/STL frame), an access
through a pointer LDG/STG.  Control flow is lowered as nvcc -G does, every branch
kept: `if` is `@!P BRA else`, loops test at the top, `&&`, `||` and `?:` branch.
String literals become module globals.  Every instruction carries the source
location of the AST node it came from.

One module per concern; FunctionLowering is composed of their classes, which call
each other through `self`:

    module.py        ModuleLowering and `lower`: the translation unit, its globals and names
    function.py      FunctionLowering: one function's state, parameters, entry and end
    statements.py    statements and declarations (`s_<Node>`)
    conditions.py    branching on a condition, predicates, conditions as 0/1 values
    expressions.py   values (`e_<Node>`): operators, conversions, assignments, calls, launches
    memory.py        where variables live, addresses, loads, stores, the frame, struct copies
    initialisers.py  what initialisers store: local aggregates, constructors, a global's bytes
    builtins.py      calls of header functions, one `builtin_<shape>` per shape of minicuda/builtins.py
    emitter.py       registers, labels, blocks, emission; how a C type shows in the IR
"""
from minicuda.passes.lower.function import FunctionLowering
from minicuda.passes.lower.module import ModuleLowering, lower

__all__ = ["FunctionLowering", "ModuleLowering", "lower"]
