"""Claim ``thm6.2`` (proofs_check/claims/thm6_2.py).

Its verdict, its negative control, and its machinery.
"""
import dataclasses

import numpy as np
import pytest

import linteach as lt
from linteach import convex
from proofs_check.claims import thm6_2
from proofs_check.kit import flow as _flow
from claim_support import passes
from tolerances import CANCELLATION, GRADIENT_FLOOR, OTHER_ROUTE


# -- thm6.2 ------------------------------------------------------------------------------------
def test_thm62_passes_and_catches_its_control(monkeypatch):
    monkeypatch.setattr(thm6_2, "FAMILIES", {"rescaled": thm6_2.FAMILIES["rescaled"]})
    result = passes("thm6.2")
    assert result.verdict == "PASS"
    assert set(result.clauses) == set(thm6_2.CLAIM.clause_names)  # with the engine clause


def test_thm62_wrong_alpha_and_non_par_are_flagged():
    ds = _flow.make_data("rescaled", np.random.default_rng(2), n=16, d=3)
    net = lt.Net(k=3, alpha=0.3)
    rng = np.random.default_rng(4)
    D = lt.gradient_flow(net, net.init(3, scale=1e-2, rng=rng), ds, dt=0.01, n_steps=1200,
                         normalized=True).direction
    assert thm6_2.eq8_slack(D, *convex.solve_eq8(ds.X, ds.y, 0.3))[0] >= 0
    assert thm6_2.eq8_slack(D, *convex.solve_eq8(ds.X, ds.y, thm6_2.WRONG_ALPHA))[0] < 0
    assert thm6_2.par_beta(D, ds.X, ds.y) > 0
    flipped = D.copy()
    flipped[0] = -flipped[0]  # one w neuron now classifies like −w*: not PAR
    assert thm6_2.par_beta(flipped, ds.X, ds.y) < 0


def test_thm62_boundary_slack_explains_only_near_boundary_disagreements():
    net = lt.Net(k=1, alpha=0.3)
    w, u = np.array([1.0, 0.0]), np.array([-1.0, 0.0])
    W = _flow.lifted(w, u, 1)
    X = np.array([[1.0, 0.5], [-1.0, 2.0], [-0.05, 1.0]])
    slack, info = thm6_2.boundary_slack(net, W, w, u, X)
    assert info["disagree_fraction"] == 0 and slack.min() > 0
    tilted = np.array([1.0, 0.1])  # predicted normal off by ~0.1 rad
    slack, info = thm6_2.boundary_slack(net, W, tilted, -tilted, X)
    assert info["disagree_fraction"] > 0 and slack.min() >= 0  # explained by the angle
    slack, info = thm6_2.boundary_slack(net, W, -w, -u, X)  # a flipped prediction
    assert info["disagree_fraction"] == 1 and slack.max() < 0



# -- the statement's constants ---------------------------------------------------------------
def _rotated_pair(w, u, one_minus_cos):
    """``(w', u')`` whose stacked vector makes 1 − cos = ``one_minus_cos`` with ``(w, u)``."""
    a = np.concatenate([w, u])
    a /= np.linalg.norm(a)
    b = np.array([0.0, 0.0, 1.0, -1.0]) - (np.array([0.0, 0.0, 1.0, -1.0]) @ a) * a
    b /= np.linalg.norm(b)
    t = np.arccos(1.0 - one_minus_cos)
    return (np.cos(t) * a + np.sin(t) * b).reshape(2, 2)


def test_the_eq8_clause_holds_exactly_up_to_cos_tol():
    """A direction whose 1 − cos to the lifted Eq. 8 solution is just under COS_TOL holds, just
    over fails (k = 1, so the lifted solution is (w, u) itself)."""
    w, u = np.array([1.0, 0.0]), np.array([0.0, 1.0])
    assert thm6_2.COS_TOL == 1e-3
    for rel, holds in ((1 - 1e-6, True), (1 + 1e-6, False)):
        target = thm6_2.COS_TOL * rel
        slack, gap = thm6_2.eq8_slack(_rotated_pair(w, u, target), w, u)
        np.testing.assert_allclose(gap, target, rtol=CANCELLATION)  # 1 − cos of a rotation
        assert (slack > 0) == holds


# -- the run analysis, number by number -------------------------------------------------------

@pytest.fixture(scope="module")
def analysed():
    """A symmetric-a0.3 case (α = 0.3, v = 1.5) trained for 600 steps, with each run's limit
    summary as ``_analyse`` saw it, and what ``_analyse`` needs to be called again."""
    from linteach import convex as cv
    from proofs_check.engine.contract import Case
    case, spec = Case("symmetric-a0.3", 0), thm6_2.FAMILIES["symmetric-a0.3"]
    net = lt.Net(k=spec["k"], alpha=spec["alpha"], v=spec.get("v", 1.0))
    X, y, W0 = thm6_2.build_case(case, spec)
    pair = _flow.flow_pair(net, W0, X, y, n_steps=600)
    inputs = (cv.assumption4_lp(X, y), cv.solve_eq8(X, y, net.alpha),
              cv.solve_eq8(X, y, thm6_2.WRONG_ALPHA), thm6_2._test_points(case, spec, X.shape[1]))
    outs = [(thm6_2._analyse(net, X, y, *inputs, pair, r, 1.0), _flow.limit_summary(pair, r))
            for r in range(len(W0))]
    return net, X, y, inputs, pair, outs


def _first_ok(outs):
    return next(r for r, (out, _s) in enumerate(outs) if out["outcome"] == "ok")


def test_analyse_reports_each_number_by_its_definition(analysed):
    """Every number of an evaluated run recomputed from the summary and the programs: the
    Assumption 3 bound α·v·√k·max‖x‖ and max γ̃ after T_NAR (the least of run and companion),
    1 − cos to Eq. 8's lifted solution (run, companion, the wrong α's), the clauses' slacks."""
    net, X, y, (a4, eq8, wrong, X_test), pair, outs = analysed
    ok = [(out, s) for out, s in outs if out["outcome"] == "ok"]
    assert ok
    for out, s in ok:
        bound = net.alpha * net.v * np.sqrt(net.k) * float(np.linalg.norm(X, axis=-1).max())
        gt = s["gamma_tilde_after_entry"]
        a3 = min(float(gt.max()), float(s["gamma_tilde_after_entry_half"].max()))
        assert out["a3_bound"] == bound and out["a3"] == a3 and out["a3_ratio"] == a3 / bound
        assert out["a4_slack"] == float(a4.slack.min()) and out["entry_step"] == s["T_NAR_step"]
        lifted = _flow.lifted(*eq8, net.k)
        assert out["one_minus_cos"] == 1.0 - _flow.cosine(s["direction"], lifted)
        assert out["one_minus_cos_half"] == 1.0 - _flow.cosine(s["direction_half"], lifted)
        assert out["wrong_one_minus_cos"] == 1.0 - _flow.cosine(
            s["direction"], _flow.lifted(*wrong, net.k))
        assert out["wrong_slack"] == 1.0 - out["wrong_one_minus_cos"] / thm6_2.COS_TOL
        t = s["entry"] + int(np.argmax(gt > bound)) if gt.max() > bound else -1
        after = pair["main"]["directions"][max(t, s["entry"]):, _index(outs, out)]
        slacks = out["slacks"]
        assert slacks["nar_is_par"] == float(thm6_2.par_beta(after, X, y).min())
        assert slacks["cluster_radius_vanishes"] == thm6_2.radius_slack(s["radius_end"],
                                                                        s["radius_entry"])
        assert slacks["direction_solves_eq8"] == 1.0 - out["one_minus_cos"] / thm6_2.COS_TOL
        assert out["radius"] == s["radius_end"]
        naive, angle, fraction = _boundary_by_definition(net, s["direction"], *eq8, X_test)
        # another route: point by point in Python floats (sin θ − |cos| can cancel, and the
        # angle, near 0 here, comes through arccos near 1)
        np.testing.assert_allclose(slacks["boundary_matches_eq8"], naive, rtol=OTHER_ROUTE,
                                   atol=GRADIENT_FLOOR)
        assert out["angle"] == pytest.approx(angle, rel=OTHER_ROUTE, abs=GRADIENT_FLOOR)
        assert out["disagree_fraction"] == fraction


def _boundary_by_definition(net, D, w, u, X_test):
    """boundary_slack's docstring, point by point: for each test point where sign N_W(x) and
    sign((w − u)·x) differ, max(sin θ − |cos∠(x, w − u)|, 2r/‖w̄ − ū‖ − |cos∠(x, w̄ − ū)|)."""
    k = net.k
    w_bar, u_bar = D[:k].mean(axis=0), D[k:].mean(axis=0)
    a, b = w - u, w_bar - u_bar

    def cos(p, q):
        return float(p @ q) / (float(np.sqrt(p @ p)) * float(np.sqrt(q @ q)))

    theta = float(np.arccos(min(1.0, max(-1.0, cos(a, b)))))
    r = max(float(np.sqrt(((rows - rows.mean(axis=0)) ** 2).sum(axis=1).max()))
            for rows in (D[:k], D[k:]))
    band = 2.0 * r / float(np.sqrt(b @ b))
    out, differ = [], 0
    for x in X_test:
        if np.sign(net.forward(D, x[None])[0]) != np.sign(x @ a):
            differ += 1
            out.append(max(np.sin(theta) - abs(cos(x, a)), band - abs(cos(x, b))))
    return (np.array(out) if out else np.array([1.0])), theta, differ / len(X_test)


def _index(outs, out):
    return next(r for r, (o, _s) in enumerate(outs) if o is out)


@pytest.mark.parametrize("change, outcome, reason", [
    (lambda s, n: dict(s, T_NAR_step=n // 2), "ok", ""),
    (lambda s, n: dict(s, T_NAR_step=n // 2 + 1), "inconclusive", "final NAR only at step"),
    (lambda s, n: dict(s, radius_entry=1e-1, radius_end=1e-4,
                       log_norm_end=s["log_norm_entry"] + np.log(10.0)),
     "inconclusive", "left its NAR")])
def test_a_late_or_left_run_is_inconclusive(monkeypatch, analysed, change, outcome, reason):
    net, X, y, inputs, pair, outs = analysed
    r = _first_ok(outs)
    s = change(outs[r][1], pair["main"]["n_steps"])
    monkeypatch.setattr(_flow, "limit_summary", lambda pair, run: s)
    out = thm6_2._analyse(net, X, y, *inputs, pair, r, 1.0)
    assert out["outcome"] == outcome and reason in out.get("reason", "")


def test_assumption_4_or_3_failing_is_an_unmet_assumption(monkeypatch, analysed):
    """A failed Assumption 4 LP, or max γ̃ after T_NAR at or below α·v·√k·R_x (here the
    bound reached exactly), is ASSUMPTION-NOT-MET with its reason."""
    net, X, y, (a4, eq8, wrong, X_test), pair, outs = analysed
    r = _first_ok(outs)
    failed = dataclasses.replace(a4, holds=False)
    out = thm6_2._analyse(net, X, y, failed, eq8, wrong, X_test, pair, r, 1.0)
    assert out["outcome"] == "anm" and "Assumption 4" in out["reason"]
    s = dict(outs[r][1])
    bound = outs[r][0]["a3_bound"]
    monkeypatch.setattr(_flow, "limit_summary", lambda pair, run: s)
    for top in (bound, bound / 2):
        s["gamma_tilde_after_entry"] = np.minimum(outs[r][1]["gamma_tilde_after_entry"], top)
        out = thm6_2._analyse(net, X, y, a4, eq8, wrong, X_test, pair, r, 1.0)
        assert out["outcome"] == "anm" and "Assumption 3" in out["reason"]


def test_a_run_classified_outside_every_nar_keeps_its_outcome_and_reason(monkeypatch, analysed):
    """Not in an NAR at the end and still moving: inconclusive with classify's reason; the
    cuts for an NAR entered late or left do not apply (a run outside every NAR has no T_NAR
    and no radius there)."""
    net, X, y, inputs, pair, outs = analysed
    r = _first_ok(outs)
    s = {key: value for key, value in outs[r][1].items()
         if key not in ("radius_entry", "log_norm_entry", "log_time_entry")}
    s.update(in_nar=False, drift=1.0, T_NAR_step=pair["main"]["n_steps"])
    monkeypatch.setattr(_flow, "limit_summary", lambda pair, run: s)
    out = thm6_2._analyse(net, X, y, *inputs, pair, r, 1.0)
    assert out["outcome"] == "inconclusive" and "still moving" in out["reason"]


@pytest.mark.parametrize("seed", range(4))
def test_boundary_slack_is_its_definition_on_unclustered_nets(seed):
    """On random nets of radius O(1) the band term 2r/‖w̄ − ū‖ − |cos∠(x, w̄ − ū)| decides
    many points' slack: boundary_slack equals the definition point by point there too."""
    rng = np.random.default_rng(seed)
    net = lt.Net(k=3, alpha=0.3, v=1.5)
    D = rng.standard_normal((6, 4)) * 0.3 + np.repeat(rng.standard_normal((2, 4)), 3, axis=0)
    w, u, X_test = rng.standard_normal(4), rng.standard_normal(4), rng.standard_normal((200, 4))
    slack, info = thm6_2.boundary_slack(net, D, w, u, X_test)
    naive, angle, fraction = _boundary_by_definition(net, D, w, u, X_test)
    np.testing.assert_allclose(slack, naive, rtol=OTHER_ROUTE, atol=GRADIENT_FLOOR)
    assert info["angle"] == pytest.approx(angle, rel=OTHER_ROUTE, abs=GRADIENT_FLOOR)
    assert info["disagree_fraction"] == fraction


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_boundary_slack_of_parallel_normals_whose_cosine_rounds_past_one(sign):
    """w̄ − ū = ±3(w − u) exactly, for a w − u whose computed cosine is 1 + ε or −1 − ε:
    the angle is 0 or π, never NaN."""
    rng = np.random.default_rng(0)
    a = next(a for a in (rng.standard_normal(5) for _ in range(1000))
             if abs(_flow.cosine(a, sign * 3 * a)) > 1.0)
    net = lt.Net(k=2, alpha=0.3)
    D = _flow.lifted(sign * 3 * a, np.zeros(5), 2)
    _slack, info = thm6_2.boundary_slack(net, D, a, np.zeros(5), rng.standard_normal((20, 5)))
    assert info["angle"] == (0.0 if sign > 0 else np.pi)


def test_without_assumption_3_the_par_clause_reads_every_record_from_t_nar(monkeypatch,
                                                                           analysed):
    """γ̃ never exceeds the bound (an unmet Assumption 3, whose conclusions are still
    measured): the PAR clause then runs over every record from T_NAR on, here from record 0."""
    net, X, y, inputs, pair, outs = analysed
    r = _first_ok(outs)
    s = dict(outs[r][1], entry=0)
    s["gamma_tilde_after_entry"] = np.minimum(s["gamma_tilde_after_entry"],
                                              outs[r][0]["a3_bound"] / 2)
    monkeypatch.setattr(_flow, "limit_summary", lambda pair, run: s)
    out = thm6_2._analyse(net, X, y, *inputs, pair, r, 1.0)
    assert out["outcome"] == "anm"
    every = float(thm6_2.par_beta(pair["main"]["directions"][:, r], X, y).min())
    assert out["slacks"]["nar_is_par"] == every
    later = float(thm6_2.par_beta(pair["main"]["directions"][1:, r], X, y).min())
    assert later != every  # the first record's β is the run's least: reading it matters
