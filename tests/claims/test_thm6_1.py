"""Claim ``thm6.1`` (proofs_check/claims/thm6_1.py).

Its verdict, its negative control, and its machinery.
"""

import numpy as np

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
