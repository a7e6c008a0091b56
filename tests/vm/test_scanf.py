"""minicuda.vm.scanf against glibc's sscanf: one C program (gcc -fno-builtin) runs every
case of the table and prints what each conversion stored and what sscanf returned; the
Python side must print the same."""
import shutil
import struct
import subprocess

import pytest

from minicuda.vm.scanf import BytesSource, ScanfError, scan

GCC = shutil.which("gcc")

# (input, format, the stored types: i int, l long, h short, u unsigned, f float, d double, s char[32])
CASES = [
    ("42 3.5", "%d %f", "if"), ("  -17", "%d", "i"), ("0x1f 017 12", "%i %i %i", "iii"), ("ff", "%x", "i"),
    ("99999999999", "%d", "i"), ("99999999999", "%ld", "l"), ("-1", "%u", "u"), ("70000", "%hd", "h"),
    ("100ergs", "%f%s", "fs"), ("1e+x", "%f%s", "fs"), ("1.5e3", "%lf", "d"), (".5", "%f", "f"), (".", "%f", "f"),
    ("inf nan", "%f %f", "ff"), ("0.1", "%f", "f"), ("0.1", "%lf", "d"), ("1e-50", "%f", "f"), ("0x1.8p1", "%lf", "d"),
    ("", "%d", "i"), ("   ", "%d", "i"), ("abc", "%d", "i"), ("-", "%d", "i"), ("0x", "%x%s", "is"),
    ("12abc", "%d%s", "is"), ("hello world", "%s %s", "ss"), ("abcdef", "%3s%s", "ss"), ("12345", "%2d%d", "ii"),
    ("a,b;c", "%[^,],%[^;];%s", "sss"), ("key=value", "%[a-z]=%s", "ss"), ("]x", "%[]x]", "s"),
    ("x: 5", "x: %d", "i"), ("x:5", "y:%d", "i"), ("10%", "%d%%", "i"), ("7 8", "%*d %d", "i"),
    ("3,4", "%d , %d", "ii"), ("1 2 3", "%d %d", "ii"), ("+5 -0", "%d %d", "ii"), ("1.0 2", "%d.%d %d", "iii"),
]

C_TYPES = {"i": ("int", "%d", "-1"), "l": ("long", "%ld", "-1"), "h": ("short", "%hd", "-1"),
           "u": ("unsigned", "%u", "7"), "f": ("float", "%a", "-1"), "d": ("double", "%a", "-1"),
           "s": ("char", "[%s]", None)}


def c_literal(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def c_case(index: int, text: str, fmt: str, kinds: str) -> str:
    decls, ptrs, prints, args = [], [], [], []
    for k, kind in enumerate(kinds):
        ctype, spec, init = C_TYPES[kind]
        if kind == "s":
            decls.append(f"char v{k}[32] = \"?\";")
            ptrs.append(f"v{k}")
        else:
            decls.append(f"{ctype} v{k} = {init};")
            ptrs.append(f"&v{k}")
        prints.append(spec)
        args.append(f"(double)v{k}" if kind == "f" else f"v{k}")
    call = f"int n = sscanf({c_literal(text)}, {c_literal(fmt)}{''.join(', ' + p for p in ptrs)});"
    out = f'printf("%d{"".join(" " + p for p in prints)}\\n", n{"".join(", " + a for a in args)});'
    return "{ " + " ".join(decls) + " " + call + " " + out + " }"


def python_case(text: str, fmt: str, kinds: str) -> str:
    stored, n = scan(fmt.encode(), BytesSource(text.encode()))
    shown = []
    for k, kind in enumerate(kinds):
        value = stored[k] if k < len(stored) else None
        if kind == "s":
            shown.append(f"[{value.value[:-1].decode() if value else '?'}]")
        elif kind in "fd":
            shown.append(float(value.value if value else -1).hex().replace("0x1.0p", "0x1p").replace("0x0.0p+0", "0x0p+0"))
        else:
            size = {"i": 4, "l": 8, "h": 2, "u": 4}[kind]
            raw = value.value if value else {"u": 7}.get(kind, -1) & ((1 << (8 * size)) - 1)
            raw &= (1 << (8 * size)) - 1
            shown.append(str(raw if kind == "u" or raw < 1 << (8 * size - 1) else raw - (1 << (8 * size))))
    return " ".join([str(n)] + shown)


@pytest.fixture(scope="module")
def glibc_lines(tmp_path_factory):
    if GCC is None:
        pytest.skip("gcc is not installed")
    directory = tmp_path_factory.mktemp("scanf")
    source, program = directory / "cases.c", directory / "cases"
    body = "\n".join(c_case(i, *case) for i, case in enumerate(CASES))
    source.write_text(f"#include <stdio.h>\nint main(void) {{\n{body}\nreturn 0;\n}}\n")
    subprocess.run([GCC, "-w", "-O0", "-fno-builtin", "-o", str(program), str(source)], check=True)
    return subprocess.run([str(program)], check=True, capture_output=True, text=True).stdout.splitlines()


def normalised_hex(line: str) -> str:
    """glibc's %a and Python's float.hex spell some values differently: compare values."""
    out = []
    for word in line.split(" "):
        try:
            out.append(repr(float.fromhex(word)) if word.startswith(("0x", "-0x")) else word)
        except ValueError:
            out.append(word)
    return " ".join(out)


@pytest.mark.parametrize("index", range(len(CASES)), ids=[f"{c[1]}<-{c[0]!r}" for c in CASES])
def test_scan_stores_and_returns_what_glibc_does(index, glibc_lines):
    assert normalised_hex(python_case(*CASES[index])) == normalised_hex(glibc_lines[index])


def test_formats_minicuda_cannot_honour_are_errors():
    for fmt in (b"%ls", b"%Lf", b"%q"):
        with pytest.raises(ScanfError):
            scan(fmt, BytesSource(b"1"))
