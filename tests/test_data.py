"""Data generators honour their guarantees for every drawn seed; same seed ⇒ same arrays."""
import numpy as np
import pytest
from hypothesis import given, strategies as st

import linteach as lt
from tolerances import EXACT_BOUND_SLACK, IDENTITY, ORACLE

seeds = st.integers(0, 2**32 - 1)
#: margins are built exactly; the products y⟨w*, x⟩ may round one ulp below 1
ROUND = EXACT_BOUND_SLACK


@given(seed=seeds, n=st.integers(1, 60), d=st.integers(1, 8), margin=st.floats(0.01, 0.9),
       radius=st.floats(0.5, 3.0))
def test_make_separable_margin_and_radius(seed, n, d, margin, radius):
    margin = margin * radius
    ds = lt.make_separable(n, d, margin=margin, rng=np.random.default_rng(seed), radius=radius)
    assert ds.X.shape == (n, d) and ds.y.shape == (n,)
    assert np.all(ds.y * (ds.X @ ds.w_star) >= 1 - ROUND)
    assert np.all(np.linalg.norm(ds.X, axis=1) <= radius * (1 + ROUND))
    np.testing.assert_allclose(np.linalg.norm(ds.w_star), 1 / margin, rtol=IDENTITY)


@given(seed=seeds)
def test_same_seed_same_arrays(seed):
    for make in (lambda r: lt.make_separable(20, 3, margin=0.1, rng=r),
                 lambda r: lt.make_symmetric_gaussians(20, 3, rng=r),
                 lambda r: lt.make_outlier_set(20, 3, rng=r),
                 lambda r: lt.make_blobs_2d(20, rng=r)):
        a, b = make(np.random.default_rng(seed)), make(np.random.default_rng(seed))
        np.testing.assert_array_equal(a.X, b.X)
        np.testing.assert_array_equal(a.y, b.y)


@given(seed=seeds, half=st.integers(1, 30), d=st.integers(1, 6))
def test_symmetric_gaussians_are_antipodal_and_separable(seed, half, d):
    ds = lt.make_symmetric_gaussians(2 * half, d, rng=np.random.default_rng(seed))
    np.testing.assert_array_equal(ds.X[half:], -ds.X[:half])
    np.testing.assert_array_equal(ds.y[half:], -ds.y[:half])
    assert np.all(ds.y * (ds.X @ ds.w_star) >= 1 - ROUND)


@given(seed=seeds)
def test_outlier_set_is_antipodal_plus_one_positive_separable_point(seed):
    ds = lt.make_outlier_set(30, 4, rng=np.random.default_rng(seed))
    assert ds.X.shape == (31, 4) and ds.y[-1] == 1
    np.testing.assert_array_equal(ds.X[15:30], -ds.X[:15])
    assert np.all(ds.y * (ds.X @ ds.w_star) >= 1 - ROUND)
    mu = ds.w_star / np.linalg.norm(ds.w_star)
    assert np.linalg.norm(ds.X[-1] - (ds.X[-1] @ mu) * mu) == pytest.approx(2.0)  # far off-axis


@given(seed=seeds, half=st.integers(1, 40))
def test_blobs_2d_in_their_discs(seed, half):
    ds = lt.make_blobs_2d(2 * half, rng=np.random.default_rng(seed))
    assert ds.X.shape == (2 * half, 2) and ds.y.sum() == 0  # n points, half per disc
    centres = ds.y[:, None] * np.array([0.5, 0.0])
    assert np.all(np.linalg.norm(ds.X - centres, axis=1) <= 0.2 + ROUND)
    assert np.all(ds.y * (ds.X @ ds.w_star) >= 1 - ROUND)


def test_augment_bias_appends_ones(rng):
    ds = lt.make_separable(5, 3, margin=0.1, rng=rng)
    lifted = lt.augment_bias(ds)
    np.testing.assert_array_equal(lifted.X[:, :3], ds.X)
    np.testing.assert_array_equal(lifted.X[:, 3], 1.0)
    assert lt.augment_bias(ds.X[None]).shape == (1, 5, 4)


def test_stack_builds_run_axis(rng):
    sets = [lt.make_separable(6, 2, margin=0.1, rng=r) for r in rng.spawn(3)]
    st_ = lt.stack(sets)
    assert st_.X.shape == (3, 6, 2) and st_.w_star.shape == (3, 2)


def test_stack_refuses_sets_of_different_shapes(rng):
    a, b = (lt.make_separable(n, 2, margin=0.1, rng=r) for n, r in zip((6, 7), rng.spawn(2)))
    with pytest.raises(ValueError, match="share one X shape"):
        lt.stack([a, b])


def test_max_margin_teacher_is_the_tightest_teacher(rng):
    ds = lt.make_separable(40, 3, margin=0.2, rng=rng)
    w = lt.max_margin_teacher(ds.X, ds.y)
    margins = ds.y * (ds.X @ w)
    assert margins.min() == pytest.approx(1.0, abs=ORACLE)  # active constraints
    assert np.linalg.norm(w) <= np.linalg.norm(ds.w_star) * (1 + ORACLE)  # no larger than any


def test_max_margin_teacher_rejects_non_separable():
    X = np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]])
    with pytest.raises(lt.NotSeparableError, match="separable"):
        lt.max_margin_teacher(X, np.array([1.0, 1.0, -1.0, -1.0]))


def test_load_digit_pair_offline_and_separable(rng_seed):
    train, test = lt.load_digit_pair(0, 1, test_fraction=0.25, rng=rng_seed)
    assert train.d == 64 and test.d == 64
    assert abs(test.n / (train.n + test.n) - 0.25) < 0.01
    assert np.linalg.norm(train.X, axis=1).max() == pytest.approx(1.0)
    np.testing.assert_allclose(train.X.mean(axis=0), 0.0, atol=IDENTITY)  # centred by train mean
    assert np.all(train.y * (train.X @ train.w_star) >= 1 - ORACLE)
    a, _ = lt.load_digit_pair(0, 1, test_fraction=0.25, rng=np.random.default_rng(rng_seed))
    np.testing.assert_array_equal(a.X, train.X)
