"""``--dask``: a LocalCluster on 127.0.0.1 reproduces the local claims.json.

Skipped cleanly when the optional ``dask`` extra is not installed.
"""
import json
import os

import pytest

distributed = pytest.importorskip("distributed")

from proofs_check import report  # noqa: E402
from proofs_check.engine import executor as _executor  # noqa: E402
from proofs_check.engine import io, runner  # noqa: E402
from proofs_check.engine import selftest as _selftest  # noqa: E402
from proofs_check.__main__ import main  # noqa: E402

ARGS = ["--selftest", "--only", "self.sgd", "self.fail", "--budget", "quick", "--no-checkpoint"]


@pytest.fixture(scope="module")
def cluster():
    """Two single-threaded worker processes on loopback; shut down after the module.

    The scheduler always opens an HTTP server (metrics), on port 8787 unless told otherwise,
    even when ``dashboard_address=None``; a busy 8787 then leaks a socket (an error under
    ``filterwarnings = error``).  Port 0 lets the OS choose a free one.
    """
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address="127.0.0.1:0",
                                  worker_dashboard_address=None, silence_logs=40) as lc:
        yield lc


@pytest.fixture(autouse=True)
def fixed_code(monkeypatch):
    monkeypatch.setattr(io, "code_fingerprint", lambda: "fixed")


def test_dask_run_reproduces_the_local_claims_json(cluster, tmp_path):
    local, remote = tmp_path / "local.json", tmp_path / "dask.json"
    assert main([*ARGS, "--workers", "0", "--json", str(local)]) == 1  # self.fail FAILs
    assert main([*ARGS, "--dask", cluster.scheduler_address, "--json", str(remote)]) == 1
    a, b = local.read_text(), remote.read_text()
    assert report.reproducible(json.loads(a)) == report.reproducible(json.loads(b)) and a != b
    assert f"dask cluster at {cluster.scheduler_address}" in b


def _environment():
    from threadpoolctl import threadpool_info

    return ({name: os.environ.get(name)
             for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MALLOC_TRIM_THRESHOLD_")},
            [lib["num_threads"] for lib in threadpool_info()])


def test_workers_start_with_one_blas_thread_and_a_malloc_trim_threshold(cluster):
    with distributed.Client(cluster) as client:
        for env, threads in client.run(_environment).values():
            assert env["OMP_NUM_THREADS"] == env["OPENBLAS_NUM_THREADS"] == "1"
            assert env["MALLOC_TRIM_THRESHOLD_"] is not None
            assert set(threads) <= {1}
        # run_task pins BLAS at run time too, whatever the workers were started with
        fut = client.get_executor().submit(_executor.run_task, _environment_after_pin, None)
        assert set(fut.result(timeout=60)) == {1}


def _environment_after_pin(_):
    return _environment()[1]


def test_a_raising_batch_on_a_worker_is_an_error_with_its_traceback(cluster):
    with _executor.dask_executor(cluster.scheduler_address) as executor:
        results, _ = runner.run_all(["self.error", "self.sgd"], seed=0, budget="quick",
                                    executor=executor, concurrency=2, load=_selftest.load)
    assert [r.verdict for r in results] == ["ERROR", "PASS"]
    assert "planted failure" in results[0].error and "train_batch" in results[0].error
