"""Claim ``lem6.1`` (proofs_check/claims/lem6_1.py).

Its verdict, its negative control, and its machinery.
"""

import numpy as np
import pytest

from linteach import convex
from proofs_check.claims import lem6_1
from proofs_check.kit import geometry
from claim_support import passes


# -- lem6.1 ------------------------------------------------------------------------------------
def test_lem61_passes_and_catches_its_control():
    assert passes("lem6.1").verdict == "PASS"


def test_lem61_asymmetric_set_fails_with_a_verified_witness(rng):
    X, y = lem6_1._asymmetric(rng, "rotated")
    res = convex.assumption4_lp(geometry.unit_rows(X), y)
    assert lem6_1.antipodal_slack(res) < 0
    assert lem6_1.witness_holds(res, geometry.unit_rows(X), y)


@pytest.mark.parametrize("family", list(lem6_1.FAMILIES))
def test_lem61_antipodal_families_are_antipodal(family, rng):
    X, y = lem6_1.antipodal_set(rng, family)
    m = len(y) // 2
    np.testing.assert_array_equal(X[m:], -X[:m])
    np.testing.assert_array_equal(y[m:], -y[:m])
    assert set(np.unique(y)) == {-1.0, 1.0}


# -- the statement's constants ---------------------------------------------------------------
def test_the_clause_holds_down_to_slack_one_minus_the_lp_tolerance():
    """Lemma 6.1's conclusion is 'slack ≥ 1' up to HiGHS's accuracy, LP_TOL: just above
    1 − LP_TOL holds, just below fails, and a vacuous condition (infinite slack) holds."""
    from types import SimpleNamespace

    def clause(low):
        return lem6_1.antipodal_slack(SimpleNamespace(slack=np.array([np.inf, low])))

    assert lem6_1.LP_TOL == 1e-6
    assert clause(1.0 - lem6_1.LP_TOL * (1 - 1e-6)) > 0
    assert clause(1.0 - lem6_1.LP_TOL * (1 + 1e-6)) < 0
    assert clause(np.inf) == lem6_1.VACUOUS > 0


# -- the witness test, the records and the measurements, by value -----------------------------
def _witnessed(z, j=0, holds=False):
    from types import SimpleNamespace
    return SimpleNamespace(holds=holds, witness=None if z is None else np.asarray(z, float),
                           witness_index=j)


def test_a_witness_must_reach_one_on_the_other_class_and_zero_at_its_point():
    """z·x ≥ 1 − LP_TOL on every point of the class opposite x_j and z·x_j ≥ −LP_TOL, both
    ends inclusive; no witness when the assumption holds or none was returned."""
    X, y = np.array([[1.0, 0.0], [0.0, 1.0], [0.0, 2.0]]), np.array([1, -1, -1])
    tol = lem6_1.LP_TOL
    assert lem6_1.witness_holds(_witnessed([0.0, 1.0]), X, y)
    assert lem6_1.witness_holds(_witnessed([-tol, 1.0 - tol]), X, y)         # both at the edge
    assert not lem6_1.witness_holds(_witnessed([-2 * tol, 1.0]), X, y)       # z·x_j too low
    assert not lem6_1.witness_holds(_witnessed([0.0, 1.0 - 2 * tol]), X, y)  # z·x_1 too low
    assert not lem6_1.witness_holds(_witnessed([0.0, 1.0], holds=True), X, y)
    assert not lem6_1.witness_holds(_witnessed(None), X, y)


def _result(slack, raw_slack, holds=True, raw_holds=True, vacuous=False, raw_error=None,
            witness_ok=False):
    """One set's result as evaluate_cases returns it (synthetic)."""
    return {"slack": slack, "raw_slack": raw_slack, "holds": holds, "raw_holds": raw_holds,
            "vacuous": vacuous, "raw_error": raw_error, "witness_ok": witness_ok,
            "norm_range": 2.0, "n": 4, "d": 2, "data": "x"}


def _checked(monkeypatch, main, control):
    """``lem6_1.check`` on synthetic results: ``main`` for the families, ``control`` for the
    control's (each recorded as _run records it); returns the context."""
    from claim_support import fresh_context
    from proofs_check.engine.contract import Case
    calls = []

    def run(ctx, families):
        rows = main if not calls else control
        calls.append(families)
        for i, r in enumerate(rows):
            ctx.record(lem6_1.CLAUSE, r["slack"], Case("ball", i))
        return rows

    monkeypatch.setattr(lem6_1, "_run", run)
    monkeypatch.setattr(lem6_1, "audit_cases", lambda *a, **kw: None)
    ctx = fresh_context(lem6_1)
    lem6_1.check(ctx)
    return ctx


def test_the_measurements_of_the_sets_and_of_the_raw_scale_lp(monkeypatch):
    """Counts by their definitions on synthetic results: vacuous sets, the least finite slack
    (back in units of the LP's slack), raw-scale solves off by more than 1e-6, solver errors,
    changed verdicts; the control is caught only when every one of its sets fails with a
    verified witness."""
    main = [_result(0.5, 0.5), _result(0.25, 0.25 - 2e-6, raw_holds=False),
            _result(lem6_1.VACUOUS, lem6_1.VACUOUS, vacuous=True),
            _result(0.75, np.nan, raw_holds=None, raw_error="unbounded")]
    fails = _result(-0.5, -0.5, witness_ok=True)
    for caught, control in ((True, [fails] * 2), (False, [fails, dict(fails, witness_ok=False)])):
        ctx = _checked(monkeypatch, main, control)
        sets, raw = ctx.measurements["sets"], ctx.measurements["raw_scale_lp"]
        assert sets == {"total": 4, "vacuous": 1,
                        "min_finite_slack": 0.25 + 1.0 - lem6_1.LP_TOL}
        assert raw["sets_off_by_more_than_1e-6"] == 1 and raw["solver_errors"] == 1
        assert raw["worst_raw_slack_minus_1"] == 0.25 - 2e-6
        assert raw["raw_verdict_changed"] == 1
        assert ctx.control["caught"] is caught
        assert ctx.control["clause_evaluations"] == 2
        assert ctx.control["violations"] == 2
        assert ctx.control["witnesses_verified"] == (2 if caught else 1)
        assert any("mis-solves 1 set(s)" in note and "raises on 1" in note
                   and "worst 1.250" in note for note in ctx.notes)
    # either kind of raw-scale trouble alone is noted too
    for rows in (main[:3], [main[0], main[3]]):
        ctx = _checked(monkeypatch, rows, [fails])
        assert any("assumption4_lp on the raw points" in note for note in ctx.notes)


def test_a_case_reports_the_spread_of_its_point_norms_in_decades():
    from proofs_check.engine.contract import Case
    case = Case("scales", 2)
    out = lem6_1.evaluate_cases(([case], "scales"))[0]
    X, _y = lem6_1.antipodal_set(Case("scales", 2).rng, "scales")
    assert out["norm_range"] == float(np.ptp(np.log10(np.linalg.norm(X, axis=1))))
    assert out["norm_range"] > 1.0  # the family spans decades: rows, not columns, measured


def test_a_raw_scale_solve_off_by_exactly_1e_6_is_not_off_and_any_changed_verdict_counts(
        monkeypatch):
    ctx = _checked(monkeypatch, [_result(0.0, -1e-6, holds=False, raw_holds=True)], [])
    raw = ctx.measurements["raw_scale_lp"]
    assert raw["sets_off_by_more_than_1e-6"] == 0 and raw["raw_verdict_changed"] == 1
    # a control that evaluated nothing: not caught, and its counts say so
    assert not ctx.control["caught"]
    assert ctx.control["violations"] == 0 and ctx.control["clause_evaluations"] == 0


def test_the_asymmetric_ball_control_is_the_ball_set():
    from proofs_check.engine.contract import Case
    out = lem6_1.evaluate_cases(([Case("asym-ball", 4)], "asym-ball"))[0]
    X, _y = lem6_1._asymmetric(Case("asym-ball", 4).rng, "ball")
    assert out["data"] == lem6_1.digest(X)
