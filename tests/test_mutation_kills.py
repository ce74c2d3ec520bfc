"""Tests written to kill mutants that survived ``make mutate`` (see docs/mutation.md).

Each test pins one behaviour of the verdict logic or the core numerics that no other test
or claim check distinguished from a small mutation of it.
"""
import math

import numpy as np
import pytest

from proofs_check.engine.contract import ENGINE, Case, Claim
from proofs_check.engine.context import Context, control_problem, engine_problem, verdict_of

CASE = Case("fam", 7)


def _ctx(**kw):
    claim = Claim(id="demo", statement="s", reference="docs/math.md §1", hypotheses="h",
                  cases="c", control="n", clauses=("a", "b", ENGINE))
    return Context(claim, seed=0, **kw)


def test_slack_exactly_zero_holds_and_the_smallest_negative_fails():
    ctx = _ctx()
    ctx.record("a", 0.0, CASE)
    ctx.record("b", 0.0, CASE)
    ctx.audit("q", 1.0, 1.0, CASE, rtol=0.0)
    assert verdict_of(ctx) == "PASS"
    ctx.record("a", -np.finfo(float).tiny, CASE)
    assert verdict_of(ctx) == "FAIL"
    assert ctx.worst["a"].violations == 1 and ctx.worst["a"].evaluated == 2


def test_worst_keeps_the_minimum_and_its_case():
    ctx = _ctx()
    ctx.record("a", [3.0, 0.5, 2.0], Case("x", 1))
    ctx.record("a", 0.7, Case("y", 2))
    w = ctx.worst["a"]
    assert (w.slack, w.family, w.seed) == (0.5, "x", 1)


def test_one_missing_clause_is_inconclusive_not_pass():
    ctx = _ctx()
    ctx.record("a", 1.0, CASE)
    ctx.audit("q", 1.0, 1.0, CASE, rtol=0.0)
    assert verdict_of(ctx) == "INCONCLUSIVE"
    assert any("b" in note for note in ctx.notes)


def test_nothing_evaluated_is_assumption_not_met_unless_inconclusive():
    ctx = _ctx()
    assert verdict_of(ctx) == "ASSUMPTION-NOT-MET"
    ctx.inconclusive(CASE, "why")
    assert verdict_of(ctx) == "INCONCLUSIVE"


def test_control_that_evaluated_nothing_or_left_cases_is_a_problem():
    ctx = _ctx()
    assert control_problem(ctx) == "the check ran no negative control"
    sub = ctx.control_context("c")
    sub.cases(2, "f")
    ctx.negative_control(True, "d", controls=sub)
    assert "evaluated no case" in control_problem(ctx)
    sub2 = ctx.control_context("c2")
    cases = sub2.cases(2, "f")
    sub2.record("a", -1.0, cases[0])
    ctx.negative_control(True, "d", controls=sub2)
    assert "left 1 of its 2" in control_problem(ctx)
    sub3 = ctx.control_context("c3")
    for c in sub3.cases(2, "f"):
        sub3.record("a", -1.0, c)
    ctx.negative_control(True, "d", controls=sub3)
    assert control_problem(ctx) is None
    assert ctx.control["evaluated"] == 2 and ctx.control["planned"] == 2


def test_audit_allowance_is_atol_plus_rtol_times_reference():
    ctx = _ctx()
    assert ctx.audit("q", 10.5, 10.0, CASE, rtol=0.04, atol=0.1) == pytest.approx(0.0, abs=1e-12)
    assert ctx.audit("q", 10.51, 10.0, CASE, rtol=0.04, atol=0.1) < 0
    assert ctx.audit("q", 9.5, 10.0, CASE, rtol=0.05, atol=0.0) == pytest.approx(0.0, abs=1e-12)
    assert engine_problem(ctx).count("disagree") == 1 and "1 more" not in engine_problem(ctx)


def test_engine_problem_counts_further_disagreements():
    ctx = _ctx()
    for _ in range(3):
        ctx.audit("q", 2.0, 1.0, CASE, rtol=0.0)
    assert "and 2 more disagreement(s)" in engine_problem(ctx)


def test_evidence_above_the_declared_strength_is_refused():
    ctx = _ctx()
    with pytest.raises(ValueError, match="exceeds the declared"):
        ctx.record("a", 1.0, CASE, evidence="proved")


def test_nan_slack_is_refused():
    with pytest.raises(ValueError, match="NaN slack"):
        _ctx().record("a", [1.0, math.nan], CASE)


# -- linteach.metrics.linear_regime (survivors of the metrics-radius-regime campaign) ------------
import linteach as lt  # noqa: E402
from proofs_check.kit import audit_ref  # noqa: E402


@pytest.fixture
def net_points(rng):
    W = lt.generators.clustered_weights(3, 4, r=0.2, gap=1.5, center_norm=1.0, rng=rng)
    return W, rng.standard_normal((30, 4))


def test_linear_regime_constant_is_keyword_only(net_points):
    W, X = net_points
    with pytest.raises(TypeError):
        lt.linear_regime(W, X, 2.0)


@pytest.mark.parametrize("c", [0.0, 0.25, 0.5, 2.0])
def test_linear_regime_accepts_every_c_from_zero(net_points, c):
    W, X = net_points
    mask = audit_ref.band_mask(W, X, c)[0]
    np.testing.assert_array_equal(lt.linear_regime(W, X, c=c), mask)


def test_linear_regime_rejects_a_negative_c(net_points):
    W, X = net_points
    with pytest.raises(ValueError, match="`c`"):
        lt.linear_regime(W, X, c=-0.5)


def test_linear_regime_on_stacked_data_equals_each_run_alone(rng):
    W = np.stack([lt.generators.clustered_weights(2, 3, r=0.3, gap=1.0, center_norm=0.5,
                                                  rng=rng) for _ in range(2)])
    X = rng.standard_normal((2, 25, 3)) * np.array([1e-3, 1.0, 1e3])  # columns of 3 scales
    stacked = lt.linear_regime(W, X)
    for i in range(2):
        np.testing.assert_array_equal(stacked[i], lt.linear_regime(W[i], X[i]))


# -- linteach.bounds.sgd_update_bound (survivors of the bounds campaign) ------------------------
BOUND_ARGS = dict(R_x=1.3, R_0=1e-2, alpha=0.3, k=4, eta=0.1, v=2.0, w_star_norm=7.0)


def test_t_exact_and_m_are_rounded_up_never_down():
    """Both are reported at least 2^-41 above their float evaluation (the documented round-up
    is 2^-40; the evaluation error is ~1e-15), so neither is ever below the exact root."""
    bd = lt.bounds.sgd_update_bound(300, 0.2, **BOUND_ARGS)
    mine = audit_ref.sgd_constants(300, 0.2, **BOUND_ARGS)
    assert bd.T_exact >= mine["T_exact"] * (1 + 2.0**-41)
    assert bd.M >= mine["M"] * (1 + 2.0**-41)


@pytest.mark.parametrize("name, value", [("eta", -0.1), ("eta", 0.0), ("v", -1.0), ("v", 0.0),
                                         ("R_x", -1.0), ("R_x", 0.0), ("R_0", -1e-3),
                                         ("w_star_norm", -1.0), ("w_star_norm", 0.0),
                                         ("alpha", -0.1), ("alpha", 0.0), ("k", 0)])
def test_sgd_update_bound_rejects_each_out_of_range_argument(name, value):
    with pytest.raises(ValueError, match=f"`{name}`"):
        lt.bounds.sgd_update_bound(40, 0.1, **{**BOUND_ARGS, name: value})


@pytest.mark.parametrize("n, eps", [(0, 0.1), (40, 0.0), (40, -0.1)])
def test_sgd_update_bound_rejects_n_below_1_and_eps_not_positive(n, eps):
    with pytest.raises(ValueError, match="`n`" if n < 1 else "`eps`"):
        lt.bounds.sgd_update_bound(n, eps, **BOUND_ARGS)


def test_sgd_update_bound_accepts_the_boundary_values():
    bd = lt.bounds.sgd_update_bound(1, 1e-3, **{**BOUND_ARGS, "R_0": 0.0, "k": 1})
    assert bd.c == 0.0 and bd.T_exact > 0


def test_a_positive_slack_is_no_violation():
    ctx = _ctx()
    ctx.record("a", [1.0, 0.5], CASE)
    ctx.record("a", 0.0, CASE)
    assert ctx.worst["a"].violations == 0 and ctx.worst["a"].evaluated == 2


def test_evidence_counts_count_every_evaluation():
    ctx = _ctx()
    for _ in range(3):
        ctx.record("a", 1.0, CASE)
    ctx.audit("q", 1.0, 1.0, CASE, rtol=0.0, evidence="probed")
    assert ctx.worst["a"].evidence == {"observed": 3}
    assert ctx.worst["engine_agrees"].evidence == {"probed": 1}


@pytest.mark.parametrize("engine, reference", [([1.0, 1.0], [1.0]), ([1.0], [1.0, 1.0])])
def test_audit_shapes_must_match_even_when_the_values_broadcast_equal(engine, reference):
    ctx = _ctx()
    assert ctx.audit("q", engine, reference, CASE, rtol=0.1) < 0
    assert ctx.worst["engine_agrees"].slack < 0 and verdict_of(ctx) == "FAIL"


def test_audit_of_empty_arrays_agrees_with_slack_one():
    assert _ctx().audit("q", [], [], CASE, rtol=0.0) == 1.0


def test_engine_problem_names_the_first_disagreement_and_its_element_values():
    ctx = _ctx()
    ctx.audit("first quantity", [0.5, 0.25], [0.5, 0.75], CASE, rtol=1e-12)
    ctx.audit("second quantity", 9.0, 1.0, CASE, rtol=1e-12)
    msg = engine_problem(ctx)
    assert "first quantity" in msg and "second quantity" not in msg
    assert "engine 0.25, reference 0.75" in msg


def test_an_equal_later_slack_keeps_the_first_worst_case():
    ctx = _ctx()
    ctx.record("a", 0.5, Case("x", 1))
    ctx.record("a", 0.5, Case("y", 2))
    assert (ctx.worst["a"].family, ctx.worst["a"].seed) == ("x", 1)


def test_an_empty_slack_records_nothing():
    ctx = _ctx()
    ctx.record("a", [], CASE)
    assert "a" not in ctx.worst and CASE not in ctx.recorded


def test_record_and_negative_control_knobs_are_keyword_only():
    ctx = _ctx()
    with pytest.raises(TypeError):
        ctx.record("a", 1.0, CASE, "observed")
    with pytest.raises(TypeError):
        ctx.negative_control(True, "d", 3)


def test_audit_tolerances_are_keyword_only():
    """``audit(quantity, engine, reference, case, *, rtol, atol)``: a tolerance passed by
    position is refused, not taken as the first tolerance."""
    ctx = _ctx()
    with pytest.raises(TypeError):
        ctx.audit("q", 1.0, 1.0, CASE, 1e-9, 0.0)


# -- proofs_check.engine.runner.run_one (survivors of the runner-verdict campaign) -------------
def _stub_loader(check):
    import types

    claim = Claim(id="stub", statement="s", reference="docs/math.md §1", hypotheses="h",
                  cases="c", control="n", clauses=("a",))
    return lambda claim_id: types.SimpleNamespace(CLAIM=claim, check=check)


def test_run_one_reports_the_check_s_own_wall_time():
    import time

    from proofs_check.engine import runner

    before = time.perf_counter()
    res = runner.run_one("stub", seed=0, budget="quick", load=_stub_loader(
        lambda ctx: time.sleep(0.05)))
    outside = time.perf_counter() - before
    assert 0.05 <= res.seconds <= outside


def test_run_one_pins_blas_to_one_thread_while_the_check_runs():
    from threadpoolctl import threadpool_info, threadpool_limits

    from proofs_check.engine import runner

    seen = []
    with threadpool_limits(limits=2):  # whatever the caller set, a check runs on one thread
        runner.run_one("stub", seed=0, budget="quick", load=_stub_loader(
            lambda ctx: seen.extend(p["num_threads"] for p in threadpool_info())))
    assert seen and set(seen) == {1}


def test_run_one_options_are_keyword_only():
    from proofs_check.engine import runner

    with pytest.raises(TypeError):
        runner.run_one("stub", 0, "quick", load=_stub_loader(lambda ctx: None))


def _raise(ctx):
    raise RuntimeError("boom")


def test_run_one_alone_turns_a_raising_check_into_error_with_its_rerun_command():
    from proofs_check.engine import runner

    plain = runner.run_one("stub", seed=3, budget="quick", load=_stub_loader(_raise))
    assert plain.verdict == "ERROR" and "boom" in plain.error
    assert "--only stub --seed 3" in plain.reproduce and "--cases" not in plain.reproduce
    sized = runner.run_one("stub", seed=3, budget="quick", cases=4, load=_stub_loader(_raise))
    assert sized.reproduce.endswith("--cases 4")


def _nothing_met_but_controlled(ctx):
    for case in ctx.cases(7, "f"):
        ctx.assumption_not_met(case, "no")
    sub = ctx.control_context("c")
    for case in sub.cases(2, "f"):
        sub.record("a", -1.0, case)
    ctx.negative_control(True, "d", controls=sub)


def test_an_assumption_not_met_result_has_no_rerun_command_and_five_examples():
    from proofs_check.engine import runner

    res = runner.run_one("stub", seed=0, budget="quick",
                         load=_stub_loader(_nothing_met_but_controlled))
    assert res.verdict == "ASSUMPTION-NOT-MET" and res.reproduce is None
    assert len(res.counts["assumption_not_met_examples"]) == 5
