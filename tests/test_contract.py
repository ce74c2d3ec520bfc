"""The claim contract: every registered claim keeps it, and the engine enforces it."""
import importlib.util
import re
from pathlib import Path

import pytest

from proofs_check.engine import registry
from proofs_check.engine.context import Context
from proofs_check.engine.contract import Claim, Clause, validate
from proofs_check.engine.runner import run_one

ROOT = Path(__file__).resolve().parent.parent


def _test_file(claim_id: str) -> Path:
    return ROOT / "tests" / "claims" / f"test_{registry.CHECKS[claim_id]}.py"


@pytest.mark.parametrize("claim_id", list(registry.CHECKS))
def test_every_registered_claim_keeps_the_contract(claim_id):
    module = registry.load(claim_id)
    assert module is not None, f"{claim_id} is registered but its module is missing"
    claim = module.CLAIM
    assert claim.id == claim_id
    assert claim.clauses and claim.control.strip()
    assert claim.evidence in ("observed", "probed", "proved")


@pytest.mark.parametrize("claim_id", list(registry.CHECKS))
def test_every_claim_has_a_docs_page(claim_id):
    page = ROOT / "docs" / "claims" / f"{claim_id}.md"
    assert page.exists(), f"{claim_id} has no page {page.relative_to(ROOT)}"


@pytest.mark.parametrize("claim_id", list(registry.CHECKS))
def test_every_claim_has_a_test_file_that_runs_it(claim_id):
    path = _test_file(claim_id)
    assert path.exists(), f"{claim_id} has no test file {path.relative_to(ROOT)}"
    text = path.read_text()
    runs = re.search(rf"""(passes|run_one)\(\s*["']{re.escape(claim_id)}["']""", text)
    assert runs, f"{path.name} never runs {claim_id} through the runner"


def test_no_claim_imports_another_claim():
    for path in (ROOT / "proofs_check" / "claims").glob("*.py"):
        text = path.read_text()
        assert not re.search(r"^from \.(\w+)? import|^from proofs_check\.claims", text, re.M), \
            f"{path.name} imports a claim module"


def _claim(**changes):
    fields = dict(id="x", statement="s", reference="r (docs/math.md §1)", hypotheses="h",
                  cases="c", control="k", clauses=("a",))
    return Claim(**{**fields, **changes})


@pytest.mark.parametrize("changes, message", [
    ({"clauses": ()}, "`clauses` must name at least one clause"),
    ({"control": " "}, "`control` must be a non-empty string"),
    ({"reference": "Theorem 1"}, "must cite its docs/math.md section"),
    ({"clauses": ("a", "a")}, "clause names must be unique"),
    ({"clauses": (Clause("a", evidence="certain"),)}, "`evidence` must be one of"),
])
def test_validate_names_the_broken_field(changes, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        validate(_claim(**changes))


def test_validate_rejects_a_module_without_check():
    with pytest.raises(TypeError, match="check"):
        validate(_claim(), object())


def test_a_record_cannot_claim_more_evidence_than_declared():
    ctx = Context(_claim(), seed=0)
    case = ctx.cases(1, "f")[0]
    with pytest.raises(ValueError, match="exceeds the declared"):
        ctx.record("a", 1.0, case, evidence="proved")


def _module(check, **claim_changes):
    return type("M", (), {"CLAIM": _claim(**claim_changes), "check": staticmethod(check)})


def _run(module):
    return run_one("x", seed=0, budget="quick", load=lambda _id: module)


def _main_part(ctx):
    for case in ctx.cases(3, "f"):
        ctx.record("a", 1.0, case)


def test_a_control_that_evaluated_nothing_is_an_error():
    def check(ctx):
        _main_part(ctx)
        sub = ctx.control_context("control")
        sub.cases(2, "g")  # drawn, never evaluated
        ctx.negative_control(True, "claims to be caught", controls=sub)

    result = _run(_module(check))
    assert result.verdict == "ERROR" and not result.ok
    assert "evaluated no case" in result.error


def test_a_control_that_skipped_a_drawn_case_is_an_error():
    def check(ctx):
        _main_part(ctx)
        sub = ctx.control_context("control")
        first, _second = sub.cases(2, "g")
        sub.record("a", -1.0, first)
        ctx.negative_control(True, "half a control", controls=sub)

    result = _run(_module(check))
    assert result.verdict == "ERROR"
    assert "left 1 of its 2 drawn cases unaccounted for" in result.error


def test_a_check_without_a_control_is_an_error():
    result = _run(_module(_main_part))
    assert result.verdict == "ERROR" and "no negative control" in result.error


def test_a_control_that_evaluated_its_cases_counts():
    def check(ctx):
        _main_part(ctx)
        sub = ctx.control_context("control")
        for case in sub.cases(2, "g"):
            sub.record("a", -1.0, case)
        ctx.negative_control(True, "caught on both", controls=sub)

    result = _run(_module(check))
    assert result.verdict == "PASS" and result.ok
    assert result.negative_control["evaluated"] == 2 == result.negative_control["planned"]


def test_evidence_is_the_weakest_recorded_strength():
    def check(ctx):
        case_a, case_b = ctx.cases(2, "f")
        ctx.record("a", 1.0, case_a, evidence="proved")
        ctx.record("a", 1.0, case_b, evidence="observed")
        ctx.record("b", 1.0, case_a)
        sub = ctx.control_context("control")
        for case in sub.cases(1, "g"):
            sub.record("a", -1.0, case)
        ctx.negative_control(True, "c", controls=sub)

    result = _run(_module(check, clauses=(Clause("a", evidence="proved"),
                                          Clause("b", evidence="probed"))))
    assert result.clauses["a"]["evidence"] == "observed"
    assert result.clauses["a"]["evidence_counts"] == {"proved": 1, "observed": 1}
    assert result.clauses["b"]["evidence"] == "probed"
    assert result.evidence == "observed"


def _worked_example(tmp_path):
    text = (ROOT / "docs" / "extending.md").read_text()
    code = re.search(r"## Worked example.*?```python\n(.*?)```", text, re.S).group(1)
    path = tmp_path / "example_euler.py"
    path.write_text(code)
    spec = importlib.util.spec_from_file_location("example_euler", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_worked_example_runs(tmp_path):
    module = _worked_example(tmp_path)
    validate(module.CLAIM, module)
    result = run_one(module.CLAIM.id, seed=0, budget="quick", load=lambda _id: module)
    assert result.error is None, result.error
    assert result.verdict == "PASS" and result.negative_control_caught is True
    assert result.negative_control["evaluated"] == result.negative_control["planned"] > 0


def test_the_worked_examples_control_is_a_control(tmp_path, monkeypatch):
    module = _worked_example(tmp_path)
    monkeypatch.setattr(module, "WRONG_ORDER", 1.0)  # the "false" variant made true
    result = run_one(module.CLAIM.id, seed=0, budget="quick", load=lambda _id: module)
    assert result.negative_control_caught is False and not result.ok


@pytest.mark.parametrize("claim_id", list(registry.CHECKS))
def test_every_clause_states_its_slack_unit(claim_id):
    claim = registry.load(claim_id).CLAIM
    missing = [c.name for c in claim.clauses if claim.unit(c.name).strip() in ("", "—", "-")]
    assert not missing, (f"{claim_id}: clauses {missing} have no slack unit; set "
                         "Clause(..., slack_unit=...) to what the slack measures")
