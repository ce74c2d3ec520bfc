"""Claim ``eq6`` (proofs_check/claims/eq6.py).

Its verdict, its negative control, and its machinery.
"""

import numpy as np

import linteach as lt
from proofs_check.claims import eq6
from claim_support import passes


# -- eq6 ---------------------------------------------------------------------------------------
def test_eq6_passes_and_catches_its_controls(monkeypatch):
    monkeypatch.setattr(eq6, "FAMILIES", {"separable": eq6.FAMILIES["separable"]})
    result = passes("eq6")
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


# -- the statement's constants ---------------------------------------------------------------
def test_the_bound_clause_allows_exactly_bound_round_of_relative_excess():
    """γ̃ above γ̄ by just under BOUND_ROUND·|γ̄| holds (rounding), by just over it fails."""
    for gamma_bar in (0.3, -0.3, 1e-200, 1e200):
        over = lambda rel: gamma_bar + rel * abs(gamma_bar)  # noqa: E731
        assert eq6.bound_slack(over(eq6.BOUND_ROUND * 0.5), gamma_bar) > 0
        assert eq6.bound_slack(over(eq6.BOUND_ROUND * 2.0), gamma_bar) < 0


def test_the_rate_and_shrink_clauses_sit_at_their_named_constants():
    assert eq6.rate_slack(-0.5 * eq6.RATE_ROUND) > 0 > eq6.rate_slack(-2.0 * eq6.RATE_ROUND)
    drop = 1e-3
    allowed = eq6.SHRINK * drop + eq6.DROP_FLOOR
    assert eq6.shrink_slack(drop, allowed * (1 - 1e-9)) > 0
    assert eq6.shrink_slack(drop, allowed * (1 + 1e-9)) < 0
