"""The seam's helpers at the edges of float64: norms and signs that do not underflow."""
import numpy as np
import pytest
from hypothesis import given, strategies as st

from linteach._kernels import active, frobenius

seeds = st.integers(0, 2**32 - 1)


@given(seeds, st.sampled_from([1e-300, 1e-160, 1e160, 1e300]))
def test_frobenius_is_scale_equivariant_over_the_float_range(seed, c):
    """Regression (issue 15.2): squaring entries of ~1e-160 underflowed, so a relative step
    of that size had norm 0 and the normalized flow froze."""
    A = np.random.default_rng(seed).standard_normal((3, 4, 2))
    np.testing.assert_allclose(frobenius(c * A), c * frobenius(A), rtol=1e-14)


@given(seeds)
def test_frobenius_is_the_plain_sum_of_squares_where_that_is_safe(seed):
    A = np.random.default_rng(seed).standard_normal((2, 5, 3))
    flat = A.reshape(2, -1)
    np.testing.assert_array_equal(frobenius(A), np.sqrt((flat * flat).sum(axis=-1)))
    np.testing.assert_array_equal(frobenius(np.zeros((2, 2))), 0.0)


@pytest.mark.parametrize("c", [1.0, 1e-170, 1e-300])
def test_active_decides_signs_at_the_rows_scale(c):
    """``[w·x > 0]`` is the same for W and c·W, also where ``c·(w·x)`` underflows."""
    rng = np.random.default_rng(4)
    W, X = rng.standard_normal((2, 6, 3)), rng.standard_normal((5, 3)) * 1e-150
    expected = X @ np.swapaxes(W, -1, -2) > 0
    np.testing.assert_array_equal(active(c * W, X, X @ np.swapaxes(c * W, -1, -2)), expected)
