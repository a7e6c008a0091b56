"""What `std::name` names, until minicuda has namespaces.

The lexer reads `std::name` as one identifier (minicuda.lark's IDENT); the parser's
retagger replaces it by the identifier it stands for (`std_identifier`), and before
parsing, `std_errors` reports each `std::name` that stands for nothing, at its own
place: the C++ library minicuda does not have yet ("'std::vector' is not supported
yet") or a name no standard header declares (clang's "no member named").

- The C library names C++'s <cmath>, <cstdio>, <cstdlib>, ... declare in std are
  minicuda's C headers' global ones: `std::sqrt` is `sqrt`, `std::size_t` is `size_t`.
- The std exception classes are the structs <exception> and <stdexcept> declare,
  `__minicuda_std_<name>`, which `throw` knows (grammar/sema/statements.py).
- `PENDING` lists the C++ library to come (by the header that will declare it): those
  names are "not supported yet"; any other is not in std at all.

Once namespaces are in the grammar, this module goes: the headers declare
`namespace std { using ::sqrt; ... }` and their classes, the IDENT token loses its
`std::` prefix, and a name no header declares is sema's ordinary lookup error.
"""
from __future__ import annotations

import re

from minicuda import builtins

C_TYPES = frozenset("""size_t ptrdiff_t int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t
uintptr_t intptr_t FILE time_t clock_t""".split())
EXCEPTIONS = frozenset("""exception runtime_error logic_error invalid_argument out_of_range length_error
domain_error overflow_error underflow_error range_error bad_alloc""".split())
EXCEPTION_PREFIX = "__minicuda_std_"

PENDING = {}
for _header, _names in {
    "<iostream>": "ws",
    "<string>": "wstring",
    "<vector>": "vector",
    "<algorithm>": "swap fill fill_n copy copy_n sort stable_sort reverse find count min_element max_element "
                   "transform for_each equal lower_bound upper_bound unique accumulate_n",
    "<numeric>": "accumulate iota inner_product partial_sum",
    "<utility>": "pair make_pair move forward",
    "<memory>": "unique_ptr shared_ptr make_unique make_shared",
    "<chrono>": "chrono",
    "<random>": "mt19937 mt19937_64 random_device uniform_int_distribution uniform_real_distribution "
                "normal_distribution default_random_engine",
    "<functional>": "function plus minus multiplies less greater",
    "<array>": "array", "<map>": "map", "<unordered_map>": "unordered_map", "<set>": "set", "<list>": "list",
    "<limits>": "numeric_limits", "<thread>": "thread", "<mutex>": "mutex lock_guard", "<atomic>": "atomic",
    "<tuple>": "tuple make_tuple tie", "<queue>": "queue priority_queue", "<stack>": "stack",
    "<exception>": "terminate exception_ptr current_exception",
}.items():
    PENDING.update(dict.fromkeys(_names.split(), _header))

# declared in namespace std by grammar/include's <string>, <ostream>, <istream>, <iomanip>, <sstream>, <fstream>
LIBRARY = frozenset("""string to_string stoi stol stoll stoul stof stod getline ios ostream istream iostream
cout cerr clog cin endl flush ends setw setprecision setfill fixed scientific defaultfloat left right internal
hex dec oct boolalpha noboolalpha showpoint noshowpoint showpos noshowpos uppercase nouppercase
ostringstream istringstream stringstream ifstream ofstream fstream""".split())

_STD = re.compile(r"std\s*::\s*")


def _c_names() -> frozenset[str]:
    """The C library's functions minicuda's headers declare (not CUDA's, not the reserved)."""
    return frozenset(n for n in builtins.BUILTINS if not n.startswith(("_", "cuda", "atomic", "clock64")))


C_FUNCTIONS = _c_names()


def unqualified(token: str) -> str:
    """`std :: sqrt` -> `sqrt`."""
    return _STD.sub("", token, count=1)


def std_identifier(name: str) -> str | None:
    """The identifier `std::name` stands for; None when minicuda has nothing by that name."""
    if name in C_FUNCTIONS or name in C_TYPES:
        return name
    if name in EXCEPTIONS:
        return EXCEPTION_PREFIX + name
    return None


def std_error(name: str) -> str:
    """The error for a `std::name` that `std_identifier` does not know."""
    if name in PENDING:
        return f"'std::{name}' is not supported yet"
    return f"no member named '{name}' in namespace 'std'"


def std_errors(tokens: list[str], offsets: list[int]) -> list[tuple[int, int, str]]:
    """(offset, length, message) of each `std::name` that names nothing, from the
    parser's light token stream (where `std`, `::` and the name are three tokens)."""
    out = []
    for i in range(len(tokens) - 2):
        if tokens[i] == "std" and tokens[i + 1] == "::" and std_identifier(tokens[i + 2]) is None \
                and tokens[i + 2] not in LIBRARY:
            if i > 0 and tokens[i - 1] == "namespace":
                continue
            end = offsets[i + 2] + len(tokens[i + 2])
            out.append((offsets[i], end - offsets[i], std_error(tokens[i + 2])))
    return out
