"""Tests written to kill mutants of the core numerics that survived ``make mutate``
(docs/mutation.md): the loss, the network, the trainers.

Each test pins one documented behaviour that no other test or claim check distinguished
from a small mutation of it.  (The verdict logic's kill tests are in test_mutation_kills.py.)
"""
import mpmath
import numpy as np
import pytest

from linteach import loss


def _log_ell_exact(q: float) -> float:
    with mpmath.workdps(50):
        return float(mpmath.log(mpmath.log1p(mpmath.exp(-mpmath.mpf(q)))))


# -- linteach.loss (survivors of the loss-core campaign) ----------------------------------------
def test_log_ell_is_correctly_rounded_on_both_sides_of_the_series_switch():
    """``log ℓ`` is documented exact to double precision past the switch at q = 30 (the
    series −q − e^{−q}/2); a wrong sign of its e^{−q}/2 term is 10–24 ulps off here, far
    inside every tolerance of the claims."""
    q = np.concatenate([np.linspace(29.0, 31.0, 81), [30.0, np.nextafter(30.0, 31.0)]])
    exact = np.array([_log_ell_exact(float(x)) for x in q])
    ulps = np.abs(loss.log_ell(q) - exact) / np.spacing(np.abs(exact))
    assert ulps.max() <= 1.0


def test_mean_loss_reduces_over_the_last_axis_of_stacked_runs(rng):
    q = rng.standard_normal((3, 5)) * 4.0
    stacked = loss.mean_loss(q)
    assert stacked.shape == (3,)
    for i in range(3):
        np.testing.assert_allclose(stacked[i], loss.mean_loss(q[i]), rtol=1e-15)


def test_mean_loss_of_a_scalar_is_refused_naming_q_and_the_rule():
    with pytest.raises(ValueError, match=r"`q` must have at least 1 axis"):
        loss.mean_loss(0.5)
