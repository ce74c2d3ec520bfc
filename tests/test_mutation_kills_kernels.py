"""Tests written for the survivors of the population pass over the mutation target
kernels-rest (the seam between the trainers and the network: the underflow tests of the
pre-activations, the exact rescaling of rows, the negative controls' kernel; docs/math.md
§1, §3).  The pass let mutants through every test and both claims that reach these lines:
a writable second layer, a ``grad`` of a smaller shape accepted, one run's margin returned
as a length-1 array, the underflow threshold moved or read off the wrong entries, the rows
rescaled one power of two too far, the protocol's signature drifting from the kernel's."""
import inspect
import re

import numpy as np
import pytest

import linteach as lt
from linteach import _kernels
from linteach._kernels import Controlled, Fused, Kernel, active, kernel_for, underflow_free


def test_the_kernel_s_second_layer_cannot_be_written():
    """The kernel reads ``a`` thousands of times; it is its own read-only copy."""
    kernel = kernel_for(lt.Net(k=2))
    with pytest.raises(ValueError, match="read-only"):
        kernel.a[0] = 5.0


@pytest.mark.parametrize("shape", [(4, 2), (2, 3), (4, 3, 1), ()])
def test_a_control_s_gradient_of_another_shape_is_refused(shape):
    """``grad`` must return an array of the gradient's shape (4, 3): smaller, larger or of
    another rank is a ValueError naming both shapes."""
    kernel = Controlled(lt.Net(k=2), lambda G: np.zeros(shape))
    W, X = np.ones((4, 3)), np.ones((2, 3))
    with pytest.raises(ValueError, match=r"shape \(4, 3\), got " + re.escape(str(shape))):
        kernel.backward(W, X, np.ones(2))


def test_a_control_s_update_of_one_run_returns_numbers_and_of_r_runs_arrays():
    """``sgd_update`` of one run ``(2k, d)`` returns the margin and g(q) as scalars, of R
    runs as arrays of shape (R,), equal to Fused's on the identity control."""
    net, rng = lt.Net(k=2), np.random.default_rng(7)
    W, x, y, eta = rng.standard_normal((4, 3)), rng.standard_normal(3), -1.0, 0.1
    control, stock = Controlled(net, lambda G: G), Fused(net)
    W1, W2 = W.copy(), W.copy()
    q, gq = control.sgd_update(W1, x, y, eta * y * x, eta=eta)
    q_ref, gq_ref = stock.sgd_update(W2, x, y, eta * y * x, eta=eta)
    assert np.ndim(q) == 0 and np.ndim(gq) == 0
    np.testing.assert_allclose([q, gq], [q_ref, gq_ref], rtol=1e-14)
    R = 3
    Ws, xs, ys = rng.standard_normal((R, 4, 3)), rng.standard_normal((R, 3, 1)), \
        np.array([1.0, -1.0, 1.0])
    q, gq = control.sgd_update(Ws, xs, ys, eta * ys[:, None, None] * np.swapaxes(xs, 1, 2),
                               eta=eta)
    assert q.shape == (R,) and gq.shape == (R,)


@pytest.mark.parametrize("low, free", [(2.0 ** -900, True), (2.0 ** -901, False),
                                       (1.0, True)])
def test_underflow_free_means_every_product_of_nonzero_entries_is_at_least_2_to_minus_900(
        low, free):
    """The threshold is 2^-900 on the product of the smallest nonzero |w| and |x|, whatever
    their signs and zeros: exactly 2^-900 is free, one power of two below is not."""
    W = np.array([[0.0, 1.0], [-2.0 ** -450, 3.0]])
    X = np.array([[-low * 2.0 ** 450, 0.0], [5.0, -1.0]])
    assert underflow_free(W, X) is free
    assert underflow_free(-W, X) is free
    # the smallest entries positive: the test reads |entries| that are nonzero, not signs
    assert underflow_free(np.abs(W), np.abs(X)) is free
    assert underflow_free(np.ones((2, 2)), np.ones((2, 2))) is True
    # the product of W's smallest and X's smallest, not either one squared
    assert underflow_free(np.ones((2, 2)), np.full((2, 2), 2.0 ** -500)) is True
    assert underflow_free(np.full((2, 2), 2.0 ** -500), np.ones((2, 2))) is True


def test_a_subnormal_entry_keeps_its_bits_in_the_row_rescaling():
    """Rows are divided by a power of two that keeps their largest entry in [1, 2): a
    subnormal entry 2^-1074 beside 1 keeps its value, so w·x = 2^-1074 > 0 is active."""
    W, X = np.array([[0.0, 1.0]]), np.array([[1.0, 2.0 ** -1074]])
    Z = X @ W.T
    np.testing.assert_array_equal(active(W, X, Z), [[True]])


@pytest.mark.parametrize("method", ["forward", "backward", "sgd_update"])
def test_the_protocol_states_the_stock_kernel_s_signatures(method):
    """``Kernel`` documents the seam: its signatures are those of Fused and Controlled."""
    expected = inspect.signature(getattr(Kernel, method))
    for kernel in (Fused, Controlled):
        assert inspect.signature(getattr(kernel, method)) == expected


def test_rows_are_rescaled_exactly_to_a_largest_entry_in_one_to_two():
    """``_row_scaled`` divides each row by the power of two that puts its largest |entry| in
    [1, 2), exactly (the quotient is a power of two), whatever the row's scale."""
    rng = np.random.default_rng(3)
    A = rng.standard_normal((3, 4, 5)) * np.array([1e-300, 1.0, 1e300])[:, None, None]
    B = _kernels._row_scaled(A)
    top = np.abs(B).max(axis=-1)
    assert np.all((top >= 1.0) & (top < 2.0))
    ratio = A[..., 0] / B[..., 0]
    np.testing.assert_array_equal(np.frexp(ratio)[0], 0.5)


def test_a_batched_sum_of_underflowed_products_is_rechecked_at_its_own_length():
    """One neuron of d = 100 weights on one point: 99 products of 2^-1076 (each rounds to 0)
    and one of −16·2^-1074, so the computed z is −16·2^-1074 while the true w·x is
    2^-1076·(99 − 64) > 0.  The underflow test must use d (the length of the sums), not
    the batch's other axes: then z is recomputed from rescaled rows, and is active."""
    d = 100
    x, w = np.full(d, 2.0 ** -538), np.full(d, 2.0 ** -538)
    w[0] = -16 * 2.0 ** -536
    W, X = w[None, None, :], x[None, :]
    Z = X @ np.swapaxes(W, -1, -2)
    assert Z[0, 0, 0] < 0
    np.testing.assert_array_equal(active(W, X, Z), [[[True]]])


@pytest.mark.parametrize("d", [1, 3, 100, 2 ** 40])
def test_trusted_keeps_every_normal_z_and_flags_every_z_within_2d_subnormals(d):
    """``_trusted(Z, d)`` holds for the smallest normal z whatever d, and fails for
    |z| = 2d·2^-1074 (where d products of 2^-1075 could have been lost)."""
    tiny = np.finfo(float).tiny
    assert _kernels._trusted(np.array([tiny, -tiny, 1.0]), d)
    edge = 2 * d * 2.0 ** -1074
    assert not _kernels._trusted(np.array([1.0, edge]), d)
    assert not _kernels._trusted(np.array([-edge, 1.0]), d)


def test_an_exact_kink_stays_inactive_when_its_sign_is_rechecked():
    """w·x = 0 exactly, with entries so small that z cannot be trusted: the recheck from
    rescaled rows still finds 0, which is the kink (σ'(0) = α), not active."""
    W, X = np.array([[1.0, 1.0]]) * 2.0 ** -600, np.array([[1.0, -1.0]]) * 2.0 ** -600
    Z = X @ W.T
    assert Z[0, 0] == 0.0 and not _kernels._trusted(Z, 2)
    np.testing.assert_array_equal(active(W, X, Z), [[False]])
