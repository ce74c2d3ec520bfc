"""``--compare``: parsed reports compared semantically (issue 14.3, issue 15 item 14).

The same document re-serialised reproduces; environment differences are listed but never
fail; every kind of evidence difference is caught; what is not a report is exit 2.
"""
import copy
import json

import pytest

from proofs_check import compare, report
from proofs_check.__main__ import main
from proofs_check.engine import io


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    """A real report of two self-test claims (one PASS, one FAIL)."""
    path = tmp_path_factory.mktemp("cmp") / "base.json"
    mp = pytest.MonkeyPatch()
    mp.setattr(io, "code_fingerprint", lambda: "fixed")
    try:
        main(["--selftest", "--only", "self.sgd", "self.fail", "--budget", "quick",
              "--workers", "0", "--no-checkpoint", "--json", str(path), "--quiet"])
    finally:
        mp.undo()
    return json.loads(path.read_text())


def diff(a, b):
    return compare.compare(a, b)


def test_a_report_reproduces_itself_reserialised(base, tmp_path, capsys):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(report.dumps(base))
    shuffled = json.loads(json.dumps(base), object_pairs_hook=lambda kv: dict(reversed(kv)))
    b.write_text(json.dumps(shuffled, separators=(",", ":")))
    assert a.read_text() != b.read_text()
    assert main(["--compare", str(a), str(b)]) == 0
    assert capsys.readouterr().out.strip().endswith("reproduced")


def test_environment_differences_are_listed_but_do_not_fail(base):
    other = copy.deepcopy(base)
    man = other["manifest"]
    man["platform"]["machine"] = "aarch64"
    man["platform"]["blas"][0]["architecture"] = "NEOVERSEN1"
    man["versions"]["numpy"] = "9.9.9"
    man["code"] = "another"
    other["claims"][0]["seconds"] += 100.0
    other["run"] = {"executor": "dask cluster at tcp://x:1"}
    out = diff(base, other)
    assert out.reproduced, out.differences
    text = "\n".join(out.environment)
    for word in ("machine", "architecture", "numpy", "code", "seconds", "run section"):
        assert word in text
    assert out.lines()[-1].endswith("reproduced")


def _claim(doc, cid):
    return next(c for c in doc["claims"] if c["id"] == cid)


def _edit(doc, change):
    other = copy.deepcopy(doc)
    change(other)
    return other


@pytest.mark.parametrize("change, expected", [
    (lambda d: _claim(d, "self.sgd").update(verdict="FAIL"), "self.sgd.verdict: 'PASS' vs 'FAIL'"),
    (lambda d: _claim(d, "self.sgd").update(evidence="proved"), "self.sgd.evidence"),
    (lambda d: _claim(d, "self.sgd")["negative_control"].update(caught=False),
     "self.sgd.negative_control.caught"),
    (lambda d: _claim(d, "self.sgd").update(negative_control_caught=False),
     "self.sgd.negative_control_caught"),
    (lambda d: _claim(d, "self.sgd").update(cases=99), "self.sgd.cases: 13 vs 99"),
    (lambda d: _claim(d, "self.sgd")["counts"].update(inconclusive=1),
     "self.sgd.counts.inconclusive"),
    (lambda d: _claim(d, "self.sgd")["clauses"]["euler"].update(seed=1),
     "self.sgd.clauses.euler.seed"),
    (lambda d: _claim(d, "self.fail")["clauses"]["init_margin_positive"].update(
        worst_slack=_claim(d, "self.fail")["clauses"]["init_margin_positive"]["worst_slack"]
        * (1 + 1e-6)), "self.fail.clauses.init_margin_positive.worst_slack"),
    (lambda d: d["claims"].pop(), "self.fail: only in A"),
    (lambda d: d.update(seed=1), "seed: 0 vs 1"),
    (lambda d: _claim(d, "self.fail")["notes"].append("new note"), "self.fail.notes"),
])
def test_each_evidence_difference_is_reported(base, change, expected):
    out = diff(base, _edit(base, change))
    assert not out.reproduced
    assert any(expected in d for d in out.differences), out.differences
    assert "NOT reproduced" in out.lines()[-1]


def test_slacks_agree_to_the_stated_tolerance(base):
    def nudge(clause, factor=1.0, shift=0.0):
        def change(d):
            w = _claim(d, "self.fail")["clauses"][clause]
            w["worst_slack"] = w["worst_slack"] * factor + shift
        return change
    big = _claim(base, "self.fail")["clauses"]["init_margin_positive"]["worst_slack"]
    assert abs(big) > 1e-3  # a slack where the relative tolerance is what counts
    assert diff(base, _edit(base, nudge("init_margin_positive", 1 + compare.RTOL / 10))).reproduced
    assert not diff(base, _edit(base, nudge("init_margin_positive", 1 + compare.RTOL * 10))
                    ).reproduced
    tiny = _claim(base, "self.fail")["clauses"]["euler"]["worst_slack"]
    assert abs(tiny) < 1e-9  # ~1e-12: rounding-level shifts are the absolute floor's
    assert diff(base, _edit(base, nudge("euler", shift=compare.ATOL / 10))).reproduced
    assert not diff(base, _edit(base, nudge("euler", shift=compare.ATOL * 10))).reproduced


def test_content_hashes_are_compared_and_checked_against_the_manifest(base):
    def tamper_case(d):  # a case hash changed, the manifest left as it was
        ledger = _claim(d, "self.sgd")["ledger"]
        key = next(iter(ledger))
        ledger[key]["W"] = "0" * 16
    out = diff(base, _edit(base, tamper_case))
    assert any("does not have the SHA-256 its manifest states" in d for d in out.differences)

    def consistent(d):  # changed consistently: the hashes differ between the reports
        tamper_case(d)
        d["manifest"]["claims"]["self.sgd"]["ledger_sha256"] = report.ledger_hash(
            _claim(d, "self.sgd")["ledger"])
    out = diff(base, _edit(base, consistent))
    assert [d for d in out.differences if "content hashes differ" in d]


def test_numbers_in_text_agree_to_their_printed_precision():
    close = compare.text_close
    assert close("ratio 0.9999999814 over 43 runs", "ratio 0.9999999815 over 43 runs")
    assert not close("ratio 0.9999999814 over 43 runs", "ratio 0.9999999834 over 43 runs")
    assert not close("43 of 43 fail", "42 of 43 fail")
    assert close("slack 1.0e-12", "slack 1.1e-12") and not close("slack 1.0e-12", "slack 1.3e-12")


@pytest.mark.parametrize("text, message", [
    ("", "empty file"),
    ("   \n", "empty file"),
    ('{"claims": [', "not valid JSON (truncated?)"),
    ("[]", "a claims report is a JSON object, got list"),
    ('{"a": 1}', "not a claims report: no claims"),
    ("[" * 100000 + "]" * 100000, "nested too deeply"),
    ('{"claims": [{"verdict": "PASS"}], "not_checked": [], "seed": 0, "budget": "quick", '
     '"manifest": {"claims": {}}}', "string `id`"),
    ('{"claims": [{"id": "x", "verdict": "GREAT"}], "not_checked": [], "seed": 0, '
     '"budget": "quick", "manifest": {"claims": {}}}', "`verdict` must be one of"),
])
def test_what_is_not_a_report_is_a_usage_error(base, tmp_path, capsys, text, message):
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(report.dumps(base))
    bad.write_text(text)
    for args in ([good, bad], [bad, good], [bad, bad]):
        assert main(["--compare", *map(str, args)]) == 2
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err


def test_a_truncated_report_is_refused(base, tmp_path, capsys):
    text = report.dumps(base)
    good, cut = tmp_path / "good.json", tmp_path / "cut.json"
    good.write_text(text)
    cut.write_text(text[: len(text) // 2])
    assert main(["--compare", str(good), str(cut)]) == 2
    assert "truncated" in capsys.readouterr().err
    assert main(["--compare", str(good), str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err


def _other_kernel(doc):
    other = copy.deepcopy(doc)
    other["manifest"]["platform"]["blas"][0]["architecture"] = "ANOTHER_KERNEL"
    return other


def test_across_blas_kernels_rounding_differences_do_not_fail(base):
    other = _other_kernel(base)
    clause = next(iter(other["claims"][0]["clauses"].values()))
    clause["worst_slack"] += 1e-6  # far past RTOL: a reordered sum amplified by a run
    other["claims"][0]["ledger"] = {"moved": {"W": "0" * 16}}
    other["manifest"]["claims"][other["claims"][0]["id"]]["ledger_sha256"] = \
        report.ledger_hash(other["claims"][0]["ledger"])
    out = diff(base, other)
    assert out.reproduced, out.differences
    assert any("worst_slack" in r for r in out.rounding)
    assert any("content hashes differ" in r for r in out.rounding)
    assert diff(base, _edit_same_kernel(base)).differences  # the same edit, same kernel: fails


def _edit_same_kernel(doc):
    other = copy.deepcopy(doc)
    next(iter(other["claims"][0]["clauses"].values()))["worst_slack"] += 1e-6
    return other


@pytest.mark.parametrize("field, value", [("verdict", "FAIL"), ("evidence", "proved"),
                                          ("negative_control_caught", False), ("cases", 999)])
def test_across_blas_kernels_what_the_evidence_says_must_agree(base, field, value):
    other = _other_kernel(base)
    other["claims"][0][field] = value
    out = diff(base, other)
    assert not out.reproduced
    assert any(f".{field}:" in d for d in out.differences)
