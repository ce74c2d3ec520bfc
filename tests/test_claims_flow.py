"""Checks eq6, thm6.1, thm6.2, lem6.1, appJ, appK: verdicts, controls, planted violations.

Tiny budgets: ``cases=1`` at the quick budget (60% of the steps) and, where a check trains
long flows, fewer families (monkeypatched; the clause logic is unchanged).
"""
import numpy as np
import pytest

import linteach as lt
from linteach import convex
from proofs_check.claims import appJ, eq6, lem6_1, thm6_1, thm6_2
from proofs_check.engine.runner import run_one
from proofs_check.kit import flow as _flow
from proofs_check.kit import geometry, linear_regime, nar


def _passes(claim_id):
    result = run_one(claim_id, seed=0, budget="quick", cases=1)
    assert result.error is None, result.error
    assert result.negative_control_caught is True, result.negative_control
    return result


# -- eq6 ---------------------------------------------------------------------------------------
def test_eq6_passes_and_catches_its_controls(monkeypatch):
    monkeypatch.setattr(eq6, "FAMILIES", {"separable": eq6.FAMILIES["separable"]})
    result = _passes("eq6")
    assert result.verdict == "PASS"
    assert result.negative_control["mean-loss"]["violations"] > 0
    assert result.negative_control["step-too-large"]["violations"] > 0


def test_eq6_clause_functions_flag_planted_violations():
    assert eq6.bound_slack(1.01, 1.0) < 0 <= eq6.bound_slack(1.0, 1.0)
    assert eq6.rate_slack(-1e-6) < 0 <= eq6.rate_slack(0.0)
    assert eq6.shrink_slack(0.1, 0.09) < 0 <= eq6.shrink_slack(0.1, 0.05)
    assert eq6.shrink_slack(0.0, 0.0) > 0
    assert eq6.shrink_slack(np.inf, np.inf) < 0 <= eq6.shrink_slack(np.inf, 0.2)


def test_eq6_mean_loss_smoothed_margin_exceeds_the_normalized_margin():
    rng = np.random.default_rng(0)
    ds = lt.make_symmetric_gaussians(20, 3, rng=rng)
    net = lt.Net(k=3, alpha=0.3)
    W = lt.gradient_flow(net, net.init(3, scale=0.5, rng=rng), ds, dt=0.01, n_steps=200,
                         normalized=True).W
    q = net.margins(W, ds.X, ds.y)
    log_lsum, log_norm = lt.loss.log_sum_loss(q), np.log(np.linalg.norm(W))
    assert log_lsum < np.log(np.log(2.0))
    gamma_bar = q.min() / np.linalg.norm(W)
    assert eq6.bound_slack(lt.smoothed_margin(net, W, ds.X, ds.y), gamma_bar) >= 0
    assert eq6.bound_slack(eq6.mean_loss_gamma(log_lsum, log_norm, ds.n), gamma_bar) < 0


# -- thm6.1 ------------------------------------------------------------------------------------
def test_thm61_passes_and_catches_its_control(monkeypatch):
    monkeypatch.setattr(thm6_1, "FAMILIES", {"symmetric": thm6_1.FAMILIES["symmetric"]})
    result = _passes("thm6.1")
    assert result.verdict == "PASS"
    assert set(result.clauses) == set(thm6_1.CLAUSES)


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


# -- thm6.2 ------------------------------------------------------------------------------------
def test_thm62_passes_and_catches_its_control(monkeypatch):
    monkeypatch.setattr(thm6_2, "FAMILIES", {"rescaled": thm6_2.FAMILIES["rescaled"]})
    result = _passes("thm6.2")
    assert result.verdict == "PASS"
    assert set(result.clauses) == set(thm6_2.CLAUSES)


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


# -- lem6.1 ------------------------------------------------------------------------------------
def test_lem61_passes_and_catches_its_control():
    assert _passes("lem6.1").verdict == "PASS"


def test_lem61_asymmetric_set_fails_with_a_verified_witness():
    X, y = lem6_1._asymmetric(np.random.default_rng(0), "rotated")
    res = convex.assumption4_lp(geometry.unit_rows(X), y)
    assert lem6_1.antipodal_slack(res) < 0
    assert lem6_1.witness_holds(res, geometry.unit_rows(X), y)


@pytest.mark.parametrize("family", list(lem6_1.FAMILIES))
def test_lem61_antipodal_families_are_antipodal(family):
    X, y = lem6_1.antipodal_set(np.random.default_rng(1), family)
    m = len(y) // 2
    np.testing.assert_array_equal(X[m:], -X[:m])
    np.testing.assert_array_equal(y[m:], -y[:m])
    assert set(np.unique(y)) == {-1.0, 1.0}


# -- appJ --------------------------------------------------------------------------------------
def test_appj_runs_and_catches_its_control():
    result = _passes("appJ")
    # an existence claim: PASS with witnesses, INCONCLUSIVE if none appeared at this budget
    assert result.verdict in ("PASS", "INCONCLUSIVE")
    if result.verdict == "PASS":
        assert result.measurements["outcomes"]["witnesses"] > 0


def test_appj_witness_clauses_flag_planted_violations():
    witness = {"gamma_bar": 0.3, "beta_end": 0.02, "max_n_diff": 0, "par_w": 1.0, "par_u": 0.0,
               "a4_slack": -1.0, "a3": 1.0, "a3_bound": 2.0}
    assert all(s >= 0 for s in appJ.witness_slacks(witness, 4).values())
    bad = {"not_par": dict(witness, par_u=1.0), "neurons_agree": dict(witness, max_n_diff=1),
           "train_accuracy_100": dict(witness, gamma_bar=-0.1),
           "thm6_2_not_applicable": dict(witness, a4_slack=0.5, a3=3.0)}
    for clause, run in bad.items():
        assert appJ.witness_slacks(run, 4)[clause] < 0, clause


# -- appK --------------------------------------------------------------------------------------
def test_appk_passes_and_catches_its_controls():
    assert _passes("appK").verdict == "PASS"


def test_appk_points_are_lifted():
    from proofs_check.claims import appK, thm5_1

    rng = np.random.default_rng(0)
    _net, W = linear_regime.draw_net(rng, dict(thm5_1.FAMILIES["random"], d=(4, 4)))
    X = appK.lifted_points(rng, W)
    np.testing.assert_array_equal(X[:, -1], 1.0)
    assert len(X) > appK.POINTS[0]  # band points were kept, not only uniform ones
