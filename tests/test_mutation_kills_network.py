"""Tests written for the survivors of the population pass over the mutation target
network-rest (``Net``'s argument checks, init, σ' and per-point gradients; docs/math.md §1).
A first pass let 10 of its first 38 mutants through every test and the four claims (a
per-point array longer than n accepted, a negative init scale accepted, the init size
limit off by one, the run-axes message and check reading the wrong axes); it was stopped,
these tests written, and the pass restarted with them first."""
import re

import numpy as np
import pytest

import linteach as lt
from linteach import network
from tolerances import ULPS


@pytest.mark.parametrize("m", [2, 4])
def test_per_point_coefficients_must_have_exactly_n_entries(m):
    """backward's coef is one number per row of X: fewer and more than n = 3 are refused,
    naming coef, the rule and the shape."""
    net = lt.Net(k=1)
    with pytest.raises(ValueError, match=re.escape(f"`coef` must have 3 entries (one per row "
                                                   f"of `X`), got shape ({m},)")):
        net.backward(np.ones((2, 2)), np.ones((3, 2)), np.ones(m))


@pytest.mark.parametrize("W_shape, X_shape, coef_shape, message", [
    # W's run axes alone disagree with X's
    ((2, 2, 3), (3, 4, 3), (4,), "run axes of `W` (2,) and `X` (3,) and `coef` () do not"),
    # coef's run axes alone disagree (W and X share theirs)
    ((2, 2, 3), (4, 3), (2, 3, 4), "run axes of `W` (2,) and `X` () and `coef` (2, 3) do not"),
    # three run axes of W against two of coef
    ((1, 2, 5, 2, 3), (4, 3), (3, 5, 4), "run axes of `W` (1, 2, 5) and `X` () and `coef` "
                                          "(3, 5) do not")])
def test_run_axes_that_do_not_broadcast_are_named_each_with_its_own(W_shape, X_shape,
                                                                    coef_shape, message):
    """The run axes (all but the last two of W and X, all but the last of a per-point
    array) must broadcast together; when they do not, the error gives each one's."""
    net = lt.Net(k=1)
    with pytest.raises(ValueError, match=re.escape(message + " broadcast")):
        net.backward(np.ones(W_shape), np.ones(X_shape), np.ones(coef_shape))


def test_run_axes_that_broadcast_are_accepted():
    """(2,) runs of W with (3, 2) runs of coef broadcast to (3, 2) runs."""
    net = lt.Net(k=1)
    G = net.backward(np.ones((2, 2, 3)), np.ones((4, 3)), np.ones((3, 2, 4)))
    assert G.shape == (3, 2, 2, 3)


def test_init_refuses_a_negative_scale_and_draws_zeros_at_scale_zero():
    """scale is the standard deviation: ≥ 0, and 0 gives W = 0."""
    net = lt.Net(k=2)
    with pytest.raises(ValueError, match=re.escape("`scale` must be >= 0.0, got -0.5")):
        net.init(3, scale=-0.5, rng=0)
    np.testing.assert_array_equal(net.init(3, scale=0.0, rng=0), np.zeros((4, 3)))


def test_init_draws_at_most_max_init_entries(monkeypatch):
    """The size limit is inclusive: exactly MAX_INIT_ENTRIES weights are drawn, one more is
    refused naming k, d and batch (the limit made 24 here, for a test that allocates
    nothing large)."""
    monkeypatch.setattr(network, "MAX_INIT_ENTRIES", 24)
    net = lt.Net(k=2)
    assert net.init(3, scale=1.0, rng=0, batch=2).shape == (2, 4, 3)   # 24 weights
    with pytest.raises(ValueError, match=re.escape("ask for 36 weights (shape (3, 4, 3)); at "
                                                   "most 24 are drawn at once")):
        net.init(3, scale=1.0, rng=0, batch=3)


def test_init_is_scale_times_standard_normal_draws_of_the_rng():
    """W = scale·N(0, 1) draws of rng, in the order rng.standard_normal draws them."""
    net = lt.Net(k=2)
    want = 0.37 * np.random.default_rng(5).standard_normal((2, 4, 3))
    np.testing.assert_array_equal(net.init(3, scale=0.37, rng=5, batch=2), want)
    with pytest.raises(ValueError, match="overflows float64"):
        net.init(3, scale=1.5e308, rng=5)  # a draw of 1.63 overflows


def test_a_is_plus_v_then_minus_v():
    """The second layer a = (+v, …, +v, −v, …, −v), k of each, a fresh array per call."""
    net = lt.Net(k=3, v=0.7)
    a = net.a
    np.testing.assert_array_equal(a, [0.7, 0.7, 0.7, -0.7, -0.7, -0.7])
    a[0] = 5.0
    assert net.a[0] == 0.7


def test_slope_is_alpha_up_to_zero_and_one_above():
    """σ'(z) = α for z ≤ 0 (σ'(0) = α by convention) and 1 for z > 0."""
    net = lt.Net(k=1, alpha=0.3)
    np.testing.assert_array_equal(net.slope(np.array([-2.0, -1e-300, 0.0, 1e-300, 4.0])),
                                  [0.3, 0.3, 0.3, 1.0, 1.0])


def test_grad_output_is_each_point_s_gradient_of_eq1():
    """∇_{w_j} N(x_i) = a_j σ'(w_j·x_i) x_i, per point, against a plain loop (App. F)."""
    net = lt.Net(k=2, alpha=0.25, v=0.6)
    rng = np.random.default_rng(3)
    W, X = rng.standard_normal((4, 3)), rng.standard_normal((5, 3))
    G = net.grad_output(W, X)
    assert G.shape == (5, 4, 3)
    for i in range(5):
        for j in range(4):
            z = W[j] @ X[i]
            want = net.a[j] * (1.0 if z > 0 else 0.25) * X[i]
            np.testing.assert_allclose(G[i, j], want, rtol=ULPS)


def test_net_loss_is_the_mean_logistic_loss_of_the_margins():
    """L(W) = mean_i log(1 + e^{−q_i}) (Eq. 2), and loss_and_grad gives the same L."""
    net = lt.Net(k=2, alpha=0.25, v=0.6)
    rng = np.random.default_rng(4)
    W, X = rng.standard_normal((4, 3)), rng.standard_normal((6, 3))
    y = np.where(rng.standard_normal(6) > 0, 1.0, -1.0)
    want = np.mean(np.log1p(np.exp(-net.margins(W, X, y))))
    assert net.loss(W, X, y) == pytest.approx(want, rel=ULPS * 10)
    assert net.loss_and_grad(W, X, y)[0] == pytest.approx(want, rel=ULPS * 10)


def test_labels_passed_with_points_are_checked_as_labels():
    """Net.margins validates y as labels in {−1, +1} (not as any array of numbers)."""
    net = lt.Net(k=1)
    with pytest.raises(ValueError, match=re.escape("`y` must contain only -1 and +1, got")):
        net.margins(np.ones((2, 2)), np.ones((2, 2)), np.array([1.0, 2.0]))


def test_a_net_has_at_least_one_neuron_of_each_type():
    """k ≥ 1 (k = 0 would leave no network), named with the rule."""
    with pytest.raises(ValueError, match=re.escape("`k` must be >= 1, got 0")):
        lt.Net(k=0)
    assert lt.Net(k=1).k == 1


def test_init_takes_scale_and_rng_by_keyword_only():
    """scale and rng are keyword-only (a positional 1.0 cannot be read as the wrong one)."""
    net = lt.Net(k=1)
    with pytest.raises(TypeError):
        net.init(3, 1.0, 0)


def test_the_per_point_message_counts_the_points_of_batched_x():
    """With X of shape (runs, n, d), a per-point array needs n entries, not one per run."""
    net = lt.Net(k=1)
    with pytest.raises(ValueError, match=re.escape("`coef` must have 3 entries")):
        net.backward(np.ones((2, 2, 2)), np.ones((2, 3, 2)), np.ones(4))


@pytest.mark.parametrize("v", [0.0, -0.5])
def test_the_second_layer_magnitude_is_positive(v):
    """v > 0 (v = 0 has no network, v < 0 swaps the neuron types)."""
    with pytest.raises(ValueError, match=re.escape("`v` must be > 0")):
        lt.Net(k=1, v=v)


def test_init_needs_at_least_one_input_dimension():
    """d ≥ 1: an empty input dimension is refused by name."""
    with pytest.raises(ValueError, match=re.escape("`d` must be >= 1, got 0")):
        lt.Net(k=1).init(0, scale=1.0, rng=0)
