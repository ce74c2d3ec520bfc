"""Claim ``odd-part`` (proofs_check/claims/odd_part.py): the identity, its exact form, its
antipodal-data consequence, and the two controls."""
import numpy as np
import pytest

import linteach as lt
from linteach import convex
from proofs_check.claims import odd_part
from proofs_check.engine.contract import Case
from proofs_check.kit import followup
from claim_support import passes
from tolerances import IDENTITY


def test_odd_part_passes_and_catches_its_controls():
    result = passes("odd-part")
    assert result.verdict == "PASS"
    assert set(result.clauses) == set(odd_part.CLAIM.clause_names)  # with any engine clause
    assert result.clauses["identity_exact"]["evidence"] == "proved"
    assert set(result.negative_control["violations"]) == {"bias", "half"}


@pytest.mark.parametrize("draw", range(5))  # five independent draws: the seed follows the node id
def test_exact_case_holds_in_rationals_and_both_mutants_fail(draw, rng_seed):
    # one case for all three: each mutant fails where the true identity holds
    assert odd_part.exact_case(np.random.default_rng(rng_seed))["exact"]
    assert not odd_part.exact_case(np.random.default_rng(rng_seed), "bias")["exact"]
    assert not odd_part.exact_case(np.random.default_rng(rng_seed), "half")["exact"]


def test_the_constant_is_v_k_one_plus_alpha_for_every_slope_including_relu(rng):
    for alpha in (0.0, 0.3, 0.9):
        net = lt.Net(k=3, alpha=alpha, v=0.7)
        W, X = rng.standard_normal((4, 6, 5)), rng.standard_normal((9, 5))
        res, scale = followup.odd_residual(net, W, X)
        assert odd_part.identity_slack(res, scale) >= 0
        res_half, _ = odd_part._residual(net, W, X, "half")
        assert odd_part.identity_slack(res_half, scale) < 0


def test_identity_slack_is_evaluated_at_the_rounding_tolerance(monkeypatch):
    scale = np.array([2.0, 4.0])
    assert odd_part.identity_slack(0.5 * odd_part.ROUNDING_TOL * scale, scale) > 0
    assert odd_part.identity_slack(2.0 * odd_part.ROUNDING_TOL * scale, scale) < 0
    # a tolerance below the rounding the identity actually has makes trained nets fail
    monkeypatch.setattr(odd_part, "ROUNDING_TOL", 1e-30)
    res = odd_part.evaluate(([Case("trained", 3)], "trained", None))[0]
    assert res["float_slack"] < 0


def test_margin_bound_is_attained_by_the_lifted_svm_and_can_be_broken_off_symmetry(rng):
    X, y = followup.antipodal(rng, 20, 3)
    net = lt.Net(k=4, alpha=0.3)
    w = convex.svm_no_bias(X, y)
    bound = followup.lifted_svm_margin(net, w)
    lifted = np.concatenate([np.tile(w, (4, 1)), np.tile(-w, (4, 1))])
    np.testing.assert_allclose(lt.normalized_margin(net, lifted, X, y), bound, rtol=IDENTITY)
    assert odd_part.margin_slack(lt.normalized_margin(net, lifted, X, y), bound) >= 0
    W = net.init(3, scale=1.0, rng=rng, batch=50)
    assert odd_part.margin_slack(lt.normalized_margin(net, W, X, y), bound) > 0
    assert odd_part.margin_slack(np.array([bound * (1 + 1e-6)]), bound) < 0


def test_identity_and_margin_slacks_are_their_measurements_over_the_tolerances():
    tol, scale = odd_part.ROUNDING_TOL, np.array([2.0, 4.0, 8.0])
    # the largest residual relative to its own scale binds, not the largest residual
    res = np.array([0.25, 1.0, 1.0]) * tol * scale * np.array([1.0, 0.5, 0.25])
    assert odd_part.identity_slack(res, scale) == pytest.approx(0.5)
    assert odd_part.identity_slack(np.zeros(3), np.zeros(3)) == 1.0  # zero scale, zero residual
    bound = 0.4
    assert odd_part.margin_slack(np.array([0.1, 0.2]), bound) == pytest.approx(
        0.5 + odd_part.MARGIN_TOL)
    assert odd_part.margin_slack(np.array([bound]), bound) == pytest.approx(odd_part.MARGIN_TOL)
