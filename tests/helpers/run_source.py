"""A program's text run whole by `minicuda run` on one engine, in a test: what the
runtime tests of vm/ share (tests/vm/test_streams_and_host_memory.py and
test_runtime_api_extras.py, test_jit_host_callees.py)."""
from minicuda.cli import minicuda_main


def run(tmp_path, capsys, engine: str, source: str, *args: str, options=()) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of `source`, with <stdio.h> included, as prog.cu, run
    with the program arguments `args` and `minicuda run` options `options`."""
    f = tmp_path / "prog.cu"
    f.write_text("#include <stdio.h>\n" + source)
    code = minicuda_main(["run", "--engine", engine, *options, str(f), *args])
    out = capsys.readouterr()
    return code, out.out, out.err
