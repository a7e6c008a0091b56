"""What namespace std lacks: the located error for a `std::name` no header declares.

The bundled C++ headers declare namespace std itself (`namespace std { using ::sqrt;
float sqrt(float); ... }`, the templates of <algorithm>, the exception classes), so
`std::sqrt` is sema's ordinary qualified lookup.  Before parsing, `std_errors` reports
each `std::name` that no `namespace std` body in the translation unit mentions, at its
own place: the C++ library minicuda does not have yet ("'std::vector' is not supported
yet") or a name no standard header declares (clang's "no member named").  Doing it
before parsing keeps the error at the name also where it stands as a type in a
declaration (`std::unordered_map<int, int> m;` would otherwise be a syntax error).

- `PENDING` lists the C++ library to come (by the header that will declare it): those
  names are "not supported yet"; any other is not in std at all.  `PENDING_CHRONO`: the
  same for std::chrono's names.
- `EXCEPTIONS` are the classes <exception> and <stdexcept> declare in std, which
  `throw` knows (grammar/sema/statements.py).
"""
from __future__ import annotations

EXCEPTIONS = frozenset("""exception runtime_error logic_error invalid_argument out_of_range length_error
domain_error overflow_error underflow_error range_error bad_alloc""".split())

PENDING = {}
for _header, _names in {
    "<iostream>": "ws",
    "<string>": "wstring",
    "<algorithm>": "stable_sort",
    "<numeric>": "inner_product partial_sum",
    "<utility>": "move forward",
    "<memory>": "unique_ptr shared_ptr make_unique make_shared",
    "<random>": "mt19937 mt19937_64 random_device uniform_int_distribution uniform_real_distribution "
                "normal_distribution default_random_engine",
    "<functional>": "function plus minus multiplies less greater",
    "<array>": "array", "<map>": "map", "<unordered_map>": "unordered_map", "<set>": "set", "<list>": "list",
    "<thread>": "thread", "<mutex>": "mutex lock_guard", "<atomic>": "atomic",
    "<tuple>": "tuple make_tuple tie", "<queue>": "queue priority_queue", "<stack>": "stack",
    "<exception>": "terminate exception_ptr current_exception",
}.items():
    PENDING.update(dict.fromkeys(_names.split(), _header))
# <chrono>'s traits classes (its clocks, durations and duration_cast are there)
PENDING_CHRONO = {"duration_values": "<chrono>", "treat_as_floating_point": "<chrono>"}


def std_error(name: str) -> str:
    """The error for a `std::name` (`chrono::name`) namespace std does not declare."""
    if name in PENDING or name.startswith("chrono::"):
        return f"'std::{name}' is not supported yet"
    return f"no member named '{name}' in namespace 'std'"


def std_bodies(tokens: list[str], namespace: str = "std") -> list[bool]:
    """For each token of the stream, whether it stands inside a `namespace std { ... }` body
    (or the body of another header's namespace: `cooperative_groups`)."""
    inside = [False] * len(tokens)
    depth, std_depth = 0, []
    for i, t in enumerate(tokens):
        if t == "{":
            depth += 1
            if i >= 2 and tokens[i - 1] == namespace and tokens[i - 2] == "namespace":
                std_depth.append(depth)
        elif t == "}":
            if std_depth and std_depth[-1] == depth:
                std_depth.pop()
            depth -= 1
        inside[i] = bool(std_depth)
    return inside


def std_members(tokens: list[str]) -> set[str]:
    """Every identifier inside a `namespace std { ... }` body of the token stream: the
    names std declares (and a few more, its parameters', which no program spells after `std::`)."""
    return {t for t, inside in zip(tokens, std_bodies(tokens)) if inside and (t[0].isalpha() or t[0] == "_")}


def std_errors(tokens: list[str], offsets: list[int]) -> list[tuple[int, int, str]]:
    """(offset, length, message) of each `std::name` that namespace std does not declare,
    from the parser's light token stream (where `std`, `::` and the name are three tokens)."""
    members = None
    out = []
    for i in range(len(tokens) - 2):
        if tokens[i] == "std" and tokens[i + 1] == "::" and (i == 0 or tokens[i - 1] not in ("namespace", "::")):
            members = std_members(tokens) if members is None else members
            last = i + 2
            if tokens[last] == "chrono" and tokens[last + 1:last + 2] == ["::"] and last + 2 < len(tokens) \
                    and tokens[last + 2] in PENDING_CHRONO:
                last += 2
            if tokens[last] not in members or last > i + 2:
                end = offsets[last] + len(tokens[last])
                out.append((offsets[i], end - offsets[i], std_error("::".join(tokens[i + 2:last + 1:2]))))
    return out
