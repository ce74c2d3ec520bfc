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
