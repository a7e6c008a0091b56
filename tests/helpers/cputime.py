"""A pytest plugin that records each test's CPU time, for finding where the suite's time
goes on a shared machine (where wall-clock durations mostly measure the other load):

    MINICUDA_TEST_CPU=/tmp/cpu python -m pytest -p helpers.cputime ...
    python tests/helpers/cputime.py /tmp/cpu          # totals by file, by function, by test

Each worker (pytest-xdist) appends one JSON line per test to PREFIX.WORKER.jsonl: the
test's id, its wall time and its CPU time, the process's own and that of the children it
reaped (subprocess.run) during the test.  A module fixture's teardown counts to the last
test of the module; a child reaped later (a server a fixture closes) counts where it ends."""
import collections
import glob
import json
import os
import resource
import sys
import time

import pytest

_out = []


def _cpu() -> tuple[float, float]:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    prefix = os.environ.get("MINICUDA_TEST_CPU")
    if not prefix:
        yield
        return
    if not _out:
        _out.append(open(f"{prefix}.{os.environ.get('PYTEST_XDIST_WORKER', 'main')}.jsonl", "a"))
    wall, (own, children) = time.perf_counter(), _cpu()
    yield
    own_after, children_after = _cpu()
    _out[0].write(json.dumps({"id": item.nodeid, "wall": time.perf_counter() - wall,
                              "self": own_after - own, "child": children_after - children}) + "\n")
    _out[0].flush()


def report(prefix: str, top: int = 25) -> None:
    rows = [json.loads(line) for path in glob.glob(f"{prefix}.*.jsonl") for line in open(path)]
    total = sum(r["self"] + r["child"] for r in rows)
    print(f"{len(rows)} tests, {total:.0f} CPU s ({sum(r['child'] for r in rows):.0f} in child processes)")
    for title, key in (("file", lambda i: i.split("::")[0]), ("function", lambda i: i.split("[")[0]), ("test", str)):
        sums = collections.defaultdict(lambda: [0, 0.0])
        for r in rows:
            entry = sums[key(r["id"])]
            entry[0] += 1
            entry[1] += r["self"] + r["child"]
        print(f"\nby {title}: tests, CPU s, share")
        for name, (count, cpu) in sorted(sums.items(), key=lambda kv: -kv[1][1])[:top]:
            print(f"{count:6d} {cpu:8.1f} {100 * cpu / total:5.1f}%  {name}")


if __name__ == "__main__":
    report(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 25)
