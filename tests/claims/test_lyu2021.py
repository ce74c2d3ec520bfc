"""Claim ``lyu2021`` (proofs_check/claims/lyu2021.py): the global-max-margin bound on antipodal
data, its failure without symmetry, and the step-halving clause."""
import numpy as np
import pytest

import linteach as lt
from linteach import convex
from proofs_check.claims import lyu2021
from proofs_check.kit import followup
from claim_support import passes


@pytest.mark.slow
@pytest.mark.claim_rerun
def test_lyu2021_passes_and_catches_its_controls():
    result = passes("lyu2021")
    assert result.verdict == "PASS"
    assert set(result.clauses) == set(lyu2021.CLAIM.clause_names)  # with any engine clause
    assert result.negative_control["manipulated_violations"] > 0


@pytest.mark.slow
def test_lyu2021_evaluates_at_its_margin_tolerance(monkeypatch):
    from proofs_check.engine.runner import run_one

    monkeypatch.setattr(lyu2021, "FAMILIES", {"n8-d2": lyu2021.FAMILIES["n8-d2"]})
    monkeypatch.setattr(lyu2021, "MARGIN_TOL", 0.0)  # no run reaches γ̄* exactly at finite time
    result = run_one("lyu2021", seed=0, budget="quick", cases=1)
    assert result.clauses["limit_reaches_global_max"]["violations"] > 0


@pytest.mark.parametrize("alpha, beaten", [(0.0, True), (0.3, True), (0.5, False)])
def test_two_point_control_beats_the_bound_exactly_when_alpha_below_sqrt2_minus_1(alpha,
                                                                                   beaten):
    g, bound = lyu2021.two_point_control(alpha=alpha)
    np.testing.assert_allclose(g, 1 / np.sqrt(2))
    np.testing.assert_allclose(bound, (1 + alpha) / 2)
    assert (g > bound) == beaten


def test_gap_slack_needs_the_halved_turn_to_shrink_the_gap():
    assert lyu2021.gap_slack(0.01, 0.005) > 0
    assert lyu2021.gap_slack(0.01, 0.0095) < 0
    assert lyu2021.gap_slack(0.0, 0.0) == 1.0


def test_no_net_beats_the_lifted_svm_on_antipodal_data():
    rng = np.random.default_rng(4)
    X, y = followup.antipodal(rng, 16, 2)
    net = lt.Net(k=3, alpha=0.2)
    bound = followup.lifted_svm_margin(net, convex.svm_no_bias(X, y))
    W = net.init(2, scale=1.0, rng=rng, batch=200)
    run = lt.gradient_flow(net, W[:8] * 1e-2, (X, y), dt=0.01, n_steps=400, normalized=True)
    gam = np.concatenate([lt.normalized_margin(net, W, X, y),
                          lt.normalized_margin(net, run.direction, X, y)])
    assert gam.max() <= bound * (1 + lyu2021.BOUND_TOL)


def test_gap_slack_is_the_shrink_factor_over_halving():
    for ratio in (0.25, 0.5, 0.8, 1.0):
        assert lyu2021.gap_slack(0.02, ratio * 0.02) == pytest.approx(1 - ratio / lyu2021.HALVING)
    # no shortfall from γ̄* to shrink (the runs reached it, or passed it by rounding): holds
    assert lyu2021.gap_slack(0.0, 0.01) == 1.0
    assert lyu2021.gap_slack(-1e-9, -2e-9) == 1.0
