"""Claim ``min2024`` (proofs_check/claims/min2024.py): the per-step increment bound, PAR entry
and the flipped-label control."""
import numpy as np
import pytest

from proofs_check.claims import min2024
from proofs_check.engine.contract import Case
from proofs_check.kit import followup
from claim_support import passes
from tolerances import EXACT_BOUND_SLACK


def test_min2024_passes_and_catches_its_control():
    result = passes("min2024")
    assert result.verdict == "PASS"
    assert set(result.clauses) == set(min2024.CLAIM.clause_names)  # with any engine clause


@pytest.mark.parametrize("angle", [0.1, 0.35, 0.7])
def test_mu_separated_data_reach_the_stated_mu(angle, rng):
    X, y = followup.mu_separated(rng, 30, 4, angle=angle)
    assert followup.mu_of(X, y) >= np.cos(2 * angle) - EXACT_BOUND_SLACK


def test_flipped_label_breaks_the_increment_bound_and_mu():
    spec = dict(min2024.CONTROL["flipped"])
    res = min2024.run_family(([Case("flipped", 5)], spec))[0]
    assert res["mu"] < 0 and res["increment"] < 0
    ok = min2024.run_family(([Case("ok", 5)], dict(spec, flip=False)))[0]
    assert ok["mu"] > 0 and ok["increment"] >= 0 and ok["margins"] >= 0
    assert np.all(ok["t_par"] <= ok["t_bound"])


def test_increment_slack_is_evaluated_at_the_derived_bound(rng):
    import linteach as lt

    net = lt.Net(**min2024.NET)
    X, y = followup.mu_separated(rng, 6, 3, angle=0.3)
    mu, norms = followup.mu_of(X, y), np.linalg.norm(X, axis=-1)
    g_min = np.full((3, 1), 0.5)
    step = min2024.ETA * net.v * net.alpha * mu * norms.mean() * norms * 0.5  # the bound
    for factor, holds in ((1.0, True), (1.5, True), (0.99, False)):
        P = np.cumsum(np.broadcast_to(factor * step, (3, 1, 2 * net.k, 6)), axis=0)
        assert (min2024.increment_slack(P, X, y, g_min, net, mu) >= 0) == holds


def test_increment_slack_is_the_smallest_increment_over_its_bound(rng):
    """Per step, run, row and point, P's increment over ETA·v·α·|μ|·mean‖x‖·‖x_j‖·ḡ_t at the
    step's start; the slack is the smallest such ratio − 1 (+ the rounding allowance)."""
    import linteach as lt

    net = lt.Net(**min2024.NET, v=0.7)  # the claim's v is 1: the bound's factor v is not seen
    X = rng.standard_normal((5, 3)) * np.arange(1.0, 6.0)[:, None]  # unequal norms
    y = np.ones(5)
    norms, mu = np.linalg.norm(X, axis=-1), -0.4  # a flipped label makes μ negative
    T, R = 4, 2
    g_min = rng.uniform(0.2, 1.0, (T, R))  # ḡ changes along the run
    factor = rng.uniform(1.5, 3.0, (T - 1, R, 2 * net.k, 5))
    factor[1, 1, 3, 2] = 1.25  # the smallest ratio, at a later step of the second run
    bound = min2024.ETA * net.v * net.alpha * abs(mu) * norms.mean() * norms
    steps = factor * bound * g_min[:-1, :, None, None]
    P = np.concatenate([np.zeros((1, R, 2 * net.k, 5)), np.cumsum(steps, axis=0)])
    assert min2024.increment_slack(P, X, y, g_min, net, mu) == pytest.approx(
        0.25 + min2024.INCREMENT_TOL)
