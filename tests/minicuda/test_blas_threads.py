"""The commands start numpy's OpenBLAS with one thread (it starts one per core otherwise, for
nothing minicuda uses: 1.5 s of CPU at start-up on 16 cores), unless the user chose a number."""
import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="counts threads in Linux's /proc")

# each command's entry as its script loads it, then numpy (imported by then), then the process's threads
LOADS = {"minicuda": "from minicuda.cli import minicuda_main",
         "minicuda bench": "import runpy, sys\nsys.argv = ['bench', '--help']\ntry:\n"
                           "    runpy.run_module('minicuda.bench', run_name='__main__')\nexcept SystemExit:\n    pass"}
PROBE = "\nimport numpy, os\nprint(os.environ.get('OPENBLAS_NUM_THREADS'), len(os.listdir('/proc/self/task')))"


def threads_after(load: str, given: str | None) -> tuple[str, int]:
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    if given is not None:
        env["OPENBLAS_NUM_THREADS"] = given
    out = subprocess.run([sys.executable, "-c", LOADS[load] + PROBE], capture_output=True, text=True, env=env,
                         check=True).stdout.split()
    return out[-2], int(out[-1])


@pytest.mark.parametrize("load", list(LOADS))
def test_one_blas_thread_unless_set(load):
    assert threads_after(load, None) == ("1", 1)
    value, threads = threads_after(load, "2")   # the user's choice stands (OpenBLAS takes at most a thread a core)
    assert value == "2" and threads == min(2, os.cpu_count() or 1)
