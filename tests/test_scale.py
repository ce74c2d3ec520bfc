"""Any scale, exact verdicts, owned data, seeds as rng: properties behind issue 15 and 14.7."""
import math

import mpmath as mp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import linteach as lt
from linteach import bounds, separable
from linteach.patterns import par_margins
from linteach.strategies import band_edge_points, clustered_nets
from tolerances import POLISHED, QUADRATIC_ROOT, SMALL_ANGLE, ULPS_FLOOR

seeds = st.integers(0, 2**32 - 1)
#: exact rescalings: with entries within 2^±20 of 1 none of these underflows or overflows
POWERS = st.integers(-1000, 1000)


def _problem(seed, k=3, n=12, d=3):
    rng = np.random.default_rng(seed)
    W = rng.standard_normal((2 * k, d)) * np.exp(rng.uniform(-3, 3, (2 * k, 1)))
    X = rng.standard_normal((n, d))
    return W, X, np.where(X[:, 0] > 0, 1.0, -1.0)


@given(seed=seeds, p=POWERS)
def test_angle_and_ratio_metrics_are_bit_for_bit_scale_free(seed, p):
    W, X, y = _problem(seed)
    Wc = np.ldexp(W, p)
    for f in (lt.max_within_type_angle, lt.relative_cluster_radius):
        assert f(Wc) == f(W)
    for f in (lt.linear_regime, lt.fraction_outside_linear_regime):
        np.testing.assert_array_equal(f(Wc, X), f(W, X))
    np.testing.assert_array_equal(lt.max_n_diff(Wc, X), lt.max_n_diff(W, X))
    np.testing.assert_array_equal(lt.par_fractions(Wc, X, y), lt.par_fractions(W, X, y))
    assert lt.in_par(Wc, X, y) == lt.in_par(W, X, y)
    net = lt.Net(k=3)
    assert lt.normalized_margin(net, Wc, X, y) == lt.normalized_margin(net, W, X, y)
    assert lt.cluster_radius(Wc) == np.ldexp(lt.cluster_radius(W), p)


@given(seed=seeds, p=st.lists(st.integers(-1000, 1000), min_size=6, max_size=6))
def test_sign_metrics_are_free_of_each_neurons_scale(seed, p):
    W, X, y = _problem(seed)
    Wc = np.ldexp(W, np.array(p)[:, None])
    np.testing.assert_array_equal(lt.max_n_diff(Wc, X), lt.max_n_diff(W, X))
    np.testing.assert_array_equal(lt.par_fractions(Wc, X, y), lt.par_fractions(W, X, y))
    assert lt.max_within_type_angle(Wc) == lt.max_within_type_angle(W)


@given(seed=seeds)
def test_angles_match_a_high_precision_reference_near_zero(seed):
    rng = np.random.default_rng(seed)
    w = rng.standard_normal(3)
    eps = 10.0 ** rng.uniform(-12, -6)
    W = np.vstack([w, w + eps * rng.standard_normal(3), -w, -w])  # two nearly parallel
    mp.mp.dps = 40
    a, b = ([mp.mpf(float(v)) for v in r] for r in W[:2])
    cos = mp.fsum(x * z for x, z in zip(a, b)) / mp.sqrt(mp.fsum(x * x for x in a)
                                                        * mp.fsum(z * z for z in b))
    assert lt.max_within_type_angle(W) == pytest.approx(float(mp.acos(cos)), rel=SMALL_ANGLE,
                                                          abs=ULPS_FLOOR)


def test_in_par_beta_is_inclusive_and_beta_zero_is_strict():
    X, y = np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([1.0, 1.0])
    W = np.array([[1.0, 1.0], [-1.0, -1.0]])  # ŵ·x = 1/√2 on both points
    beta = float(par_margins(W, X, y)[0].min())  # the exact tie, as computed
    assert lt.in_par(W, X, y, beta=beta) and not lt.in_par(W, X, y, beta=np.nextafter(beta, 1))
    W0 = np.array([[1.0, 0.0], [-1.0, -1.0]])  # a w neuron orthogonal to the second point
    assert not lt.in_par(W0, X, y)


@settings(max_examples=30)
@given(n=st.integers(1, 10**6), log_eps=st.floats(-8, 3), log_eta=st.floats(-8, 4),
       log_v=st.floats(-3, 3), log_R=st.floats(-5, 5), R0=st.sampled_from([0.0, 1e-3, 1.0]),
       alpha=st.floats(1e-3, 0.999), k=st.integers(1, 1000), log_w=st.floats(-3, 5))
def test_T_exact_is_never_below_the_exact_root_and_M_never_below_T(n, log_eps, log_eta, log_v,
                                                                 log_R, R0, alpha, k, log_w):
    kw = dict(R_x=10**log_R, R_0=R0, alpha=alpha, k=k, eta=10**log_eta, v=10**log_v,
              w_star_norm=10**log_w)
    bd = bounds.sgd_update_bound(n, 10**log_eps, **kw)
    mp.mp.dps = 50
    p = {key: mp.mpf(val) for key, val in kw.items()}
    A = 1 + 2 * p["k"] * p["eta"] * p["v"]**2 * p["R_x"]**2 * n
    a = 2 * p["k"] * p["eta"] * p["v"] * p["alpha"] * -mp.expm1(-mp.mpf(10**log_eps) / A) / n
    b = p["w_star_norm"] * mp.sqrt(4 * p["k"]**2 * p["eta"]**2 * p["v"]**2 * p["R_x"]**2
                                   + 4 * p["k"] * p["eta"])
    c = 4 * p["k"] * p["R_0"] * p["w_star_norm"]
    root = ((b + mp.sqrt(b**2 + 4 * a * c)) / (2 * a))**2
    assert bd.M >= bd.T_exact >= root
    assert bd.T_exact <= root * (1 + QUADRATIC_ROOT)


@pytest.mark.parametrize("kw, name", [(dict(eta=1e-300, w_star_norm=1e10), "T_exact"),
                                      (dict(eps=5e-324), "eps0")])
def test_bound_constants_leaving_float64_are_named(kw, name):
    base = dict(n=10, eps=0.1, R_x=1.0, R_0=1.0, alpha=0.3, k=2, eta=0.1, v=1.0,
                w_star_norm=1.0)
    with pytest.raises(ValueError, match=f"`{name}`"):
        bounds.sgd_update_bound(**{**base, **kw})


def test_bound_constants_past_float64_products_come_from_logs():
    # 2kηv²R_x²n = 4e300·... overflows as a product, but every constant is representable
    bd = bounds.sgd_update_bound(10, 1e250, R_x=1e100, R_0=0.0, alpha=0.5, k=2, eta=1e100,
                                 v=1.0, w_star_norm=1e-200)
    assert all(math.isfinite(v) for v in vars(bd).values()) and bd.M >= bd.T_exact > 0


# -- separability, decided exactly ------------------------------------------------------------
@given(seed=seeds, n=st.integers(2, 12), d=st.integers(1, 4), log_m=st.floats(-300, -1))
def test_separable_sets_at_any_margin_are_called_separable(seed, n, d, log_m):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    if d > 1:
        X[:, -1] = 10.0**log_m * (1 + rng.random(n))  # separable only along the last axis
    else:
        X = np.abs(X)
    sep = separable.separability(X, np.ones(n))
    assert sep.verdict == "separable"
    assert np.all(X @ sep.w >= 1 - POLISHED)


@given(seed=seeds, n=st.integers(2, 12), d=st.integers(1, 4))
def test_exact_verdict_agrees_with_the_lp_on_ordinary_sets(seed, n, d):
    rng = np.random.default_rng(seed)
    X, y = rng.standard_normal((n, d)), np.where(rng.random(n) < 0.5, -1.0, 1.0)
    sep = separable.separability(X, y)
    lp = lt.assumption4.lp_feasible(y[:, None] * X, np.ones(n))
    assert sep.verdict in ("separable", "not separable")
    assert (sep.verdict == "separable") == lp


def test_undecided_is_said_not_guessed():
    # not separable: the Gordan certificate needs weights 1 : 1 : 1e-20
    X = np.array([[1.0, 0.0], [-1.0, 1e-20], [0.0, -1.0]])
    assert separable.separability(X, np.ones(3)).verdict in ("not separable", "undecided")
    assert repr(separable.separability(X, np.ones(3))).startswith("Separability(")


# -- data handed over, reprs, rng ----------------------------------------------------------------
def test_dataset_repr_is_one_short_line(rng):
    ds = lt.make_separable(500, 20, margin=0.1, rng=rng)
    text = repr(ds)
    assert "\n" not in text and len(text) < 120 and "n=500" in text and "d=20" in text
    assert len(repr(lt.agreement(np.ones((2, 20)), ds.X) or "")) < 120


def test_column_vector_labels_get_a_clear_message():
    with pytest.raises(ValueError, match="column vector.*ravel"):
        lt.Net(k=1).loss(np.ones((2, 2)), np.ones((3, 2)), np.ones((3, 1)))


@pytest.mark.parametrize("seed", [0, 7, [1, 2], np.random.SeedSequence(3)])
def test_a_seed_gives_what_default_rng_of_it_gives(seed):
    net = lt.Net(k=2)
    np.testing.assert_array_equal(net.init(3, scale=1.0, rng=seed),
                                  net.init(3, scale=1.0, rng=np.random.default_rng(seed)))
    a = lt.make_symmetric_gaussians(6, 2, rng=seed)
    b = lt.make_symmetric_gaussians(6, 2, rng=np.random.default_rng(seed))
    np.testing.assert_array_equal(a.X, b.X)


@given(clustered_nets(), st.data())
def test_default_clustered_nets_combine_with_band_points(net_W, data):
    _, W = net_W
    X = data.draw(band_edge_points(W))
    assert np.all(np.isfinite(X))
