"""Claim ``thm6.1`` (proofs_check/claims/thm6_1.py).

Its verdict, its negative control, and its machinery.
"""

import numpy as np
import pytest

import linteach as lt
from linteach import convex
from proofs_check.claims import thm6_1
from proofs_check.kit import nar
from claim_support import passes


# -- thm6.1 ------------------------------------------------------------------------------------
def test_thm61_passes_and_catches_its_control(monkeypatch):
    monkeypatch.setattr(thm6_1, "FAMILIES", {"symmetric": thm6_1.FAMILIES["symmetric"]})
    result = passes("thm6.1")
    assert result.verdict == "PASS"
    assert set(result.clauses) == set(thm6_1.CLAIM.clause_names)  # with the engine clause


def _symmetric_limit(steps=1200):
    rng = np.random.default_rng(5)
    ds = lt.make_symmetric_gaussians(16, 3, rng=rng)
    net = lt.Net(k=3, alpha=0.3)
    run = lt.gradient_flow(net, net.init(3, scale=1e-2, rng=rng), ds, dt=0.01, n_steps=steps,
                           normalized=True)
    return net, ds, run.direction


def test_thm61_limit_matches_its_pattern_and_a_wrong_pattern_fails():
    net, ds, D = _symmetric_limit()
    agree = lt.agreement(D, ds.X)
    c_w, c_u = agree.c(net.alpha)
    W_pred = convex.nar_program(ds.X, ds.y, net.alpha, c_w, c_u, k=net.k)
    slacks, info = thm6_1.pattern_slacks(D, W_pred, ds.X, ds.y, alpha=net.alpha)
    # the radius clause needs the values at T_NAR (tested below); the others are absolute
    for clause in ("limit_solves_pattern_program", "pattern_program_clustered"):
        assert slacks[clause] >= 0, (clause, info)
    assert info["kkt"] < thm6_1.KKT_TOL
    point, W_wrong = thm6_1.wrong_pattern_prediction(ds.X, ds.y, agree.side_w, agree.side_u, D,
                                                     alpha=net.alpha, k=net.k)
    wrong, _ = thm6_1.pattern_slacks(D, W_wrong, ds.X, ds.y, alpha=net.alpha)
    assert wrong["limit_solves_pattern_program"] < 0


def test_thm61_radius_clause_needs_the_value_or_the_fall():
    assert nar.radius_slack(1e-12) >= 0 > nar.radius_slack(1e-3)
    assert nar.radius_slack(1e-4, 1e-1) >= 0  # fell 3 decades since T_NAR
    assert nar.radius_slack(1e-2, 1e-1) < 0  # fell only 1 decade
    assert nar.radius_slack(1e-12, 1e-11) >= 0  # at rounding level the value decides


def test_thm61_detects_a_run_that_left_its_pattern():
    # fell 3 decades while log‖W‖ grew by log 1000: r·‖W‖ invariant, stayed
    assert not nar.left_pattern(1e-4, 1e-1, np.log(1e3))
    # fell 3 decades but ‖W‖ grew only 10×: the neurons got different updates
    assert nar.left_pattern(1e-4, 1e-1, np.log(10.0))
    # below the radius tolerance rounding hides the invariance: undecided, not "left"
    assert not nar.left_pattern(1e-12, 1e-1, 0.0)


def test_thm61_classifies_runs_outside_every_nar():
    moving = {"late": 3, "in_nar": False, "drift": 1.0, "direction": np.eye(4, 2)}
    settled = dict(moving, drift=0.0)
    X = np.array([[1.0, 0.0], [0.0, 1.0]])
    assert nar.classify(moving, X)[0] == "inconclusive"
    assert nar.classify(settled, X)[0] == "anm"
    assert nar.classify(dict(settled, late=-1), X)[0] == "inconclusive"


# -- the statement's constants ---------------------------------------------------------------
def test_the_limit_clause_holds_exactly_up_to_cos_tol():
    """1 − cos(Ŵ, W_pred) just below COS_TOL holds, just above fails: the clause is evaluated at
    the tolerance the claim names (a 2-D rotation by the angle whose 1 − cos is that value)."""
    W_pred = np.array([[1.0, 0.0]])

    def rotated(one_minus_cos):
        t = np.arccos(1.0 - one_minus_cos)
        return np.array([[np.cos(t), np.sin(t)]])

    assert thm6_1.COS_TOL == nar.COS_TOL == 1e-3
    assert thm6_1.limit_slack(rotated(thm6_1.COS_TOL * (1 - 1e-6)), W_pred) > 0
    assert thm6_1.limit_slack(rotated(thm6_1.COS_TOL * (1 + 1e-6)), W_pred) < 0
    assert thm6_1.KKT_TOL == np.sqrt(2 * thm6_1.COS_TOL)


def test_the_radius_clause_holds_below_radius_tol_or_after_the_required_fall():
    tol, decades = nar.RADIUS_TOL, nar.RADIUS_DECADES
    assert nar.radius_slack(tol * (1 - 1e-9)) > 0 > nar.radius_slack(tol * (1 + 1e-6))
    r_entry = 1e-2
    fell = r_entry * 10.0 ** -decades
    assert nar.radius_slack(fell * (1 - 1e-9), r_entry) > 0
    assert nar.radius_slack(fell * (1 + 1e-6), r_entry) < 0


def test_the_pattern_slacks_and_their_details_are_their_formulas():
    """Each reported number by its definition: 1 − cos(Ŵ, W_pred), the pattern optimum's
    relative radius r(W_pred)/‖W_pred‖ and its clause 1 − r/PROGRAM_CLUSTER_TOL, the KKT
    clause 1 − kkt_end/KKT_TOL."""
    from proofs_check.kit import flow
    net, ds, D = _symmetric_limit()
    agree = lt.agreement(D, ds.X)
    W_pred = convex.nar_program(ds.X, ds.y, net.alpha, *agree.c(net.alpha), k=net.k)
    slacks, info = thm6_1.pattern_slacks(D, W_pred, ds.X, ds.y, alpha=net.alpha,
                                         kkt_end=0.25 * thm6_1.KKT_TOL)
    assert info["one_minus_cos"] == 1.0 - flow.cosine(D, W_pred)
    r_pred = float(lt.cluster_radius(W_pred)) / float(np.linalg.norm(W_pred))
    assert info["pred_radius"] == r_pred
    assert slacks["pattern_program_clustered"] == 1.0 - r_pred / thm6_1.PROGRAM_CLUSTER_TOL
    assert slacks["kkt_residual_small"] == 0.75
    assert info["radius"] == float(lt.cluster_radius(D))


@pytest.fixture(scope="module")
def analysed():
    """A symmetric-family case trained at the quick budget's steps, with what ``_analyse``
    saw for each run: the limit summary, the pattern optimum, the wrong pattern's optimum."""
    from proofs_check.engine.contract import Case
    from proofs_check.kit import flow
    seen, mp = {}, pytest.MonkeyPatch()
    real_summary, real_slacks = flow.limit_summary, thm6_1.pattern_slacks
    real_wrong = thm6_1.wrong_pattern_prediction
    mp.setattr(flow, "limit_summary",
               lambda pair, r: seen.setdefault(r, {}).setdefault("s", real_summary(pair, r)))
    current = {}

    def slacks(direction, W_pred, *a, **kw):
        current["W_pred"] = W_pred
        return real_slacks(direction, W_pred, *a, **kw)

    def wrong(*a, **kw):
        current["wrong"] = real_wrong(*a, **kw)
        return current["wrong"]

    mp.setattr(thm6_1, "pattern_slacks", slacks)
    mp.setattr(thm6_1, "wrong_pattern_prediction", wrong)
    try:
        case = Case("symmetric", 3)
        spec = thm6_1.FAMILIES["symmetric"]
        net = lt.Net(k=spec["k"], alpha=spec["alpha"], v=spec["v"])
        X, y, W0 = thm6_1.build_case(case, spec)
        pair = flow.flow_pair(net, W0, X, y, n_steps=600)
        outs = []
        for r in range(len(W0)):
            current.clear()
            out = thm6_1._analyse(net, X, y, pair, r, 1.0, control=r == 0)
            outs.append((out, seen[r]["s"], dict(current)))
        default = thm6_1._analyse(net, X, y, pair, 0, 1.0)
    finally:
        mp.undo()
    return net, X, y, pair, outs, default


def test_analyse_reports_each_number_by_its_definition(analysed):
    """Every number ``_analyse`` reports for an evaluated run, recomputed from what it saw:
    the half-step companion's 1 − cos, r·‖W‖'s ratio since T_NAR, the PAR flag, the wrong
    pattern's point, slack and 1 − cos (on the first run only; by default on any)."""
    from proofs_check.kit import flow
    _net, _X, y, _pair, outs, default = analysed
    ok = [(out, s, seen) for out, s, seen in outs if out["outcome"] == "ok"]
    assert ok and ok[0][0]["wrong"] is not None and default["wrong"] is not None
    for out, s, seen in ok:
        W_pred = seen["W_pred"]
        assert out["one_minus_cos_half"] == 1.0 - flow.cosine(s["direction_half"], W_pred)
        gain = s["log_norm_end"] - s["log_norm_entry"]
        assert out["radius_norm_ratio"] == float(
            np.exp(gain) * max(out["radius"], 1e-300) / max(s["radius_entry"], 1e-300))
        assert out["par"] == bool(np.array_equal(s["side_w"], y)
                                  and np.array_equal(s["side_u"], -y))
        if out["wrong"] is not None:
            point, W_wrong = seen["wrong"]
            assert out["wrong"]["point"] == point
            assert out["wrong"]["slack"] == thm6_1.limit_slack(s["direction"], W_wrong)
            assert out["wrong"]["one_minus_cos"] == 1.0 - flow.cosine(s["direction"], W_wrong)
    assert any(out["par"] for out, *_ in ok)  # a PAR run among them: the flag can be wrong


@pytest.mark.parametrize("late", [False, True])
def test_a_run_entering_its_nar_after_half_its_steps_is_inconclusive(monkeypatch, analysed,
                                                                     late):
    """T_NAR at step n_steps // 2 still counts; one step later is too late to watch."""
    from proofs_check.kit import flow
    net, X, y, pair, outs, _default = analysed
    r = next(i for i, (out, *_rest) in enumerate(outs) if out["outcome"] == "ok")
    half = pair["main"]["n_steps"] // 2
    s = dict(outs[r][1], T_NAR_step=half + late)
    monkeypatch.setattr(flow, "limit_summary", lambda pair, run: s)
    out = thm6_1._analyse(net, X, y, pair, r, 1.0)
    assert (out["outcome"] == "inconclusive" and "too late" in out["reason"]) is late


def test_a_run_that_left_its_pattern_is_inconclusive_naming_the_factor(monkeypatch, analysed):
    """r fell 3 decades since T_NAR while ‖W‖ grew 10×: r·‖W‖ moved by a factor 0.01, so the
    run left its pattern between records; the reason gives that factor."""
    from proofs_check.kit import flow
    net, X, y, pair, outs, _default = analysed
    r = next(i for i, (out, *_rest) in enumerate(outs) if out["outcome"] == "ok")
    s = dict(outs[r][1], radius_entry=1e-1, radius_end=1e-4)
    s["log_norm_end"] = s["log_norm_entry"] + np.log(10.0)
    monkeypatch.setattr(flow, "limit_summary", lambda pair, run: s)
    out = thm6_1._analyse(net, X, y, pair, r, 1.0)
    assert out["outcome"] == "inconclusive" and "changed by a factor 0.01 since" in out["reason"]


def test_pattern_slacks_takes_its_options_by_keyword():
    net, ds, D = _symmetric_limit(steps=300)
    with pytest.raises(TypeError):
        thm6_1.pattern_slacks(D, D, ds.X, ds.y, net.alpha)


@pytest.mark.parametrize("beta, boundary", [(0.0, True), (thm6_1.BETA_INTERIOR, True),
                                            (2 * thm6_1.BETA_INTERIOR, False)])
def test_a_pattern_optimum_on_the_nar_boundary_is_an_unmet_assumption(monkeypatch, analysed,
                                                                      beta, boundary):
    """β of the pattern optimum ≤ BETA_INTERIOR (its boundary, 0 included): ASSUMPTION-NOT-
    MET; above it the run goes on to be evaluated."""
    from proofs_check.kit import flow
    net, X, y, pair, outs, _default = analysed
    r = next(i for i, (out, *_rest) in enumerate(outs) if out["outcome"] == "ok")
    monkeypatch.setattr(flow, "interior_beta", lambda W, X: beta)
    out = thm6_1._analyse(net, X, y, pair, r, 1.0)
    assert (out["outcome"] == "anm" and "NAR boundary" in out["reason"]) is boundary


def test_par_needs_both_types_on_their_own_label_s_side(monkeypatch, analysed):
    """PAR: every w neuron on the side of y and every u neuron on the side of −y; the w
    neurons alone are not enough."""
    from proofs_check.kit import flow
    net, X, y, pair, outs, _default = analysed
    r = next(i for i, (out, s, _seen) in enumerate(outs) if out["outcome"] == "ok" and out["par"])
    s = dict(outs[r][1], side_u=np.asarray(y, dtype=outs[r][1]["side_u"].dtype))
    monkeypatch.setattr(flow, "limit_summary", lambda pair, run: s)
    assert thm6_1._analyse(net, X, y, pair, r, 1.0)["par"] is False


def test_a_perfectly_clustered_run_has_a_finite_radius_ratio(monkeypatch, analysed):
    """r = 0 at T_NAR and at the end (every neuron of a type equal): r·‖W‖'s ratio since T_NAR
    is e^gain·(1e-300/1e-300), the floors keeping it finite."""
    from proofs_check.kit import flow
    net, X, y, pair, outs, _default = analysed
    r = next(i for i, (out, *_rest) in enumerate(outs) if out["outcome"] == "ok")
    s = dict(outs[r][1], radius_entry=0.0, radius_end=0.0)
    k = net.k
    D = s["direction"].copy()
    D[:k], D[k:] = D[:k].mean(axis=0), D[k:].mean(axis=0)
    s["direction"] = D / np.linalg.norm(D)
    monkeypatch.setattr(flow, "limit_summary", lambda pair, run: s)
    out = thm6_1._analyse(net, X, y, pair, r, 1.0)
    assert out["outcome"] == "ok" and out["radius"] == 0.0
    # e^gain up to the two roundings of ·1e-300/1e-300 (exact equality held on one BLAS's
    # bits of the flow and not on another's)
    np.testing.assert_allclose(out["radius_norm_ratio"],
                               np.exp(s["log_norm_end"] - s["log_norm_entry"]),
                               rtol=4 * np.finfo(float).eps, atol=0)


# -- kit.nar: how a run is recorded ------------------------------------------------------------
def _run(outcome="ok", drift=0.0, **slacks):
    return {"outcome": outcome, "reason": "why", "scale": 1.0, "drift": drift, "slacks": slacks,
            **{key: 0.0 for key in nar.DETAIL}}


def _recorded(*runs):
    from proofs_check.engine.contract import Case
    from claim_support import fresh_context
    ctx = fresh_context(thm6_1)
    for r, run in enumerate(runs):
        nar.record_run(ctx, Case("symmetric", 1), run, r)
    return ctx


def test_a_run_outside_the_hypotheses_or_undecided_is_counted_not_recorded():
    ctx = _recorded(_run("anm"), _run("inconclusive"), _run("inconclusive"))
    assert ctx.counts["assumption_not_met"] == 1 and ctx.counts["inconclusive"] == 2
    assert not ctx.worst


def test_a_violated_clause_fails_once_the_direction_settled_and_waits_while_it_moves():
    """Drift above DRIFT_TOL: a clause with slack < 0 (here −0.5) is inconclusive and the
    run's other clauses are still recorded; at DRIFT_TOL itself, or a clause that holds
    (slack 0 or 0.5) while moving, is recorded."""
    moving = thm6_1.DRIFT_TOL * 2
    ctx = _recorded(_run(drift=moving, a=-0.5, b=0.0, c=0.5))
    assert ctx.counts["inconclusive"] == 1 and set(ctx.worst) == {"b", "c"}
    assert ctx.worst["b"].slack == 0.0 and ctx.worst["c"].slack == 0.5
    ctx = _recorded(_run(drift=thm6_1.DRIFT_TOL, a=-0.5))
    assert ctx.worst["a"].slack == -0.5 and ctx.counts["inconclusive"] == 0
    ctx = _recorded(_run(drift=0.0, a=-0.5))
    assert ctx.worst["a"].slack == -0.5


def test_the_radius_clause_at_the_tolerance_itself_and_at_zero():
    """r_end = RADIUS_TOL is judged by the absolute rule (slack exactly 0); r = 0 at the end
    or at T_NAR is floored at 1e-300, never a division by zero."""
    tol, decades = nar.RADIUS_TOL, nar.RADIUS_DECADES
    assert nar.radius_slack(tol, tol) == 0.0
    assert nar.radius_slack(0.0) == float(np.log10(tol / 1e-300))
    assert nar.radius_slack(1e-3, 0.0) == float(np.log10(1e-300 / 1e-3)) - decades


def test_pattern_programs_solve_each_pattern_once_and_answer_as_nar_program(monkeypatch):
    """A case's pattern programs: the same bits as ``nar_program``, one solve per pattern, a
    fresh copy per call, and an infeasible pattern's ValueError on every call."""
    ds = lt.make_symmetric_gaussians(12, 2, rng=5)
    alpha, k = 0.3, 2
    c_w, c_u = np.where(ds.y > 0, 1.0, alpha), np.where(ds.y > 0, alpha, 1.0)
    direct = convex.nar_program(ds.X, ds.y, alpha, c_w, c_u, k=k, v=1.0)
    solves = []
    real = convex.nar_program
    monkeypatch.setattr(convex, "nar_program",
                        lambda *a, **kw: solves.append(a[3]) or real(*a, **kw))
    programs = nar.PatternPrograms(ds.X, ds.y, alpha, k=k, v=1.0)
    first = programs(c_w, c_u)
    first[...] = 0.0  # the caller's copy: the memo keeps its own
    again = programs(list(c_w), c_u)
    np.testing.assert_array_equal(again, direct)
    assert len(solves) == 1
    # every neuron on the positive side of every point, x and −x alike: all outputs are 0
    ones = np.ones(ds.n)
    for _ in range(2):
        with pytest.raises(ValueError, match="infeasible"):
            programs(ones, ones)
    assert len(solves) == 2
