"""Tests written for the survivors of the population passes over the mutation targets
loss-checks (the argument checks of the loss terms) and kkt-rest (the QP checks, the
report's verdict and polish): each names, in ``tools/mutation_notes_checks.py``, the
mutants it kills and why no claim check does (the claims only ever hand these functions
well-formed arguments and answers far inside the tolerances)."""
import re

import numpy as np
import pytest

from linteach import kkt, loss
from linteach.kkt import DIST_TOL, FEAS_TOL, KKT_TOL, QPReport


# -- loss: _real and _nan_free --------------------------------------------------------------
def test_an_integer_past_float64_is_a_value_error_giving_its_digits():
    """A Python integer has no float64 value past 1.8e308 (numpy holds it as an object):
    the error says so, with its number of digits, for a scalar margin."""
    with pytest.raises(ValueError, match=re.escape("`q` must be finite in float64, got an "
                                                   "integer of 332 digits")):
        loss.ell(2**1100)


@pytest.mark.parametrize("q", [3, np.int64(3), True, np.array(3), np.array([3, -2])])
def test_integer_and_boolean_margins_are_their_float_values(q):
    """Integers (Python or numpy, scalar or array) and booleans are real numbers: the loss
    is that of their float64 values, bit for bit."""
    np.testing.assert_array_equal(loss.ell(q), loss.ell(np.asarray(q, dtype=np.float64)))


@pytest.mark.parametrize("q, dtype", [(np.array([1, 2**70], dtype=object), "object"),
                                      (np.array(["1.5", "2"]), "<U3"),
                                      (np.array([1 + 2j]), "complex128")])
def test_arrays_of_objects_strings_and_complex_numbers_are_a_type_error(q, dtype):
    """Only real numbers: an object array (even of integers), strings that would parse as
    floats and complex numbers are refused with a TypeError naming the dtype."""
    with pytest.raises(TypeError, match=re.escape(f"`q` must hold real numbers, got dtype "
                                                  f"{dtype}")):
        loss.ell(q)


@pytest.mark.parametrize("q, kind", [("1.5", "str"), (b"1", "bytes"), (None, "NoneType")])
def test_a_string_or_none_is_not_array_like_of_real_numbers(q, kind):
    """A string (even one that parses as a number), bytes and None are refused before numpy
    sees them, with the type's name (not numpy's dtype for them)."""
    with pytest.raises(TypeError, match=re.escape(f"`q` must be array-like of real numbers, "
                                                  f"got {kind}")):
        loss.ell(q)


def test_empty_margins_give_an_empty_loss_and_nan_is_refused_in_arrays():
    """No margin, no loss term (an empty array passes the NaN check); a NaN anywhere in an
    array of margins, of one entry or more, is a ValueError naming q."""
    assert loss.ell(np.array([])).shape == (0,)
    assert loss.g(np.empty((2, 0))).shape == (2, 0)
    for q in (np.array([np.nan]), np.array([1.0, np.nan, 2.0]), [0.5, float("nan")]):
        with pytest.raises(ValueError, match=re.escape("`q` must not contain NaN")):
            loss.ell(q)


# -- kkt: QPReport.ok, _check_qp, polish ----------------------------------------------------
def _report(**change):
    values = dict(feasibility=0.0, dual_feasibility=0.0, stationarity=0.0, complementarity=0.0,
                  distance=0.0)
    values.update(change)
    return QPReport(**values)


@pytest.mark.parametrize("name", ["dual_feasibility", "stationarity", "complementarity"])
def test_a_report_is_ok_up_to_tol_and_not_past_it(name):
    """ok(tol): each residual ≤ tol holds (tol itself included), twice tol fails, at the
    default tol and at another."""
    for tol in (KKT_TOL, 1e-3):
        assert _report(**{name: tol}).ok(tol)
        assert not _report(**{name: 2 * tol}).ok(tol)
    assert _report().ok() and not _report(**{name: 2 * KKT_TOL}).ok()


def test_a_report_s_feasibility_and_distance_have_their_own_caps():
    """Feasibility is held to min(tol, FEAS_TOL) (FEAS_TOL even under a loose tol) and the
    distance to DIST_TOL, whatever tol is."""
    assert _report(feasibility=FEAS_TOL).ok(1e-3)
    assert not _report(feasibility=2 * FEAS_TOL).ok(1e-3)
    assert not _report(feasibility=2e-11).ok(1e-11)
    assert _report(distance=DIST_TOL).ok(1e-3)
    assert not _report(distance=2 * DIST_TOL).ok(1e-3)


@pytest.mark.parametrize("cols", [2, 4])
def test_a_program_whose_g_and_theta_disagree_in_size_is_named(cols):
    """G (p, m) and θ (m,): more and fewer columns than θ has entries are both refused,
    giving both sizes."""
    with pytest.raises(ValueError, match=re.escape(f"`G` has {cols} columns but `theta` has "
                                                   "3 entries")):
        kkt.qp_kkt_report(np.ones(3), np.ones((2, cols)), np.ones(2), np.ones(2))


def test_polish_takes_a_slack_equal_to_a_guess_as_active():
    """Active means relative slack ≤ the guess, the guess included: min ½θ² s.t. θ ≥ t at
    θ = 2t (t the float nearest 1e-3, so the slack 2t − t = t is exact and equals the
    last guess, 1e-3) polishes to the optimum θ = t with μ = t."""
    t = 1e-3
    out = kkt.polish(np.array([2 * t]), np.array([[1.0]]), np.array([t]))
    assert out is not None
    np.testing.assert_array_equal(out[0], [t])
    np.testing.assert_array_equal(out[1], [t])


def test_polish_measures_slack_relative_to_the_row_norm_times_theta():
    """The slack is relative to max(1, ‖G_i‖‖θ‖): min ½θ² s.t. θ ≥ 1000 at θ = 1000.5 has
    relative slack 0.5/1000.5 < 1e-3, so the constraint is guessed active and the answer
    polished to θ = 1000 exactly (μ = 1000)."""
    out = kkt.polish(np.array([1000.5]), np.array([[1.0]]), np.array([1000.0]))
    assert out is not None
    np.testing.assert_array_equal(out[0], [1000.0])
    np.testing.assert_array_equal(out[1], [1000.0])


@pytest.mark.parametrize("X, y, message", [
    (np.ones((2, 3, 2)), np.ones(3), "`X` must be 2-D (n, d), got shape (2, 3, 2)"),
    (np.ones((3, 2)), np.ones((2, 3)), "`y` must be 1-D (n,) here, got shape (2, 3)")])
def test_one_data_set_is_a_matrix_and_a_vector_of_labels(X, y, message):
    """The certificates take one data set: X (n, d) and y (n,), nothing batched."""
    with pytest.raises(ValueError, match=re.escape(message)):
        kkt.kkt_certificate(np.ones((2, 2)), X, y, alpha=0.5)


@pytest.mark.parametrize("W, message", [
    (np.ones((3, 2)), "`W` must be 2-D with an even number 2k of rows (w neurons, then u "
                      "neurons), got shape (3, 2)"),
    (np.ones((2, 2, 2)), "`W` must be 2-D with an even number 2k of rows"),
    (np.ones((2, 3)), "`W` has input dimension 3 but `X` has d = 2"),
    (np.zeros((2, 2)), "`W` must not be all zeros (its direction is undefined)")])
def test_kkt_certificate_takes_one_nonzero_network_of_the_data_s_dimension(W, message):
    """(P)'s certificate is of one W (2k, d), k ≥ 1, d that of X, and a direction (W ≠ 0)."""
    X, y = np.array([[1.0, 0.0], [-1.0, 0.0]]), np.array([1.0, -1.0])
    with pytest.raises(ValueError, match=re.escape(message)):
        kkt.kkt_certificate(W, X, y, alpha=0.5)


def test_a_certificate_holds_up_to_tol_in_each_residual_and_not_past_it():
    """holds(tol): stationarity, complementarity and feasibility each ≤ tol (tol included);
    twice tol in any one fails."""
    base = dict(lam=np.ones(2), stationarity=0.0, complementarity=0.0, feasibility=0.0,
                gamma=1.0, n_kinks=0)
    for name in ("stationarity", "complementarity", "feasibility"):
        for tol in (KKT_TOL, 1e-3):
            assert kkt.KKTCertificate(**{**base, name: tol}).holds(tol)
            assert not kkt.KKTCertificate(**{**base, name: 2 * tol}).holds(tol)
        assert not kkt.KKTCertificate(**{**base, name: 2 * KKT_TOL}).holds()


def test_the_report_of_a_sparse_program_equals_that_of_the_dense_one():
    """Row norms of a sparse G (√ of the summed squares) and of a dense one agree, so the
    report of one program given either way is the same: G rows (3, 4) and (0, 2), θ feasible
    with slack, μ off by a little."""
    from scipy.sparse import csr_matrix
    G = np.array([[3.0, 4.0], [0.0, 2.0]])
    theta, h, mu = np.array([0.3, 0.2]), np.array([1.0, 0.3]), np.array([0.1, 0.02])
    dense = kkt.qp_kkt_report(theta, G, h, mu)
    sparse = kkt.qp_kkt_report(theta, csr_matrix(G), h, mu)
    for name in ("feasibility", "dual_feasibility", "stationarity", "complementarity",
                 "distance"):
        assert getattr(sparse, name) == pytest.approx(getattr(dense, name), rel=1e-15)
    # dual feasibility scales a negative μ_i by ‖G_i‖ (5 for the first row): (0.1)·5/‖θ‖
    neg = kkt.qp_kkt_report(theta, csr_matrix(G), h, np.array([-0.1, 0.0]))
    assert neg.dual_feasibility == pytest.approx(0.5 / np.linalg.norm(theta), rel=1e-15)


@pytest.mark.parametrize("args, message", [
    ((np.ones((2, 1)), np.ones((2, 2)), np.ones(2), np.ones(2)),
     "`theta` must be 1-D (m,), got shape (2, 1)"),
    ((np.ones(2), np.ones((2, 2, 2)), np.ones(2), np.ones(2)),
     "`G` must be 2-D (p, m), got shape (2, 2, 2)"),
    ((np.ones(2), np.ones((3, 2)), np.ones(2), np.ones(3)),
     "`h` must have shape (p,) = (3,), got (2,)"),
    ((np.ones(2), np.ones((3, 2)), np.ones(3), np.ones(2)),
     "`mu` must have shape (p,) = (3,), got (2,)")])
def test_a_mis_shaped_program_is_named_argument_by_argument(args, message):
    """θ (m,), G (p, m), h (p,), μ (p,): each wrong shape is named with the rule."""
    with pytest.raises(ValueError, match=re.escape(message)):
        kkt.qp_kkt_report(*args)


def test_a_sparse_g_with_an_infinite_entry_is_refused():
    """A sparse G must have finite entries, as a dense one must."""
    from scipy.sparse import csr_matrix
    G = csr_matrix(np.array([[np.inf, 0.0], [0.0, 1.0]]))
    with pytest.raises(ValueError, match=re.escape("`G` (sparse) must be 2-D with finite "
                                                   "entries")):
        kkt.qp_kkt_report(np.ones(2), G, np.ones(2), np.ones(2))


def test_a_one_dimensional_sparse_g_is_refused():
    """scipy's sparse arrays can be 1-D (coo_array of a vector); G must be a matrix."""
    from scipy.sparse import coo_array
    with pytest.raises(ValueError, match=re.escape("`G` (sparse) must be 2-D with finite "
                                                   "entries")):
        kkt.qp_kkt_report(np.ones(2), coo_array(np.ones(2)), np.ones(1), np.ones(1))


def test_polish_guesses_at_most_twenty_active_rows_per_column():
    """The active-set guess is capped at 20m rows (m columns): twenty copies of θ ≥ 1 (m = 1)
    are polished to θ = 1, twenty-one are past the cap (None: the caller re-checks the
    solver's own answer instead)."""
    out = kkt.polish(np.array([1.0]), np.ones((20, 1)), np.ones(20))
    assert out is not None and out[0][0] == pytest.approx(1.0, rel=1e-15)
    assert kkt.polish(np.array([1.0]), np.ones((21, 1)), np.ones(21)) is None


def test_polish_of_sixty_active_rows_in_three_columns_succeeds():
    """NNLS is allowed 50 iterations per active row: 60 active rows (θ* = Gᵀλ with λ > 0,
    h = Gθ*, every row tight) polish to θ* itself."""
    rng = np.random.default_rng(0)
    G = np.abs(rng.standard_normal((60, 3)))
    theta = G.T @ np.abs(rng.standard_normal(60))
    out = kkt.polish(theta, G, G @ theta)
    assert out is not None
    np.testing.assert_allclose(out[0], theta, rtol=1e-12)


@pytest.mark.parametrize("G, theta, h", [
    # slack 0.5 against max(1, ‖G‖‖θ‖) = 1 (‖G‖ = 1000, ‖θ‖ = 1e-3): relative 0.5
    (np.array([[1000.0]]), np.array([1e-3]), np.array([0.5])),
    # slack 1.5e-3 against max(1, 0.5015) = 1: relative 1.5e-3, above every guess
    (np.array([[1.0]]), np.array([0.5015]), np.array([0.5]))])
def test_polish_guesses_nothing_active_past_the_largest_relative_slack(G, theta, h):
    """The relative slack divides by max(1, ‖G_i‖‖θ‖) (a product, floored at 1): these
    answers are off by more than the largest guess, 1e-3, so no active set is guessed and
    polish returns None (the caller then re-checks the solver's own answer)."""
    assert kkt.polish(theta, G, h) is None


def test_polish_s_cap_grows_with_the_number_of_columns():
    """20m rows for m columns: 40 copies of θ₁ + θ₂ ≥ 1 (m = 2) are polished, 41 are not."""
    for p, ok in ((40, True), (41, False)):
        G = np.ones((p, 2))
        out = kkt.polish(np.array([0.5, 0.5]), G, np.ones(p))
        assert (out is not None) == ok


def test_polish_tries_the_next_guess_when_one_fails(monkeypatch):
    """A guess whose NNLS fails (its iteration cap) is skipped, not the end: with the first
    NNLS call made to fail, θ = 1 + 5e-10 against θ ≥ 1 (active at every guess) is still
    polished, by the second guess, to θ = 1."""
    real, calls = kkt.nnls, []

    def failing_once(*args, **kwargs):
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("Maximum number of iterations reached.")
        return real(*args, **kwargs)
    monkeypatch.setattr(kkt, "nnls", failing_once)
    out = kkt.polish(np.array([1.0 + 5e-10]), np.array([[1.0]]), np.array([1.0]))
    assert out is not None and out[0][0] == 1.0 and len(calls) == 2


def test_a_multiplier_vector_longer_than_the_program_is_refused():
    """μ (p,) exactly: a longer one is refused as a shorter one is."""
    with pytest.raises(ValueError, match=re.escape("`mu` must have shape (p,) = (3,), got (4,)")):
        kkt.qp_kkt_report(np.ones(2), np.ones((3, 2)), np.ones(3), np.ones(4))
    with pytest.raises(ValueError, match=re.escape("`h` must have shape (p,) = (3,), got (4,)")):
        kkt.qp_kkt_report(np.ones(2), np.ones((3, 2)), np.ones(4), np.ones(3))


def test_a_one_dimensional_dense_g_or_w_is_refused_by_its_axis_count():
    """A dense G and (P)'s W need two axes: check_array's rule names the count."""
    with pytest.raises(ValueError, match=re.escape("`G` must have at least 2 axes")):
        kkt.qp_kkt_report(np.ones(2), np.ones(2), np.ones(1), np.ones(1))
    X, y = np.array([[1.0, 0.0], [-1.0, 0.0]]), np.array([1.0, -1.0])
    with pytest.raises(ValueError, match=re.escape("`W` must have at least 2 axes")):
        kkt.kkt_certificate(np.ones(2), X, y, alpha=0.5)
