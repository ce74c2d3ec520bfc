"""The logistic loss in log space: finite at extreme margins, consistent with the naive forms."""
import numpy as np
import pytest
from hypothesis import given, strategies as st

from linteach import loss
from tolerances import (CANCELLATION, IDENTITY, OTHER_ROUTE, REFERENCE, SUBNORMAL_FLOOR, SUM_FLOOR,
                        ULPS)

margins = st.floats(-50.0, 50.0)  # where the naive formulas are still exact enough to compare


@given(q=margins)
def test_ell_and_g_match_naive_forms(q):
    np.testing.assert_allclose(loss.ell(q), np.log1p(np.exp(-q)), rtol=IDENTITY)
    np.testing.assert_allclose(loss.g(q), 1.0 / (1.0 + np.exp(q)), rtol=IDENTITY)
    # g = −ℓ' = 1 − e^{−ℓ}
    np.testing.assert_allclose(loss.g(q), -np.expm1(-loss.ell(q)), rtol=CANCELLATION,
                               atol=SUBNORMAL_FLOOR)


@given(q=margins)
def test_log_ell_and_log_g_match_logs(q):
    np.testing.assert_allclose(loss.log_ell(q), np.log(loss.ell(q)), rtol=IDENTITY)
    # compare in the linear domain: log(g) of a g near 1 has no relative precision left
    np.testing.assert_allclose(np.exp(loss.log_g(q)), loss.g(q), rtol=IDENTITY)


@given(q=st.floats(29.0, 40.0))
def test_log_ell_series_branch_is_seamless(q):
    exact = np.log(np.log1p(np.exp(-q)))  # still exact this close to the switch at 30
    np.testing.assert_allclose(loss.log_ell(q), exact, rtol=REFERENCE)


def test_finite_for_margins_of_ten_thousand():
    q = np.array([-1e4, -800.0, 0.0, 800.0, 1e4])
    for f in (loss.ell, loss.g, loss.log_ell, loss.log_g):
        assert np.all(~np.isnan(f(q)))
    assert np.all(np.isfinite(loss.log_ell(q))) and np.all(np.isfinite(loss.log_g(q)))
    np.testing.assert_allclose(loss.log_ell(1e4), -1e4, rtol=ULPS)
    np.testing.assert_allclose(loss.ell(-1e4), 1e4, rtol=ULPS)
    assert np.isfinite(loss.log_sum_loss(q))


@given(st.lists(margins, min_size=1, max_size=8))
def test_mean_and_log_sum_agree(qs):
    q = np.array(qs)
    np.testing.assert_allclose(np.exp(loss.log_sum_loss(q)), len(q) * loss.mean_loss(q),
                               rtol=IDENTITY)


@given(log_x=st.floats(-700.0, 5.0))
def test_log_expm1_exp(log_x):
    x = np.exp(log_x)
    np.testing.assert_allclose(loss.log_expm1_exp(log_x), np.log(np.expm1(x)), rtol=IDENTITY)


@given(q_hat=st.lists(st.floats(-2.0, 2.0), min_size=1, max_size=6),
       log_norm=st.floats(-5.0, 5.0))
def test_scaled_terms_equal_direct_terms_at_moderate_norm(q_hat, log_norm):
    q_hat = np.array(q_hat)
    lead, rest, log_w = loss.scaled_loss_terms(q_hat, np.float64(log_norm))
    q = q_hat * np.exp(log_norm)
    np.testing.assert_allclose(rest - np.exp(log_norm) * lead, loss.log_sum_loss(q),
                               rtol=IDENTITY, atol=SUM_FLOOR)
    np.testing.assert_allclose(np.exp(log_w), loss.g(q) / np.exp(loss.log_sum_loss(q)),
                               rtol=OTHER_ROUTE)


@pytest.mark.parametrize("log_norm", [3.0, 3.5, 50.0, 599.0, 601.0, 5000.0])
def test_scaled_terms_exact_at_every_scale(log_norm):
    """A tie at the minimum shares the weight, at every norm (before and past float64)."""
    q_hat = np.array([0.5, 0.5, 0.9])
    lead, rest, log_w = loss.scaled_loss_terms(q_hat, np.float64(log_norm))
    if log_norm < 10:  # the naive formulas are exact here
        q = q_hat * np.exp(log_norm)
        expected = loss.g(q) / loss.ell(q).sum()
    else:  # e^{-‖W‖·0.4} is below every float: the two tied points share all the weight
        expected = [0.5, 0.5, 0.0]
    np.testing.assert_allclose(np.exp(log_w), expected, rtol=CANCELLATION, atol=SUBNORMAL_FLOOR)
    if log_norm >= 50:
        gamma = loss.smoothed_margin_scaled(lead, rest, np.float64(log_norm))
        np.testing.assert_allclose(gamma, 0.5, rtol=IDENTITY)


#: γ̃ = γ̄ − O(e^{-‖W‖γ̄}/‖W‖): at large norms they agree to the last bits of a double
ULP_SLACK = 4 * np.finfo(float).eps


@pytest.mark.parametrize("log_norm", [3.0, 10.0, 100.0, 1000.0])
def test_smoothed_margin_below_normalized_margin_when_loss_small(log_norm):
    q_hat = np.array([0.3, 0.5, 1.0])
    lead, rest, _ = loss.scaled_loss_terms(q_hat, np.float64(log_norm))
    gamma_tilde = loss.smoothed_margin_scaled(lead, rest, np.float64(log_norm))
    assert gamma_tilde <= 0.3 * (1 + ULP_SLACK)
    assert gamma_tilde >= 0.3 - 3 * np.exp(-log_norm) - ULP_SLACK  # and not far below it


def test_unchecked_loss_terms_equal_the_checked_ones_bit_for_bit(rng):
    """``checked=False`` (the trainers' loop) skips the argument checks and nothing else:
    near, far and mixed batches of runs, tiny and huge ‖W‖."""
    q_hat = rng.normal(size=(6, 9))
    q_hat[1] = np.abs(q_hat[1]) + 0.1  # a run that turns far at a large norm
    q_hat[2, 0] = 0.0  # a margin exactly at the kink
    for log_norm in (np.full(6, -3.0), np.full(6, 4.0), np.linspace(-700, 800, 6)):
        want = loss.scaled_loss_terms(q_hat, log_norm)
        got = loss.scaled_loss_terms(q_hat, log_norm, checked=False)
        for a, b in zip(want, got):
            assert np.array_equal(a.view(np.uint64), np.asarray(b).view(np.uint64))
        lsl = [loss.log_sum_loss_scaled(*want[:2], log_norm, checked=c) for c in (True, False)]
        assert np.array_equal(lsl[0].view(np.uint64), lsl[1].view(np.uint64))


def test_log_ell_without_far_margins_equals_the_mixed_evaluation(rng):
    """An array with no margin past the series switch takes a shortcut; each value equals
    the one the mixed (selecting) evaluation gives it, bit for bit."""
    near = rng.uniform(-40.0, 30.0, size=50)
    mixed = np.concatenate([near, [31.0, 500.0]])  # two far margins: the selecting path
    assert np.array_equal(loss.log_ell(near).view(np.uint64),
                          loss.log_ell(mixed)[:50].view(np.uint64))
    assert loss.log_ell(5.0) == loss.log_ell(np.array([5.0, 40.0]))[0]  # a float input too
