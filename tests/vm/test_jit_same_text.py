"""Two functions that compile to one text under the JIT (`return "A";` and `return "B";`
differ only in the symbol their slot stands for) each keep their own symbols."""
from minicuda.cli import minicuda_main

PROGRAM = r"""#include <cstdio>
const char *fa() { return "fa"; }
const char *fb() { return "fb"; }
int main() { printf("%s %s\n", fa(), fb()); return 0; }
"""


def test_functions_of_one_text_keep_their_own_strings(tmp_path, capsys):
    src = tmp_path / "same_text.cu"
    src.write_text(PROGRAM)
    assert minicuda_main(["run", "--engine", "jit", str(src)]) == 0
    assert capsys.readouterr().out == "fa fb\n"
