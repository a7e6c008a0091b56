"""minicuda sweep on a Dask distributed cluster (a LocalCluster of two worker
processes): the same rows as the local pool, row for row; a worker killed in the
middle of the sweep loses no finished point and the sweep completes."""
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("distributed", reason="dask distributed is not installed (pip install 'minicuda[sweep]')")
pytest.importorskip("pyarrow", reason="minicuda[sweep] is not installed")

from distributed import LocalCluster   # noqa: E402

from minicuda.sweep import load_spec, run_sweep   # noqa: E402
from minicuda.sweep.results import comparable_rows, paths   # noqa: E402

DATA = Path(__file__).parent / "data"
SPEC = '''
[[program]]
files = ["DATA/branchy.cu", "DATA/fault.cu"]
args = ["2"]
[axes]
arch = ["pascal", "volta"]
rule = ["seed", "guide"]
'''


def spec(tmp_path):
    path = tmp_path / "sweep.toml"
    path.write_text(SPEC.replace("DATA", str(DATA)))
    return load_spec(str(path))


@pytest.fixture
def cluster():
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as c:
        yield c


@pytest.mark.slow
def test_cluster_rows_equal_local_rows(tmp_path, cluster):
    local = run_sweep(spec(tmp_path), str(tmp_path / "local"), jobs=2)
    remote = run_sweep(spec(tmp_path), str(tmp_path / "dask"), scheduler=cluster.scheduler_address)
    assert len(local) == 8 and list(local["status"]) == ["ok"] * 4 + ["fault"] * 4
    assert comparable_rows(remote) == comparable_rows(local)


@pytest.mark.slow
def test_killed_worker_loses_no_point(tmp_path, cluster):
    sweep = spec(tmp_path)
    local = run_sweep(sweep, str(tmp_path / "local"), jobs=2)
    journal = Path(paths(str(tmp_path / "dask"))[2])
    out = {}
    thread = threading.Thread(target=lambda: out.update(frame=run_sweep(
        sweep, str(tmp_path / "dask"), scheduler=cluster.scheduler_address)))
    thread.start()
    deadline = time.monotonic() + 120
    while not (journal.exists() and journal.read_text().count("\n") >= 1) and time.monotonic() < deadline:
        time.sleep(0.05)
    nanny = next(iter(cluster.workers.values()))
    nanny.process.process.kill()   # the worker process dies with whatever it runs
    thread.join(timeout=300)
    assert not thread.is_alive()
    assert set(out["frame"]["status"]) == {"ok", "fault"}
    assert comparable_rows(out["frame"]) == comparable_rows(local)
