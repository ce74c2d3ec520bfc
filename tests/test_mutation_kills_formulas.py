"""Tests written for the survivors of the population pass over the mutation targets
loss-scaled and bounds-formulas (the scaled loss terms of the late flow, Theorem 4.1's
constants): each names, in ``tools/mutation_notes_formulas.py``, the mutant it kills and why
no claim check does."""
import re

import mpmath as mp
import numpy as np
import pytest

from linteach import bounds, loss
from linteach.bounds import ROUND_UP, sgd_update_bound
from mp_reference import thm41_constants
from tolerances import REFERENCE

#: working precision of the mpmath references (far beyond float64's 16 digits)
DPS = 50


def _smoothed_reference(q_hat, log_norm) -> float:
    """γ̃ = −log(e^{L_sum} − 1)/‖W‖ of the margins ‖W‖q̂ (Eq. 5, summed loss), in mpmath."""
    with mp.workdps(DPS):
        norm = mp.exp(mp.mpf(log_norm))
        l_sum = mp.fsum(mp.log1p(mp.exp(-mp.mpf(float(v)) * norm)) for v in q_hat)
        return float(-mp.log(mp.expm1(l_sum)) / norm)


def _mp_logsumexp(row):
    """log Σ e^{a_i} of one row in mpmath: −inf entries are zeros of the sum, +inf wins."""
    if np.any(row == np.inf):
        return np.inf
    with mp.workdps(DPS):
        total = mp.fsum(mp.exp(mp.mpf(a)) for a in row if a != -np.inf)
        return float(mp.log(total)) if total else -np.inf


def _mp_loss_terms(q_hat, log_norm):
    """log L_sum = log Σ ℓ(q_i) and the weights g(q_i)/L_sum at q = e^{log_norm} q̂, in mpmath
    from the definitions ℓ(q) = log(1 + e^{−q}), g(q) = 1/(1 + e^{q}) (docs/math.md §2)."""
    with mp.workdps(DPS):
        q = [mp.mpf(float(v)) * mp.exp(mp.mpf(float(log_norm))) for v in q_hat]
        l_sum = mp.fsum(mp.log1p(mp.exp(-v)) for v in q)
        return float(mp.log(l_sum)), np.array([float(1 / (1 + mp.exp(v)) / l_sum) for v in q])


# -- logsumexp and _logsumexp_inf --------------------------------------------------------------
@pytest.mark.parametrize("a, rule", [(3.0, "must have at least 1 axis, got shape ()"),
                                     (np.array(3.0), "must have at least 1 axis"),
                                     (np.empty((2, 0)), "must not be empty along its last axis")])
def test_logsumexp_refuses_a_scalar_and_an_empty_last_axis_naming_a(a, rule):
    """logsumexp reduces over the last axis: a scalar has none and an empty one has no
    maximum, so both are refused with a ValueError naming `a` and the rule."""
    with pytest.raises(ValueError, match=re.escape(f"`a` {rule}")):
        loss.logsumexp(a)


def test_logsumexp_of_a_3d_array_with_infinite_entries_reduces_the_last_axis():
    """A 3-D array with ±inf entries (the route for rows whose maximum is not finite):
    each of the 2·3 rows along the last axis against log Σ e^{a_i} in mpmath, −inf entries
    being zeros of the sum (−inf if all are) and +inf giving +inf."""
    a = np.random.default_rng(5).normal(size=(2, 3, 4)) * 10.0
    a[0, 0] = -np.inf  # a row of zeros only
    a[0, 1, 2] = -np.inf  # one zero in a finite row
    a[1, 2, 1] = np.inf
    want = np.array([[_mp_logsumexp(row) for row in plane] for plane in a])
    got = loss.logsumexp(a)
    assert got.shape == (2, 3)
    np.testing.assert_allclose(got, want, rtol=REFERENCE)



def test_logsumexp_beside_a_plus_inf_maximum_is_plus_inf_and_silent():
    """``+inf`` gives ``+inf``, warning-free like every function of the module, also when the
    row's finite entries are past 709.78 (e^a overflows there); a finite row beside it
    against mpmath.  Tests run with warnings as errors."""
    a = np.array([[np.inf, 710.0, -5.0], [np.inf, 800.0, np.inf], [709.0, 709.5, -np.inf]])
    got = loss.logsumexp(a)
    np.testing.assert_allclose(got, [_mp_logsumexp(row) for row in a], rtol=REFERENCE)
    assert got[0] == got[1] == np.inf


# -- log_expm1_exp -------------------------------------------------------------------------------
@pytest.mark.parametrize("log_x", [710.0, np.array([0.0, 800.0]), np.inf])
def test_log_expm1_exp_refuses_log_x_past_float64_s_range(log_x):
    """log(e^x − 1) = x is no float once log x > log(max float) = 709.78: a ValueError naming
    `log_x`, the rule and the value, not an overflow to inf."""
    with pytest.raises(ValueError, match=re.escape(
            "`log_x` must be <= 709.783 (log(e^x - 1) = x would overflow float64), got ")):
        loss.log_expm1_exp(log_x)


def test_log_expm1_exp_accepts_log_x_up_to_float64_s_range():
    """Up to log x = log(largest float) itself the value is x = e^{log x} (e^x − 1 = e^x to
    double precision), against mpmath."""
    log_x = np.array([3.0, 700.0, 709.78, np.log(np.finfo(np.float64).max)])
    with mp.workdps(DPS):
        want = [float(mp.log(mp.expm1(mp.exp(mp.mpf(v))))) for v in log_x]
    np.testing.assert_allclose(loss.log_expm1_exp(log_x), want, rtol=REFERENCE)


def test_log_expm1_exp_of_tiny_x_is_correctly_rounded():
    """Below the switch at log x = −20 the series log x + x/2 is used, whose error x²/24 <
    1e-18 is far below half an ulp of log x (≥ 1.8e-15): the result is the correctly rounded
    value, against mpmath, on a grid just below the switch and far out, where e^{log x}
    underflows (log x = −800 and −1e4) or is 0 (−inf)."""
    log_x = np.concatenate([np.linspace(-21.0, -20.0, 21, endpoint=False),
                            [-800.0, -1e4, -np.inf]])
    with mp.workdps(DPS):
        want = np.array([float(mp.log(mp.expm1(mp.exp(mp.mpf(v))))) if v > -np.inf
                         else -np.inf for v in log_x])
    np.testing.assert_array_equal(loss.log_expm1_exp(log_x), want)

# -- scaled_loss_terms, log_sum_loss_scaled, smoothed_margin_scaled ------------------------------
def test_scaled_loss_terms_and_log_sum_loss_scaled_take_checked_by_keyword_only():
    """The signatures ``scaled_loss_terms(q_hat, log_norm, *, checked)`` and
    ``log_sum_loss_scaled(lead, rest, log_norm, *, checked)``: the data may be passed by
    name, and ``checked`` (which skips the argument checks) only by name, so a stray third
    or fourth positional argument cannot switch the checks off."""
    q_hat, log_norm = np.array([0.2, -0.4, 0.7]), 1.5
    lead, rest, log_w = loss.scaled_loss_terms(q_hat=q_hat, log_norm=log_norm)
    np.testing.assert_array_equal(log_w, loss.scaled_loss_terms(q_hat, log_norm)[2])
    assert loss.log_sum_loss_scaled(lead=lead, rest=rest, log_norm=log_norm) == \
        loss.log_sum_loss_scaled(lead, rest, log_norm)
    with pytest.raises(TypeError):
        loss.scaled_loss_terms(q_hat, log_norm, False)
    with pytest.raises(TypeError):
        loss.log_sum_loss_scaled(lead, rest, log_norm, False)


@pytest.mark.parametrize("args, match", [
    ((0.0, np.nan, 0.0), "`rest` must not contain NaN"),
    ((np.nan, 0.0, 0.0), "`lead` must not contain NaN"),
    ((0.5, 0.0, np.inf), "`log_norm` must be < inf (log ‖W‖ of a finite W), got inf"),
    ((-0.5, 0.0, 0.0), "`lead` must be >= 0 (min q̂ of a far run, or 0), got -0.5")])
def test_log_sum_loss_scaled_checks_its_arguments_by_default(args, match):
    """``checked`` defaults to True: a NaN, ``log ‖W‖ = +inf`` or a negative lead is refused
    with a ValueError naming the argument, the rule and the value."""
    with pytest.raises(ValueError, match=re.escape(match)):
        loss.log_sum_loss_scaled(*args)


@pytest.mark.parametrize("lead", [-0.5, np.array([0.3, -1e-300])])
def test_smoothed_margin_scaled_and_log_sum_loss_scaled_refuse_a_negative_lead(lead):
    """``lead`` is what scaled_loss_terms returns: a far run's min q̂ > 0, or 0 with
    ``rest = log L_sum``.  A negative lead is none of these; read as 0 (as it was) it gave an
    answer contradicting the documented log L_sum = rest − ‖W‖·lead, so it is refused
    naming `lead`, the rule and the value."""
    for f in (loss.smoothed_margin_scaled, loss.log_sum_loss_scaled):
        with pytest.raises(ValueError, match=r"`lead` must be >= 0 \(min q̂ of a far run, or "
                                             r"0\), got -"):
            f(lead, 0.0, 1.0)


@pytest.mark.parametrize("log_norm", [float(np.log(100.0)), 50.0, 800.0])
def test_scaled_loss_terms_of_a_run_with_a_misclassified_margin_past_30(log_norm):
    """q̂ = (−½, ½): every |q_i| = ½‖W‖ exceeds 30, but one point is misclassified, so the
    run is near: lead = 0 and rest = log L_sum, against the definition in mpmath; the
    weights g_i/L_sum too.  At ‖W‖ = e^50 the correctly classified ℓ(q) ≈ e^{−q} is a
    negligible term beside the misclassified one's ℓ ≈ |q|; at ‖W‖ = e^800 neither margin is
    a float and log ℓ of the misclassified one is log |q| = log ½ + 800."""
    q_hat = np.array([-0.5, 0.5])
    lead, rest, log_w = loss.scaled_loss_terms(q_hat, log_norm)
    want_rest, want_w = _mp_loss_terms(q_hat, log_norm)
    assert lead == 0.0
    np.testing.assert_allclose(rest, want_rest, rtol=REFERENCE)
    np.testing.assert_allclose(np.exp(log_w), want_w, rtol=REFERENCE)
    np.testing.assert_allclose(loss.log_sum_loss_scaled(lead, rest, log_norm), want_rest,
                               rtol=REFERENCE)



def test_smoothed_margin_past_the_far_switch_keeps_the_half_loss_term():
    """Past the far switch γ̃‖W‖ = −log(e^{L_sum} − 1) = −log L_sum − L_sum/2 + O(L_sum²)
    (docs/math.md §4.2): with 300 margins just past 30, L_sum ≈ 2e-11 beside γ̃‖W‖ ≈ 25, so
    the L_sum/2 term is 3e-13 of γ̃, which the mpmath value of the definition (Eq. 5, summed
    loss) resolves at 1e-14."""
    q_hat = 0.5 + 1e-4 * np.linspace(0.0, 1.0, 300)
    log_norm = float(np.log(61.0))  # margins 30.5 to 30.506
    lead, rest, _ = loss.scaled_loss_terms(q_hat, log_norm)
    assert lead > 0  # the far (split) form
    np.testing.assert_allclose(loss.smoothed_margin_scaled(lead, rest, log_norm),
                               _smoothed_reference(q_hat, log_norm), rtol=REFERENCE)

# -- bounds._direct: Theorem 4.1's constants by their formulas ---------------------------------
#: arguments with no 1 among R_x, v, k, η, ‖w*‖ (where a wrong power is invisible), c large
#: beside b² in one, ε0 tiny (1 − e^{−ε0} by expm1) and R_0 = 0 (c = 0) in another
BOUND_CASES = [
    dict(n=7, eps=0.3, R_x=1.3, R_0=0.02, alpha=0.2, k=3, eta=0.07, v=0.6, w_star_norm=4.5),
    dict(n=2, eps=2.5, R_x=0.4, R_0=30.0, alpha=0.9, k=2, eta=2.0, v=1.7, w_star_norm=0.3),
    dict(n=50, eps=1e-7, R_x=2.0, R_0=0.0, alpha=0.05, k=11, eta=0.5, v=0.25,
         w_star_norm=20.0)]


def _mp_bound(**case):
    """ε0, a, b, c, T_exact and M by the page's formulas (tests/mp_reference.py), in floats."""
    ref = thm41_constants(**case)
    return [float(ref[key]) for key in ("eps0", "a", "b", "c", "T", "M")]


@pytest.mark.parametrize("case", BOUND_CASES)
def test_sgd_update_bound_is_the_page_s_formulas_at_arguments_other_than_one(case):
    """ε0, a, b, c, T_exact and M (docs/math.md §3.4, §3.6) against the page's formulas in
    mpmath; T_exact and M carry the documented round-up by ROUND_UP (2^-40)."""
    bd = sgd_update_bound(**case)
    want = _mp_bound(**case)
    got = [bd.eps0, bd.a, bd.b, bd.c, bd.T_exact / (1 + ROUND_UP), bd.M / (1 + ROUND_UP)]
    np.testing.assert_allclose(got, want, rtol=REFERENCE)


@pytest.mark.parametrize("case", BOUND_CASES)
def test_the_direct_evaluation_of_the_bound_is_silent_and_exact_at_moderate_arguments(case):
    """sgd_update_bound evaluates the formulas directly in float64, with every overflow and
    underflow raising, and goes through logarithms only when that raises.  At these moderate
    arguments nothing leaves float64: the direct evaluation itself must not raise and must
    give the formulas (mpmath), to rounding."""
    with np.errstate(all="raise"):
        got = bounds._direct(*(np.float64(case[name]) for name in (
            "n", "eps", "R_x", "R_0", "alpha", "k", "eta", "v", "w_star_norm")))
    np.testing.assert_allclose([float(x) for x in got], _mp_bound(**case), rtol=REFERENCE)


@pytest.mark.parametrize("log_norm", [650.0, 705.0, 709.0, 800.0])
def test_scaled_loss_terms_log_weights_of_margins_near_the_end_of_float64(log_norm):
    """q̂ = (−1, 1, 0) at ‖W‖ = e^650 … e^800: a near run (misclassified and on-the-kink
    points) whose positive margin q = ‖W‖ is a float up to ‖W‖ = 1.8e308.  Its log weight
    log(g(q)/L_sum) = −q − log1p(e^{−q}) − log L_sum is then the float −q − log L_sum, and
    −inf past float64 (the documented "finite or −inf"), against mpmath."""
    q_hat = np.array([-1.0, 1.0, 0.0])
    _lead, rest, log_w = loss.scaled_loss_terms(q_hat, log_norm)
    with mp.workdps(DPS):
        q = [v * mp.exp(mp.mpf(log_norm)) for v in (-1, 1, 0)]
        log_l_sum = mp.log(mp.fsum(mp.log1p(mp.exp(-v)) for v in q))
        want = np.array([float(-mp.log1p(mp.exp(v)) - log_l_sum) for v in q])
    np.testing.assert_allclose(rest, float(log_l_sum), rtol=REFERENCE)
    np.testing.assert_allclose(log_w, want, rtol=REFERENCE)

@pytest.mark.parametrize("checked", [True, False])
@pytest.mark.parametrize("log_norm", [[[5.0, 50.0, 0.5], [6.0, -1.0, 800.0]],
                                      [[0.5, 50.0, 0.5], [1.0, -1.0, 800.0]]])
def test_scaled_loss_terms_of_a_3d_batch_equal_each_run_alone(checked, log_norm):
    """q̂ of shape (2, 3, n) with log ‖W‖ of shape (2, 3): six runs, far (every margin past
    30), near, and near with a misclassified margin past e^40 or a margin on the kink, each
    given what it gets alone (the reductions run over the last axis, checked or not); the
    log-loss sum too.  Once with a far run among them, once with near runs only."""
    rng = np.random.default_rng(11)
    q_hat = rng.uniform(0.2, 1.0, size=(2, 3, 5))
    q_hat[0, 1, 2] = -0.4  # misclassified
    q_hat[1, 0, 0] = 0.0  # on the kink
    q_hat[1, 2, 1] = -0.3  # misclassified: near at any norm
    log_norm = np.array(log_norm)
    together = loss.scaled_loss_terms(q_hat, log_norm, checked=checked)
    lsl = loss.log_sum_loss_scaled(*together[:2], log_norm, checked=checked)
    for i in range(2):
        for j in range(3):
            alone = loss.scaled_loss_terms(q_hat[i, j], log_norm[i, j])
            for a, b in zip(together, alone):
                np.testing.assert_allclose(a[i, j], b, rtol=REFERENCE)
            np.testing.assert_allclose(lsl[i, j], loss.log_sum_loss_scaled(*alone[:2],
                                                                           log_norm[i, j]),
                                       rtol=REFERENCE)


@pytest.mark.parametrize("log_norm", [0.0, 1.0, -2.0])
def test_smoothed_margin_of_a_near_run_is_the_definition(log_norm):
    """A near run (lead = 0, L_sum of order one here) takes γ̃ = −log(e^{L_sum} − 1)/‖W‖
    itself (Eq. 5, summed loss), not the far runs' series −(log L_sum + L_sum/2)/‖W‖,
    against mpmath."""
    q_hat = np.array([0.1, -0.2, 0.3])
    lead, rest, _ = loss.scaled_loss_terms(q_hat, log_norm)
    assert lead == 0.0
    np.testing.assert_allclose(loss.smoothed_margin_scaled(lead, rest, log_norm),
                               _smoothed_reference(q_hat, log_norm), rtol=REFERENCE)


@pytest.mark.parametrize("q_hat, log_norm, match", [
    ([0.5, np.nan], 1.0, "`q_hat` must not contain NaN"),
    ([0.5, 1.0], np.nan, "`log_norm` must not contain NaN"),
    ([0.5, 1.0], np.inf, "`log_norm` must be < inf (log ‖W‖ of a finite W), got inf"),
    (0.5, 1.0, "`q_hat` must have at least 1 axis, got shape ()")])
def test_scaled_loss_terms_checks_its_arguments_by_default(q_hat, log_norm, match):
    """``checked`` defaults to True: a NaN, log ‖W‖ = +inf and a scalar q̂ (no axis to
    reduce) are refused with a ValueError naming the argument and the rule; a list is
    taken as the array it spells."""
    with pytest.raises(ValueError, match=re.escape(match)):
        loss.scaled_loss_terms(q_hat, log_norm)
    for a, b in zip(loss.scaled_loss_terms([0.5, -1.0], 2.0),
                    loss.scaled_loss_terms(np.array([0.5, -1.0]), 2.0)):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("q, rule", [(0.5, "must have at least 1 axis, got shape ()"),
                                     (np.empty((3, 0)), "must not be empty along its last axis")])
def test_log_sum_loss_refuses_a_scalar_and_an_empty_last_axis_naming_q(q, rule):
    """log L_sum sums over the last axis: a scalar margin has none and an empty one sums
    no loss, so both are refused with a ValueError naming `q` and the rule."""
    with pytest.raises(ValueError, match=re.escape(f"`q` {rule}")):
        loss.log_sum_loss(q)


def test_scaled_loss_terms_checks_log_norm_before_looking_for_nan_in_q_hat():
    """scaled_loss_terms finds a NaN in q̂ through each run's minimum (np.min propagates
    NaN), which it takes after checking log ‖W‖: one pass fewer over the margins on the
    flow's hot path.  So with both arguments bad the error names `log_norm`, and with q̂
    alone bad it names `q_hat`."""
    with pytest.raises(ValueError, match=re.escape("`log_norm` must be < inf")):
        loss.scaled_loss_terms(np.array([[np.nan, 1.0], [0.5, 0.2]]), np.inf)
    with pytest.raises(ValueError, match=re.escape("`q_hat` must not contain NaN")):
        loss.scaled_loss_terms(np.array([[np.nan, 1.0], [0.5, 0.2]]), np.zeros(2))
