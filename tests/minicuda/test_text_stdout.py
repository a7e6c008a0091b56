"""minicuda_main with a text stdout that has no bytes layer under it (a notebook's stream,
contextlib.redirect_stdout into a StringIO): the program's output goes there, decoded as
UTF-8, instead of an internal error."""
import contextlib
import io

from minicuda.cli import minicuda_main

PROGRAM = r"""
#include <cstdio>
__global__ void k() { printf("device %d\n", threadIdx.x); }
int main() { printf("h\xc3\xa9llo \xff\n"); k<<<1, 2>>>(); cudaDeviceSynchronize(); return 3; }
"""


def test_a_program_prints_into_a_text_stream(tmp_path):
    path = tmp_path / "p.cu"
    path.write_text(PROGRAM, encoding="latin-1")   # the bytes as written, \xff included
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = minicuda_main(["run", str(path)])
    assert status == 3
    assert out.getvalue() == "h\u00e9llo \ufffd\ndevice 0\ndevice 1\n"
