"""linteach.bounds: Theorem 4.1's constants (docs/math.md §3) and the proof's potentials."""
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import linteach as lt
from linteach.bounds import (invariant_bounds, potential_F, potential_G, sgd_update_bound,
                             teacher_weights)
from linteach.strategies import separable_datasets
from tolerances import CANCELLATION, EXACT_BOUND_SLACK, EXPONENT, IDENTITY, STEP_ROUNDING

KW = dict(R_x=1.0, R_0=1e-3, alpha=0.3, k=5, eta=0.1, v=1.0, w_star_norm=10.0)


def test_constants_match_equations_by_hand():
    n, eps = 40, 0.1
    A = 1 + 2 * 5 * 0.1 * 1.0 * 1.0 * n
    eps0 = eps / A
    a = 2 * 5 * 0.1 * 1.0 * 0.3 * (1 - math.exp(-eps0)) / n
    b = 10.0 * math.sqrt(4 * 25 * 0.01 * 1.0 + 4 * 5 * 0.1)
    c = 4 * 5 * 1e-3 * 10.0
    T = ((b + math.sqrt(b * b + 4 * a * c)) / (2 * a)) ** 2
    F = (eps + A) / eps
    P = n * 10.0 * math.sqrt(1 / 0.09 + 1 / (5 * 0.1 * 0.09))
    S = 2 * n * 1e-3 * 10.0 / (0.1 * 0.3)
    M = P**2 * F**2 + P * math.sqrt(S) * F**1.5 + S * F
    bd = sgd_update_bound(n, eps, **KW)
    np.testing.assert_allclose([bd.eps0, bd.a, bd.b, bd.c, bd.T_exact, bd.M],
                               [eps0, a, b, c, T, M], rtol=IDENTITY)


@given(n=st.integers(1, 10_000), eps=st.floats(1e-6, 5.0), R_x=st.floats(1e-3, 1e3),
       R_0=st.floats(0.0, 1e3), alpha=st.floats(1e-3, 0.999), k=st.integers(1, 500),
       eta=st.floats(1e-4, 10.0), v=st.floats(1e-2, 1e2), w=st.floats(1e-2, 1e4))
def test_T_exact_is_the_parabola_root_and_M_bounds_it(n, eps, R_x, R_0, alpha, k, eta, v, w):
    # a subnormal R_0 included: c = 4kR_0‖w*‖ then leaves float64's normal range, and the
    # bound is continuous there (c enters T_exact and M through its logarithm only)
    bd = sgd_update_bound(n, eps, R_x=R_x, R_0=R_0, alpha=alpha, k=k, eta=eta, v=v,
                          w_star_norm=w)
    root = math.sqrt(bd.T_exact)
    np.testing.assert_allclose(bd.a * root**2, bd.b * root + bd.c, rtol=CANCELLATION)
    assert bd.M >= bd.T_exact * (1 - EXACT_BOUND_SLACK)


def test_M_grows_like_n4_over_eps2_asymptotically():
    small = sgd_update_bound(10**4, 1e-4, **KW).M
    doubled_n = sgd_update_bound(2 * 10**4, 1e-4, **KW).M
    halved_eps = sgd_update_bound(10**4, 0.5e-4, **KW).M
    assert math.log(doubled_n / small, 2) == pytest.approx(4, abs=EXPONENT)
    assert math.log(halved_eps / small, 2) == pytest.approx(2, abs=EXPONENT)


@pytest.mark.parametrize("change, exc, message", [
    (dict(n=0), ValueError, "`n` must be >= 1"),
    (dict(eps=0.0), ValueError, "`eps` must be > 0"),
    (dict(R_x=-1.0), ValueError, "`R_x` must be > 0"),
    (dict(R_0=-1.0), ValueError, "`R_0` must be >= 0"),
    (dict(alpha=0.0), ValueError, "`alpha` must be > 0 for Theorem 4.1"),
    (dict(alpha=1.0), ValueError, "`alpha` must be < 1"),
    (dict(k=1.5), TypeError, "`k` must be an integer"),
    (dict(eta=float("nan")), ValueError, "`eta` must be finite"),
    (dict(v="1"), TypeError, "`v` must be a real number"),
    (dict(w_star_norm=0.0), ValueError, "`w_star_norm` must be > 0"),
])
def test_bad_input_is_named(change, exc, message):
    args = dict(n=10, eps=0.1, **KW)
    args.update(change)
    n, eps = args.pop("n"), args.pop("eps")
    with pytest.raises(exc, match=message):
        sgd_update_bound(n, eps, **args)


def test_potentials():
    w_star = np.array([1.0, -2.0])
    Ws = teacher_weights(w_star, 3)
    assert Ws.shape == (6, 2)
    np.testing.assert_array_equal(Ws[:3], np.tile(w_star, (3, 1)))
    np.testing.assert_array_equal(Ws[3:], -np.tile(w_star, (3, 1)))
    assert np.linalg.norm(Ws) == pytest.approx(math.sqrt(6) * np.linalg.norm(w_star))
    W = np.arange(12.0).reshape(6, 2)
    assert potential_F(W, w_star) == pytest.approx(np.sum(W * Ws))
    assert potential_G(W) == pytest.approx(np.linalg.norm(W))
    batch = np.stack([W, 2 * W])
    np.testing.assert_allclose(potential_F(batch, w_star), [np.sum(W * Ws), 2 * np.sum(W * Ws)])
    with pytest.raises(ValueError, match="2k"):
        potential_F(np.zeros((3, 2)), w_star)


@given(separable_datasets(n=(2, 15), d=(1, 4)), st.integers(1, 4), st.floats(0.05, 0.95),
       st.floats(0.2, 3.0), st.floats(0.01, 2.0), st.floats(1e-3, 3.0), st.integers(0, 2**32 - 1))
def test_one_sgd_step_keeps_both_invariants(ds, k, alpha, v, eta, scale, seed):
    # one update of Eq. 3 from a random W on a random example: the proof's two inequalities
    rng = np.random.default_rng(seed)
    net = lt.Net(k=k, alpha=alpha, v=v)
    W0 = net.init(ds.d, scale=scale, rng=rng)
    i = int(rng.integers(ds.n))
    x, y = ds.X[i:i + 1], ds.y[i:i + 1]
    W1 = lt.sgd(net, W0, (x, y), eta=eta, n_epochs=1, rng=rng).W
    g = lt.loss.g(net.margins(W0, x, y))[0]
    F_min, G2_max = invariant_bounds(g, k=k, eta=eta, v=v, alpha=alpha, R_x=ds.R_x)
    slack = STEP_ROUNDING * (1 + np.abs(W0).sum() * np.abs(ds.w_star).sum())  # float rounding only
    assert potential_F(W1, ds.w_star) - potential_F(W0, ds.w_star) >= F_min - slack
    assert potential_G(W1) ** 2 - potential_G(W0) ** 2 <= G2_max + slack * (1 + scale) ** 2
