"""Logistic loss in log space (docs/math.md §2).

Conventions, stated once:

* ``q`` are margins ``q_i = y_i N_W(x_i)``, shape ``(..., n)``; reductions run over the
  last axis.
* ``ℓ(q) = log(1 + e^{-q})`` and ``g(q) = -ℓ'(q) = 1 / (1 + e^{q})``.
* The training objective ``L`` is the **mean** over points (Eq. 2).  The Lyu & Li
  quantities (smoothed margin, Eq. 5; Assumption 6.1) use the **sum** ``L_sum = n L``.
* Late gradient flow drives margins into the hundreds, where ``ℓ`` underflows float64;
  every function here stays finite and warning-free for margins of ±1e4 and beyond
  because it works with ``log ℓ`` and ``log g`` instead.
* Input: anything array-like of real numbers (``TypeError`` naming the argument
  otherwise); NaN is refused with a ``ValueError`` naming the argument; ``±inf`` margins
  give their limits (``ℓ(+inf) = 0``, ``g(−inf) = 1``, ...).
"""
from __future__ import annotations

import numbers

import numpy as np
from scipy.special import expit, log_expit

__all__ = ["ell", "g", "log_g", "log_ell", "logsumexp", "mean_loss", "log_sum_loss",
           "log_expm1_exp", "scaled_loss_terms", "log_sum_loss_scaled",
           "smoothed_margin_scaled", "smoothed_margin_from"]


_F64 = np.dtype(np.float64)


def _nan_free(name, arr):
    # one pass over the array; a single value (one run) costs no numpy call at all
    bad = (arr.item() != arr.item()) if arr.size == 1 else (arr.size and np.isnan(arr).any())
    if bad:
        raise ValueError(f"`{name}` must not contain NaN")
    return arr


def _log_norm(log_norm):
    """``log ‖W‖``: ``−inf`` (W = 0) is a state, ``+inf`` is not."""
    log_norm = _real("log_norm", log_norm)
    if np.any(log_norm == np.inf):
        raise ValueError("`log_norm` must be < inf (log ‖W‖ of a finite W), got inf")
    return log_norm


def _real(name, a, *, min_ndim=0, nan_check=True):
    """``a`` as float64, NaN refused (float64 input passes untouched: these are hot paths)."""
    t = type(a)
    if (t is np.float64 or t is float) and not min_ndim:
        if a != a:
            raise ValueError(f"`{name}` must not contain NaN")
        return a
    if t is np.ndarray and a.dtype is _F64:
        arr = a
    else:
        if isinstance(a, (str, bytes)) or a is None:
            raise TypeError(f"`{name}` must be array-like of real numbers, got "
                            f"{type(a).__name__}")
        try:
            arr = np.asarray(a)
        except Exception as exc:  # ragged lists and the like
            raise TypeError(f"`{name}` must be array-like of real numbers: {exc}") from None
        if arr.dtype == object and arr.ndim == 0 and isinstance(a, numbers.Integral):
            raise ValueError(f"`{name}` must be finite in float64, got an integer of "
                             f"{len(str(abs(int(a))))} digits")
        if not (np.issubdtype(arr.dtype, np.number) or arr.dtype == bool) \
                or np.iscomplexobj(arr):
            raise TypeError(f"`{name}` must hold real numbers, got dtype {arr.dtype}")
        arr = arr.astype(np.float64)
    if arr.ndim < min_ndim:
        raise ValueError(f"`{name}` must have at least {min_ndim} axis, got shape {arr.shape}")
    if min_ndim and arr.shape[-1] == 0:
        raise ValueError(f"`{name}` must not be empty along its last axis, got shape "
                         f"{arr.shape}")
    return _nan_free(name, arr) if nan_check else arr


#: Above this margin log ℓ(q) = -q - e^{-q}/2 to double precision (next term is e^{-2q}/24).
_LOG_ELL_SERIES_FROM = 30.0


def ell(q):
    """Logistic loss ``ℓ(q) = log(1 + e^{-q})``, elementwise, never overflowing."""
    return np.logaddexp(0.0, -_real("q", q))


def g(q):
    """``g(q) = -ℓ'(q) = 1/(1 + e^{q})`` in (0, 1) (underflows to 0 only past q ≈ 745)."""
    return expit(-_real("q", q))


def log_g(q):
    """``log g(q) = -log(1 + e^{q})``, finite for every finite ``q``."""
    return log_expit(-_real("q", q))


def log_ell(q):
    """``log ℓ(q)``, finite for every finite ``q`` (ℓ itself underflows past q ≈ 745)."""
    return _log_ell(_real("q", q))


def _log_ell(q):
    far = np.greater(q, _LOG_ELL_SERIES_FROM)  # an array or np.bool_ also for a float q
    if not far.any():  # the same values as below, without the series' three selections
        return np.log(np.logaddexp(0.0, -q))
    near_q = np.where(far, 0.0, q)
    far_q = np.where(far, q, _LOG_ELL_SERIES_FROM)
    return np.where(far, -far_q - 0.5 * np.exp(-far_q), np.log(np.logaddexp(0.0, -near_q)))


def logsumexp(a):
    """``log Σ exp(a)`` over the last axis (scipy's is ~10× slower on small arrays).

    ``−inf`` entries are exact zeros of the sum (``−inf`` if all are); ``+inf`` gives ``+inf``.
    """
    return _logsumexp_inf(_real("a", a, min_ndim=1))


def _logsumexp_inf(a):
    """:func:`logsumexp` of a validated array, ``±inf`` entries allowed."""
    m = a.max(axis=-1, keepdims=True)
    if np.all(np.isfinite(m)):
        return _logsumexp(a)
    shift = np.where(np.isfinite(m), m, 0.0)
    # log 0 = −inf for all-(−inf) rows; beside a +inf maximum, e^a of an entry past 709.78
    # overflows: both rows' values are discarded below, for their maximum
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        out = shift[..., 0] + np.log(np.exp(a - shift).sum(axis=-1))
    return np.where(np.isfinite(m[..., 0]), out, m[..., 0])


def _logsumexp(a):
    """:func:`logsumexp` of a validated array whose rows have a finite maximum."""
    m = a.max(axis=-1, keepdims=True)
    return m[..., 0] + np.log(np.exp(a - m).sum(axis=-1))


def mean_loss(q):
    """The training loss ``L = (1/n) Σ ℓ(q_i)`` over the last axis (Eq. 2)."""
    return ell(_real("q", q, min_ndim=1)).mean(axis=-1)


def log_sum_loss(q):
    """``log L_sum = log Σ_i ℓ(q_i)`` over the last axis, finite in the late phase."""
    return _logsumexp_inf(_log_ell(_real("q", q, min_ndim=1)))


def log_expm1_exp(log_x):
    """``log(e^{x} - 1)`` given ``log x``, stable for tiny and large ``x``.

    For ``x`` past float64's range (``log x > 709.78``) the value ``≈ x`` is not
    representable: a ``ValueError`` naming ``log_x``.
    """
    return _log_expm1_exp(_real("log_x", log_x))


def _log_expm1_exp(log_x):
    if np.any(log_x > _LOG_MAX):
        raise ValueError(f"`log_x` must be <= {_LOG_MAX:.6g} (log(e^x - 1) = x would overflow "
                         f"float64), got {np.max(log_x)!r}")
    small = log_x < -20.0  # x < 2e-9: log(expm1(x)) = log x + x/2 + O(x^2)
    x = np.exp(np.where(small, -20.0, log_x))
    big = np.log(-np.expm1(-x)) + x  # log(e^x - 1) = x + log(1 - e^{-x})
    return np.where(small, log_x + 0.5 * np.exp(np.where(small, log_x, -20.0)), big)


#: log of float64's largest value
_LOG_MAX = float(np.log(np.finfo(np.float64).max))


#: past this margin ℓ(q) = g(q) = e^{-q}(1 + O(e^{-q})): margins enter only through differences
_FAR_MARGIN = 30.0
_LOG_FAR_MARGIN = float(np.log(_FAR_MARGIN))
#: a misclassified margin this large in log (|q| > e^40) has ℓ(q) = |q| to double precision
_HUGE_LOG_MARGIN = 40.0


def scaled_loss_terms(q_hat, log_norm, *, checked: bool = True):
    """Loss terms at margins ``q = e^{log_norm} q̂`` for any ``log_norm``, ‖W‖ past float64 too.

    Parameters
    ----------
    q_hat : ndarray, shape ``(..., n)``
        Margins of the unit-norm direction ``W/‖W‖``.
    log_norm : ndarray, shape ``(...)``
        ``log ‖W‖``.
    checked : bool
        ``False`` skips the argument checks (NaN, ``log_norm = +inf``, dtype): for the
        trainers' step loop only, which passes float64 arrays of its own and runs under
        :func:`linteach.errors.float_guard`, where no operation makes a NaN without raising.

    Returns
    -------
    lead, rest : ndarray, shape ``(...)``
        ``log L_sum = rest − e^{log_norm}·lead``.  ``lead = min q̂ > 0`` for runs whose
        every margin exceeds 30 (there only the split form keeps its precision: ``L_sum``
        may be far below any float); otherwise ``lead = 0`` and ``rest = log L_sum``.
    log_w : ndarray, shape ``(..., n)``
        ``log(g(q_i) / L_sum)``: the per-point weights of ``∇L/L``, finite or −inf.

    Notes
    -----
    With every ``q_i > 30``, ``log ℓ(q) = −q − e^{−q}/2`` and ``log g(q) = −q − e^{−q}`` to
    double precision, so with shifted margins ``s_i = ‖W‖(q̂_i − min q̂) ≥ 0`` (exact even
    when ``q`` itself is not representable) ``rest = log Σ e^{−s_i − e^{−q_i}/2}`` and
    ``log(g_i/L_sum) = −s_i − e^{−q_i} − rest``.  Otherwise margins are formed directly,
    except that a misclassified margin past ``−e^40`` enters as ``log ℓ = log |q|``.
    """
    if checked:
        q_hat = _real("q_hat", q_hat, min_ndim=1, nan_check=False)
        ln = np.asarray(_log_norm(log_norm))[..., None]
        q_min = _nan_free("q_hat", q_hat.min(axis=-1, keepdims=True))  # min propagates NaN
    else:
        ln, q_min = np.asarray(log_norm)[..., None], q_hat.min(axis=-1, keepdims=True)
    # exact limits, not accidents: log 0 = −inf (q̂ = 0, the argmin) and e^{huge} = inf
    with np.errstate(divide="ignore", over="ignore"):
        t = ln + np.log(np.abs(q_hat))  # log |q_i|
        size = np.exp(np.minimum(t, 700.0))  # |q_i|
    far = (q_min > 0) & (t.min(axis=-1, keepdims=True) > _LOG_FAR_MARGIN)
    # evaluate only the branches some run needs (this is a hot path of the flow)
    any_far, all_far = bool(far.any()), bool(far.all())
    if any_far:
        with np.errstate(divide="ignore", over="ignore"):
            neg_s = -np.exp(ln + np.log(q_hat - q_min))
        tail = np.exp(-size)  # e^{-q_i} ≤ e^{-30} on far runs (their q are positive)
        rest_far = _logsumexp(neg_s - 0.5 * tail)
        if all_far:
            return q_min[..., 0], rest_far, neg_s - tail - rest_far[..., None]
    q = np.sign(q_hat) * size
    log_l = np.where((q_hat < 0) & (t > _HUGE_LOG_MARGIN), t, _log_ell(q))
    rest_near = _logsumexp(log_l)  # finite: a near run has a margin ≤ 30
    with np.errstate(over="ignore"):  # the margins uncapped for log g(q) = −q: a margin past
        q = np.sign(q_hat) * np.exp(t)  # e^700 has a log weight of its own, −inf past float64
    if not any_far:
        return np.zeros(q_min.shape[:-1]), rest_near, log_expit(-q) - rest_near[..., None]
    rest = np.where(far[..., 0], rest_far, rest_near)
    log_w = np.where(far, neg_s - tail - rest_far[..., None], log_expit(-q) - rest_near[..., None])
    return np.where(far[..., 0], q_min[..., 0], 0.0), rest, log_w


def log_sum_loss_scaled(lead, rest, log_norm, *, checked: bool = True):
    """``log L_sum`` from :func:`scaled_loss_terms` (``−inf`` once it is below any float);
    ``checked`` as there."""
    if not checked:
        return _lsl_scaled(lead, rest, log_norm)
    lead = _real("lead", lead)
    if np.any(lead < 0):  # only 0 (rest = log L_sum) or a far run's min q̂ > 0 means anything
        raise ValueError("`lead` must be >= 0 (min q̂ of a far run, or 0), got "
                         f"{float(np.min(lead))!r}")
    return _lsl_scaled(lead, _real("rest", rest), _log_norm(log_norm))


def _lsl_scaled(lead, rest, log_norm):
    with np.errstate(over="ignore", invalid="ignore"):  # e^{log_norm}·0 for lead = 0 runs
        big = np.where(lead > 0, np.exp(log_norm) * lead, 0.0)
    return rest - big


def smoothed_margin_scaled(lead, rest, log_norm):
    """``γ̃`` from :func:`scaled_loss_terms`, finite for every ‖W‖ (Eq. 5, summed loss)."""
    lead, rest = _real("lead", lead), _real("rest", rest)
    if np.any(lead < 0):  # only 0 (rest = log L_sum) or a far run's min q̂ > 0 means anything
        raise ValueError("`lead` must be >= 0 (min q̂ of a far run, or 0), got "
                         f"{float(np.min(lead))!r}")
    log_norm = _log_norm(log_norm)
    direct = _smoothed_from(np.where(lead > 0, -30.0, rest), log_norm)
    # L_sum ≤ n e^{-30}: −log(e^L − 1) = −log L − L/2 + O(L²), and −log L = ‖W‖ lead − rest
    with np.errstate(over="ignore"):  # used only where lead > 0, i.e. L_sum ≤ n e^{-30}
        half_l = 0.5 * np.exp(_lsl_scaled(lead, rest, log_norm))
    with np.errstate(over="ignore"):  # ‖W‖ below e^-709: γ̃ is honestly ±inf
        return np.where(lead > 0, lead - (rest + half_l) * np.exp(-log_norm), direct)


def smoothed_margin_from(log_loss_sum, log_norm):
    """Smoothed margin ``γ̃ = -log(e^{L_sum} - 1) / ‖W‖`` (Eq. 5, summed loss).

    Takes ``log L_sum`` and ``log ‖W‖`` so it stays finite when ``L_sum`` underflows or
    overflows (then ``γ̃ = −L_sum/‖W‖`` to double precision) and when ``‖W‖`` overflows.
    ``γ̃ ≤ γ̄`` for every ``W ≠ 0`` (docs/math.md §4.2); it is positive once ``L_sum < log 2``.
    """
    return _smoothed_from(_real("log_loss_sum", log_loss_sum), _log_norm(log_norm))


def _smoothed_from(log_loss_sum, log_norm):
    # past log L_sum = 709.78 (a misclassified point far out) log(e^L − 1) = L to double
    # precision, but L is no float: γ̃ = −L/‖W‖ = −e^{log L − log ‖W‖}, finite
    huge = log_loss_sum > _LOG_MAX
    with np.errstate(over="ignore"):  # ‖W‖ below e^-709: γ̃ honestly ±inf
        direct = -_log_expm1_exp(np.where(huge, 0.0, log_loss_sum)) * np.exp(-log_norm)
        return np.where(huge, -np.exp(log_loss_sum - log_norm), direct)
