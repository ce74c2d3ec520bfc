"""The proofs_check runner: ERROR verdicts, the ctx.map contract, checkpoints, resume, Ctrl-C.

Uses the synthetic claims of ``proofs_check.engine.selftest`` (importable by worker processes),
so the infrastructure is tested independently of the paper's checks.
"""
import functools
import json
import os
import signal
import subprocess
import sys
import time
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

from proofs_check import report
from proofs_check.__main__ import main
from proofs_check.engine import checkpoint as _checkpoint
from proofs_check.engine import executor as _executor
from proofs_check.engine import io, runner
from proofs_check.engine import selftest as _selftest
from proofs_check.engine.contract import Case
from proofs_check.engine.mapper import Mapper

from _processes import sigint_as_in_a_foreground_job  # tests/ is on sys.path

ROOT = Path(__file__).resolve().parents[1]
#: a fixed code fingerprint: other sessions edit the tree while tests run
CODE = "fixed"


def run(ids, **kw):
    return runner.run_all(ids, seed=0, budget="quick", load=_selftest.load, **kw)[0]


def cli(*args, timeout=120):
    """``python -m proofs_check --selftest ARGS`` in a fresh process."""
    cmd = [sys.executable, "-m", "proofs_check", "--selftest", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=ROOT)


# -- errors --------------------------------------------------------------------------------
def test_a_raising_check_is_an_error_and_the_others_still_run():
    err, ok = run(["self.error", "self.sgd"])
    assert err.verdict == "ERROR" and not err.ok
    assert err.error.startswith("ValueError: planted failure in the batch starting at Case(")
    assert "selftest.py" in err.error and "in train_batch" in err.error
    # the reproduce line reruns the claim, not a case that did not crash
    assert err.reproduce.startswith(".venv/bin/proofs_check --only self.error --seed ")
    assert ok.verdict == "PASS" and ok.ok


def test_cli_exit_status_and_traceback_summary_for_an_error(tmp_path, capsys):
    code = main(["--selftest", "--only", "self.error", "self.sgd", "--workers", "0",
                 "--budget", "quick", "--state", str(tmp_path), "--json",
                 str(tmp_path / "c.json")])
    out = capsys.readouterr().out
    assert code == 1
    assert "self.error: ERROR" in out and "planted failure" in out
    doc = json.loads((tmp_path / "c.json").read_text())
    assert [c["verdict"] for c in doc["claims"]] == ["ERROR", "PASS"]
    assert doc["all_ok"] is False


def test_a_fail_prints_its_reproduce_command(tmp_path, capsys):
    assert main(["--selftest", "--only", "self.fail", "--workers", "0", "--budget", "quick",
                 "--no-checkpoint"]) == 1
    assert "self.fail: FAIL; reproduce: .venv/bin/proofs_check --replay self.fail --family " \
        "small --seed " in capsys.readouterr().out


def _square(x):
    return x * x


@pytest.mark.parametrize("fn, items, message", [
    (lambda x: x, [1], "module-level function"),
    (_square, [lambda: 0], "ctx.map item 0 must be plain data"),
])
def test_map_contract_is_enforced_even_in_process(fn, items, message):
    with pytest.raises(TypeError, match=message):
        Mapper("x")(fn, items)


@pytest.fixture(scope="module")
def pool():
    """One pool for the tests below (each start costs a few seconds of imports)."""
    before = {name: os.environ.get(name) for name in _executor.BLAS_ENV}
    with _executor.local_pool(2) as p:
        yield p
    assert {name: os.environ.get(name) for name in _executor.BLAS_ENV} == before  # restored


def test_results_come_back_in_item_order_from_a_pool(pool):
    assert Mapper("x", executor=pool)(_square, list(range(20))) == [i * i for i in range(20)]


def _blas_threads(_):
    from threadpoolctl import threadpool_info

    return [lib["num_threads"] for lib in threadpool_info()], \
        {name: os.environ.get(name) for name in _executor.BLAS_ENV}


def test_pool_workers_run_one_blas_thread_and_survive_a_crash(pool):
    threads, env = Mapper("x", executor=pool)(_blas_threads, [0])[0]
    assert threads and set(threads) == {1}
    assert set(env.values()) == {"1"}
    # os._exit kills the worker (twice: once, then on the retry) -> BrokenProcessPool
    with pytest.raises(BrokenProcessPool):
        Mapper("x", executor=pool)(os._exit, [3])
    assert Mapper("x", executor=pool)(_square, [3]) == [9]  # a fresh pool took over


# -- checkpoints ---------------------------------------------------------------------------
def _counting(calls, fn):
    @functools.wraps(fn)  # same module and name: the same checkpoint keys
    def wrapper(item):
        calls.append(1)
        return fn(item)
    return wrapper


def test_resume_recomputes_only_missing_batches(tmp_path, monkeypatch):
    config = {"seed": 0, "budget": "quick", "cases": 32}
    first = run(["self.sgd"], cases=32,
                checkpoint=_checkpoint.Checkpoint(tmp_path, config, resume=False, code=CODE))
    ck = _checkpoint.Checkpoint(tmp_path, config, resume=True, code=CODE)
    assert ck.resumed and ck.get_claim("self.sgd").verdict == "PASS"
    (ck.dir / "claims" / "self.sgd.json").unlink()          # as if killed before the end
    batches = sorted((ck.dir / "batches" / "self.sgd").glob("*.json"))
    batches[0].unlink()
    batches[1].write_bytes(b"torn")                          # unreadable: recomputed
    calls = []
    monkeypatch.setattr(_selftest, "train_batch", _counting(calls, _selftest.train_batch))
    again = run(["self.sgd"], cases=32, checkpoint=ck)
    assert len(batches) == 4 and len(calls) == 2
    assert report.reproducible(again[0].to_dict()) == report.reproducible(first[0].to_dict())


def test_a_finished_claim_is_not_rerun_and_errors_are_not_kept(tmp_path, monkeypatch):
    config = {"seed": 0, "budget": "quick"}
    run(["self.sgd", "self.error"],
        checkpoint=_checkpoint.Checkpoint(tmp_path, config, resume=False, code=CODE))
    ck = _checkpoint.Checkpoint(tmp_path, config, resume=True, code=CODE)
    assert ck.get_claim("self.error") is _checkpoint.MISSING   # an ERROR is retried
    calls = []
    monkeypatch.setattr(_selftest, "train_batch", _counting(calls, _selftest.train_batch))
    stages = []
    run(["self.sgd"], checkpoint=ck, progress=lambda stage, cid, r: stages.append(stage))
    assert calls == [] and stages == ["checkpoint"]


def test_other_configurations_do_not_resume(tmp_path):
    _checkpoint.Checkpoint(tmp_path, {"seed": 0}, resume=False, code="a")
    assert _checkpoint.Checkpoint(tmp_path, {"seed": 0}, resume=True, code="a").resumed
    assert not _checkpoint.Checkpoint(tmp_path, {"seed": 1}, resume=True, code="a").resumed
    assert not _checkpoint.Checkpoint(tmp_path, {"seed": 0}, resume=True, code="b").resumed


def _skip_if_code_changed(before: str) -> None:
    """Other sessions may edit the tree while a cross-process test runs: a resume then
    starts fresh by design and manifests differ, which says nothing about the runner."""
    if io.code_fingerprint() != before:
        pytest.skip("linteach/proofs_check source changed while the test ran")


def _wait_for_batches(folder: Path, claim_id: str, count: int, proc, timeout=60.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end and proc.poll() is None:
        if len(list(folder.glob(f"*/batches/{claim_id}/*.json"))) >= count:
            return True
        time.sleep(0.02)
    return False


def test_killed_mid_run_then_resumed_equals_an_uninterrupted_run(tmp_path):
    code = io.code_fingerprint()
    args = ["--only", "self.sgd", "self.slow", "--cases", "40", "--workers", "0",
            "--state", str(tmp_path / "state")]
    proc = subprocess.Popen([sys.executable, "-m", "proofs_check", "--selftest", *args,
                             "--json", str(tmp_path / "resumed.json")], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:  # self.sgd has 5 batches, self.slow 5 more of 0.2 s: kill inside self.slow
        assert _wait_for_batches(tmp_path / "state", "self.slow", 2, proc), "ended too soon"
        proc.kill()
    finally:
        proc.wait()
    assert proc.returncode == -signal.SIGKILL and not (tmp_path / "resumed.json").exists()
    resumed = cli(*args, "--json", str(tmp_path / "resumed.json"), "--resume")
    _skip_if_code_changed(code)
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert "(from checkpoint)" in resumed.stdout                 # self.sgd had finished
    assert main(["--selftest", *args[:-2], "--no-checkpoint", "--json",
                 str(tmp_path / "straight.json")]) == 0
    _skip_if_code_changed(code)
    docs = [json.loads((tmp_path / f"{n}.json").read_text()) for n in ("resumed", "straight")]
    assert report.reproducible(docs[0]) == report.reproducible(docs[1])
    assert not list((tmp_path / "state").glob("*/batches"))      # cleared once complete


def test_ctrl_c_keeps_the_previous_report_and_says_what_finished(tmp_path):
    previous = tmp_path / "claims.json"
    previous.write_text("previous report\n")
    # one worker: claims run one after the other, so self.sgd finishes before self.slow
    args = ["--only", "self.sgd", "self.slow", "--cases", "80", "--workers", "1",
            "--state", str(tmp_path / "state"), "--json", str(previous)]
    proc = subprocess.Popen([sys.executable, "-m", "proofs_check", "--selftest", *args],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=sigint_as_in_a_foreground_job)
    try:
        assert _wait_for_batches(tmp_path / "state", "self.slow", 2, proc), "ended too soon"
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130, out + err
    assert previous.read_text() == "previous report\n"
    assert "interrupted: no report written" in err
    assert "finished: self.sgd PASS" in err
    assert "unfinished: self.slow (" in err and "batches checkpointed)" in err
    assert "--resume" in err.splitlines()[-1], err


# -- replay --------------------------------------------------------------------------------
def test_replay_finds_the_family_from_the_recorded_seed(tmp_path, capsys):
    path = str(tmp_path / "c.json")
    main(["--selftest", "--only", "self.fail", "--workers", "0", "--budget", "quick",
          "--no-checkpoint", "--json", path])
    claim = json.loads(Path(path).read_text())["claims"][0]
    capsys.readouterr()
    assert main(["--selftest", "--replay", "self.fail", "--seed", str(claim["worst_seed"]),
                 "--json", path]) == 1
    out = capsys.readouterr().out
    worst = claim["clauses"]["init_margin_positive"]["worst_slack"]
    assert f"init_margin_positive             slack {worst:+.6g}" in out
    assert "content hashes match the recorded ledger" in out


def test_replay_without_a_record_asks_for_the_family(tmp_path, capsys):
    assert main(["--selftest", "--replay", "self.fail", "--seed", "5",
                 "--json", str(tmp_path / "none.json")]) == 2
    assert "no --family given and no" in capsys.readouterr().err
    assert main(["--selftest", "--replay", "self.fail", "--family", "small", "--seed", "5"]) == 1


@pytest.mark.parametrize("argv, message", [
    (["--only", "nope"], "unknown claim id(s) nope"),
    (["--cases", "0"], "--cases must be in [1, 1000000]"),
    (["--workers", "-1"], "--workers must be in [0, 1024]"),
    (["--resume", "--no-checkpoint"], "--resume needs checkpoints"),
])
def test_usage_errors(argv, message, capsys):
    assert main(["--selftest", *argv]) == 2
    assert message in capsys.readouterr().err


def test_replayed_case_equals_its_run_in_a_batch():
    full = runner.run_one("self.fail", seed=0, budget="quick", load=_selftest.load)
    w = full.clauses["init_margin_positive"]
    alone = runner.run_one("self.fail", seed=0, budget="quick", load=_selftest.load,
                           replay=Case(w["family"], w["seed"]))
    assert alone.clauses["init_margin_positive"]["worst_slack"] == w["worst_slack"]
    key = f"{w['family']}/{w['seed']}"
    assert alone.ledger[key] == full.ledger[key]


def test_batch_progress_counts_every_batch_including_restored_ones(tmp_path):
    seen = []
    config = {"seed": 0, "budget": "quick", "cases": 32}
    ck = _checkpoint.Checkpoint(tmp_path, config, resume=False, code=CODE)
    run(["self.sgd"], cases=32, checkpoint=ck,
        batches=lambda cid, done, total: seen.append((cid, done, total)))
    assert seen == [("self.sgd", i, 4) for i in range(5)]  # 0 of 4 first: the total is known
    ck = _checkpoint.Checkpoint(tmp_path, config, resume=True, code=CODE)
    (ck.dir / "claims" / "self.sgd.json").unlink()
    seen.clear()
    run(["self.sgd"], cases=32, checkpoint=ck,
        batches=lambda cid, done, total: seen.append((cid, done, total)))
    assert seen == [("self.sgd", 4, 4)]  # all four restored at once
