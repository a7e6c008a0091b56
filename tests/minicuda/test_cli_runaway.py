"""minicuda run and a runaway program: --timeout (exit 124), Ctrl-C (exit 130), --watchdog
(cudaErrorLaunchTimeout, and the program runs on), the progress line on a terminal only."""
import os
import pty
import signal
import subprocess
import sys
import time

import pytest

from minicuda.cli import minicuda_main
from helpers.runaway import HOST_SPIN

SPIN = """#include <cstdio>
__global__ void spin(int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    while (out[i] >= 0) {
        out[i] = (out[i] + 1) & 0xffff;
    }
}

int main()
{
    int *d;
    cudaMalloc(&d, 256 * sizeof(int));
    printf("launching\\n");
    spin<<<4, 64>>>(d);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %s\\n", cudaGetErrorString(e));
    return 3;
}
"""
LOOP = tuple(f":{n}:" for n in range(2, 9))   # a line of the kernel (a warp just started is at its first), as file:line:


# the program runs unbuffered, so the test sees "launching" as it is printed
MINICUDA = [sys.executable, "-u", "-c", "import sys; from minicuda.cli import minicuda_main; sys.exit(minicuda_main())"]


@pytest.fixture
def spin(tmp_path):
    path = tmp_path / "spin.cu"
    path.write_text(SPIN)
    return path


@pytest.fixture
def host_spin(tmp_path):
    path = tmp_path / "hostspin.cu"
    path.write_text(HOST_SPIN)
    return path


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf", "soon", "1e10"])
@pytest.mark.parametrize("flag", ["--timeout", "--watchdog"])
def test_time_limits_are_range_checked_by_the_parser(flag, value, spin, capsys):
    with pytest.raises(SystemExit) as e:
        minicuda_main(["run", str(spin), flag, value])
    assert e.value.code == 2
    assert f"argument {flag}: " in capsys.readouterr().err


@pytest.mark.parametrize("engine", ["jit", "interp"])
def test_the_watchdog_fails_a_long_launch_and_the_program_runs_on_to_its_own_exit(engine, spin, capsys):
    assert minicuda_main(["run", str(spin), "--watchdog", "0.5", "--engine", engine]) == 3
    captured = capsys.readouterr()
    assert captured.out == "launching\nsync: the launch timed out and was terminated\n"
    first, *notes = captured.err.splitlines()
    assert first.startswith(f"{spin}:") and "error: cudaErrorLaunchTimeout: the launch timed out and was " \
        "terminated in kernel 'spin', block (0,0,0), thread (0,0,0): it ran longer than the watchdog's 0.5 s" in first
    assert any(place in notes[0] for place in LOOP) and "block (0,0,0), warp 0: 32 threads here" in notes[0]
    assert "blocks/s" not in captured.err   # stderr is not a terminal: no progress line


@pytest.mark.slow
@pytest.mark.parametrize("engine", ["jit", "interp"])
def test_a_timeout_stops_an_endless_kernel_with_exit_124_naming_its_line(engine, spin):
    r = subprocess.run(MINICUDA + ["run", str(spin), "--timeout", "4", "--engine", engine],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 124, r.stderr
    assert r.stdout == "launching\n"
    first, *notes = r.stderr.splitlines()
    assert "error: timed out after 4 s (--timeout) in kernel 'spin' <<<(4,1,1), (64,1,1)>>>: 0 of 4 blocks done" \
        in first
    assert any(place in first for place in LOOP)
    assert notes[-1].endswith(":15:5: note: the host was here, in main(), launching 'spin'")
    assert "blocks/s" not in r.stderr


@pytest.mark.slow
@pytest.mark.parametrize("engine", ["jit", "interp"])
def test_a_timeout_in_an_endless_host_loop_says_where_the_host_was(engine, host_spin):
    r = subprocess.run(MINICUDA + ["run", str(host_spin), "--timeout", "4", "--engine", engine],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 124, r.stderr
    lines = r.stderr.splitlines()
    assert lines[0].endswith("error: timed out after 4 s (--timeout) in host code")
    assert "note: the host was here, in collatz()" in lines[1] and any(f":{n}:" in lines[1] for n in range(2, 11))
    assert lines[2].endswith(":15:20: note: called from main()")


def interrupt_after(command: list[str], ready: bytes, wait: float):
    """Run `command`, send it SIGINT `wait` seconds after its stdout shows `ready`;
    (exit status, seconds from the signal to its end, stderr)."""
    p = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        seen = b""
        while ready not in seen:
            byte = p.stdout.read(1)
            assert byte, p.stderr.read().decode()
            seen += byte
        time.sleep(wait)
        sent = time.monotonic()
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=30)
        return p.returncode, time.monotonic() - sent, err.decode()
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()


@pytest.mark.slow
@pytest.mark.parametrize("engine", ["jit", "interp"])
def test_ctrl_c_stops_a_kernel_within_a_second_with_exit_130(engine, spin):
    code, took, err = interrupt_after(MINICUDA + ["run", str(spin), "--engine", engine], b"launching\n", 1.5)
    assert code == 130, err
    assert took < 2.0, f"stopped {took:.2f} s after the signal"
    assert "error: interrupted in kernel 'spin'" in err.splitlines()[0]
    assert any(place in err for place in LOOP)


@pytest.mark.slow
@pytest.mark.parametrize("engine", ["jit", "interp"])
def test_ctrl_c_stops_a_host_loop_within_a_second_with_exit_130(engine, host_spin):
    code, took, err = interrupt_after(MINICUDA + ["run", str(host_spin), "--engine", engine], b"start\n", 1.0)
    assert code == 130, err
    assert took < 2.0, f"stopped {took:.2f} s after the signal"
    assert err.splitlines()[0].endswith("error: interrupted in host code")
    assert "note: the host was here, in collatz()" in err


def on_a_terminal(command: list[str]) -> tuple[int, str, bytes]:
    """Run `command` with stderr on a pseudo-terminal: (exit status, stdout, what the terminal got)."""
    master, slave = pty.openpty()
    p = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    screen = b""
    while True:
        try:
            data = os.read(master, 4096)
        except OSError:   # the other side closed
            break
        if not data:
            break
        screen += data
    os.close(master)
    out = p.stdout.read().decode()
    p.wait(timeout=60)
    return p.returncode, out, screen


@pytest.mark.slow
def test_a_long_launch_shows_a_progress_line_on_a_terminal_and_erases_it(spin):
    code, out, screen = on_a_terminal(MINICUDA + ["run", str(spin), "--timeout", "4"])
    assert code == 124 and out == "launching\n"
    assert b"\rminicuda: kernel 'spin': 0 of 4 blocks, 0.0 blocks/s, " in screen
    progress, report = screen.rsplit(b"\r\x1b[K", 1)   # erased before the report
    assert b"blocks/s" not in report and b"error: timed out after 4 s" in report


@pytest.mark.slow
def test_quiet_shows_no_progress_line_on_a_terminal(spin):
    code, _, screen = on_a_terminal(MINICUDA + ["run", str(spin), "--timeout", "3", "-q"])
    assert code == 124
    assert b"blocks/s" not in screen and b"error: timed out after 3 s" in screen
