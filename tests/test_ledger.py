"""The reproducible ledger: claims.json's manifest, and identical reruns (timing aside)."""
import hashlib
import json
import re

import numpy as np
import pytest

from proofs_check import compare, report
from proofs_check.__main__ import main
from proofs_check.engine import io, runner
from proofs_check.engine.context import Context
from proofs_check.engine.contract import Case, Claim, digest

ARGS = ["--selftest", "--only", "self.sgd", "self.fail", "--budget", "quick", "--no-checkpoint"]


@pytest.fixture(autouse=True)
def fixed_code(monkeypatch):
    # other sessions edit the tree while tests run; the fingerprint has its own tests
    monkeypatch.setattr(io, "code_fingerprint", lambda: "fixed")


def write(tmp_path, name, *extra):
    path = tmp_path / f"{name}.json"
    main([*ARGS, "--json", str(path), *extra])
    return path.read_text()


def assert_same_but_timing(a: str, b: str):
    assert a != b  # the timing fields did change: the comparison is not vacuous
    da, db = json.loads(a), json.loads(b)
    assert report.reproducible(da) == report.reproducible(db)  # bit for bit, timing aside
    assert compare.compare(da, db).reproduced


def test_same_seed_and_budget_give_byte_identical_claims_json(tmp_path):
    assert_same_but_timing(write(tmp_path, "a", "--workers", "0"),
                           write(tmp_path, "b", "--workers", "0"))


def test_a_process_pool_reproduces_the_in_process_run(tmp_path):
    local = write(tmp_path, "local", "--workers", "0")
    pooled = write(tmp_path, "pool", "--workers", "2")  # two claims at once, batches spread
    assert_same_but_timing(local, pooled)
    assert json.loads(pooled)["run"]["executor"] == "local process pool (2 workers)"


def test_another_seed_gives_another_ledger(tmp_path, capsys):
    text_a, text_b = write(tmp_path, "a", "--workers", "0"), write(tmp_path, "b", "--workers",
                                                                   "0", "--seed", "1")
    assert len(compare.compare(json.loads(text_a), json.loads(text_b)).differences) > 10
    assert main(["--compare", str(tmp_path / "a.json"), str(tmp_path / "b.json")]) == 1
    assert "NOT reproduced" in capsys.readouterr().out
    a, b = json.loads(text_a), json.loads(text_b)
    ha = a["manifest"]["claims"]["self.sgd"]["ledger_sha256"]
    assert ha != b["manifest"]["claims"]["self.sgd"]["ledger_sha256"]
    assert not set(a["claims"][0]["ledger"]) & set(b["claims"][0]["ledger"])


def test_manifest_lists_versions_platform_budget_seeds_and_case_hashes(tmp_path):
    doc = json.loads(write(tmp_path, "a", "--workers", "0"))
    man = doc["manifest"]
    assert {"python", "numpy", "scipy", "cvxpy", "linteach"} <= set(man["versions"])
    assert man["platform"]["machine"] and man["platform"]["blas"]
    assert all(lib["version"] and lib["architecture"] for lib in man["platform"]["blas"])
    assert (man["budget"], man["seed"], man["code"]) == ("quick", 0, "fixed")
    for claim in doc["claims"]:
        entry = man["claims"][claim["id"]]
        assert entry["families"] == {"small": claim["cases"]} == claim["families"]
        assert entry["ledger_cases"] == claim["cases"] == len(claim["ledger"])
        assert all(set(h) == {"data", "W0", "W"} and all(re.fullmatch("[0-9a-f]{16}", v)
                                                          for v in h.values())
                   for h in claim["ledger"].values())
        blob = json.dumps(claim["ledger"], sort_keys=True, separators=(",", ":")).encode()
        assert entry["ledger_sha256"] == hashlib.sha256(blob).hexdigest()
    # the ledger's keys are the cases' family/seed, replayable one by one
    assert all(re.fullmatch(r"small/\d+", key) for key in doc["claims"][0]["ledger"])


def test_markdown_carries_the_manifest(tmp_path):
    main([*ARGS, "--workers", "0", "--out", str(tmp_path / "c.md")])
    text = (tmp_path / "c.md").read_text()
    assert "Code fingerprint `fixed`" in text and "| `self.sgd` | 13 | small 13 |" in text


def test_digest_sees_content_dtype_and_shape():
    a = np.arange(6.0)
    assert digest(a) == digest(a.copy()) == digest(a[::1])
    assert digest(a) != digest(a.reshape(2, 3))
    assert digest(a) != digest(a.astype(np.float32))
    b = a.copy()
    b[3] = np.nextafter(b[3], 10)
    assert digest(a) != digest(b)


def _ctx():
    return Context(Claim("t", "s", "r", clauses=("c",)), seed=0, budget="quick")


def test_non_finite_values_are_strict_json_and_nan_slack_is_an_error():
    ctx = _ctx()
    case = ctx.cases(1, "f")[0]
    ctx.record("c", np.inf, case)
    ctx.measure("ratio", -np.inf)
    doc = {"worst": ctx.worst["c"].slack, "m": ctx.measurements}
    assert json.loads(report.dumps(doc)) == {"worst": "inf", "m": {"ratio": "-inf"}}
    with pytest.raises(ValueError, match="NaN slack"):
        ctx.record("c", [0.0, np.nan], case)


def test_cases_are_drawn_per_family_and_counted():
    ctx = _ctx()
    first = ctx.cases(3, "a")
    assert ctx.cases(2, "b") != first[:2]
    assert ctx.family_counts == {"a": 3, "b": 2} and ctx.counts["cases"] == 5
    again = _ctx().cases(3, "a")
    assert again == first and all(isinstance(c, Case) for c in again)


def test_reproducible_view_drops_only_timing_and_run():
    doc = {"claims": [{"id": "x", "seconds": 1.0, "cases": 3}], "run": {"seconds": 2},
           "seed": 0}
    assert report.reproducible(doc) == {"claims": [{"id": "x", "cases": 3}], "seed": 0}


def test_run_one_is_unchanged_for_check_authors():
    from proofs_check.engine import selftest as _selftest

    result = runner.run_one("self.sgd", seed=0, budget="quick", cases=8, load=_selftest.load)
    assert result.verdict == "PASS" and result.negative_control_caught is True
    assert result.cases == 8 and len(result.ledger) == 8
