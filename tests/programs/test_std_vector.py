"""std::vector's at() past the end throws std::out_of_range with libstdc++'s message (g++ 13
here prints these lines), ending the program as an uncaught exception does."""
import pytest

from minicuda.cli import minicuda_main

AT_PAST_END = """#include <cstdio>
#include <vector>
int main()
{
    std::vector<int> v(3, 1);
    printf("%d\\n", v.at(2));
    return v.at(5);
}
"""


@pytest.mark.parametrize("engine", ["interp", "jit"])
def test_at_past_the_end_throws_out_of_range(engine, tmp_path, capsys):
    (tmp_path / "at.cu").write_text(AT_PAST_END)
    assert minicuda_main(["run", "--engine", engine, str(tmp_path / "at.cu")]) == 134
    captured = capsys.readouterr()
    assert captured.out == "1\n"
    assert captured.err == ("terminate called after throwing an instance of 'std::out_of_range'\n"
                            "  what():  vector::_M_range_check: __n (which is 5) >= this->size() (which is 3)\n"
                            "Aborted\n")
