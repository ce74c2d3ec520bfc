"""An adversarial search over nets of width k for the largest own sharp constant c*(W).

Theorem (docs/claims/thm5.1.md): every net of width k has ``c*(W) ≤ c_k(α)``.  This search
tries to refute it, and measures how close a search that does not know the extremal net
gets: restarted Nelder–Mead maximising ``c*(W)/c_k(α)``.

**Parametrisation (stated, lower-dimensional).**  ``d = 2`` (padded with zero columns for
larger d, which changes no sign); every w neuron at one point ``w̄`` (step 1 of the proof:
spreading the w neurons only helps agreement, so the search need not explore it); the u
neurons at ``ū + t_j·e_1`` with ``t = tanh(z) − mean(tanh(z))`` (one common axis of
deviation; it is e_1 without loss of generality, the problem being rotation invariant).
So θ = ``(w̄, ū, z)`` has ``k + 4`` entries, all drawn at random (normal), with no
knowledge of the extremal net.  The search must find
where the u deviations go (half up, half down, an odd one at the mean) and the offsets
that put ``w̄·x = 0`` at ``D = c·r‖x‖``.  ``full=True`` drops the restriction: θ is the whole
planar ``W`` (``4k`` entries, every neuron free), a search that assumes nothing of the proof.

**Objective.**  ``c*(W)/c_k(α)`` of the planar net, by the line walk of
:mod:`linteach.certify.plane` (in floats: about half a millisecond, so the search can afford
thousands of evaluations at the standard budget).  A float value within 1e-9 of ``c_k(α)``
or above it is re-decided in rationals (``c*(W)² > c_k(α)²`` exactly would be a
counterexample: ``exceeded``).  The best net is then decided twice more: ``c*(W)²`` exactly
in rationals by the same walk, and bracketed independently by :func:`linteach.certify.c_star`
(norm-QP branch and bound, a certificate re-checked in rationals), which must contain it.

Schedule: ``restarts`` random starts (each the best of :data:`SCREEN` random nets), each
``evals`` evaluations of Nelder–Mead and then ``polish`` rounds from that start's best θ
(the best of all starts is the answer): a sweep moving each
deviation to either end of its range or to the mean (kept only if it helps: a box-boundary
move that Nelder–Mead, in the tanh coordinates, only approaches slowly), a restart with a
shrinking simplex (0.1, 0.03, 0.01, …), and one over the means w̄, ū alone (``full``: the
shrinking simplex only).
"""
from __future__ import annotations

import numpy as np
from scipy.optimize import minimize

from fractions import Fraction

from .._check import check_alpha, check_int, check_real
from .plane import plane_c_star
from .sharp import sharp_constant

__all__ = ["adversarial_search", "net_of", "SCREEN"]

#: random nets drawn per restart; the best of them starts the restart's simplex
SCREEN = 24
#: |z_j| of a saturated deviation in the polishing sweeps (tanh(8) = 1 − 2e-7)
SATURATE = 8.0


def net_of(theta, k: int, d: int = 2, *, full: bool = False) -> np.ndarray:
    """The net ``W (2k, d)`` of the search's parameters θ = ``(w̄, ū, z)`` (see above), or of
    the whole planar net (``full``: θ is ``W (2k, 2)`` flattened)."""
    theta = np.asarray(theta, dtype=np.float64)
    if full:
        W = np.zeros((2 * k, d))
        W[:, :2] = theta.reshape(2 * k, 2)
        return W
    w_bar, u_bar, z = theta[:2], theta[2:4], theta[4:4 + k]
    t = np.tanh(z)
    t -= t.mean()
    W = np.zeros((2 * k, d))
    W[:k, :2] = w_bar
    W[k:, :2] = u_bar
    W[k:, 0] += t
    return W


def adversarial_search(k, alpha, *, d: int = 2, restarts: int = 2, evals: int = 60,
                       polish: int = 6, rtol: float = 1e-4, full: bool = False,
                       rng=0) -> dict:
    """Maximise ``c*(W)/c_k(α)`` over nets of width k (module docstring: parametrisation,
    objective, schedule).

    Returns ``{"k", "alpha", "c_k", "best": the largest exact witness ratio c*/c_k found,
    "best_hi": the certified upper end of the best net's bracket (None if it did not
    close), "W": that net, "evaluations", "per_restart": best after each random start,
    "exceeded": True if some net had an exact witness above c_k(α) (a counterexample)}``.
    """
    from . import c_star

    k = check_int("k", k, ge=2)
    alpha = check_alpha(alpha)
    d = check_int("d", d, ge=2)
    restarts = check_int("restarts", restarts, ge=1)
    evals = check_int("evals", evals, ge=1)
    polish = check_int("polish", polish, ge=0)
    rtol = check_real("rtol", rtol, gt=0.0, lt=1.0)
    ck = sharp_constant(k, alpha)
    m, a = k // 2, Fraction(alpha)
    ck_exact = m * (1 - a) / (m * (1 - a) + k * a)
    rng = np.random.default_rng(rng)
    seen = {"n": 0, "best": 0.0, "start": 0.0, "theta": None, "start_theta": None,
            "exceeded": False}

    def value(theta):
        seen["n"] += 1
        W = net_of(theta, k, full=full)
        if not np.all(np.isfinite(W)):
            return 0.0
        try:
            ratio = plane_c_star(W, alpha).c / ck
        except ValueError:  # r = 0 (all u deviations zero) or w̄ = ū: no finite c*
            return 0.0
        if ratio > 1.0 - 1e-9:  # at or above c_k in floats: decide it in rationals, and
            try:  # keep the exact value (float rounding can fake a tiny r, so a huge c*)
                c2 = plane_c_star(W, alpha, exact=True, witness=False).c2
            except ValueError:  # r = 0 exactly
                return 0.0
            seen["exceeded"] |= c2 > ck_exact**2
            ratio = float(np.sqrt(float(c2))) / ck
        if ratio > seen["start"]:
            seen.update(start=ratio, start_theta=np.array(theta, dtype=np.float64))
        if ratio > seen["best"]:
            seen.update(best=ratio, theta=np.array(theta, dtype=np.float64))
        return -ratio

    def run(theta0, step, free=None):
        """Nelder–Mead from θ0 over the entries ``free`` (default: all), the rest fixed."""
        free = np.arange(theta0.size) if free is None else free

        def sub(y):
            theta = theta0.copy()
            theta[free] = y
            return value(theta)
        simplex = np.vstack([theta0[free]] * (free.size + 1))
        simplex[1:] += step * rng.standard_normal((free.size, free.size))
        minimize(sub, theta0[free], method="Nelder-Mead",
                 options={"maxfev": evals, "initial_simplex": simplex, "xatol": 1e-12,
                          "fatol": 1e-12, "adaptive": True})

    def sweep():
        """Move each deviation to the near or the far end of its range (z_j = ±SATURATE:
        the far end changes how the deviations split) or to the mean (0), keeping a move
        when it raises the objective (``value`` records it)."""
        for j in range(k):
            for target in (SATURATE * np.sign(seen["start_theta"][4 + j]),
                           -SATURATE * np.sign(seen["start_theta"][4 + j]), 0.0):
                theta = seen["start_theta"].copy()
                theta[4 + j] = target
                value(theta)

    per = []
    for _ in range(restarts):
        draws = [rng.standard_normal(4 * k) if full else
                 np.concatenate([rng.standard_normal(4), 2.0 * rng.standard_normal(k)])
                 for _ in range(SCREEN)]
        seen.update(start=0.0, start_theta=None)
        theta0 = min(draws, key=value)  # the best of SCREEN random nets starts the simplex
        run(theta0, 0.3)
        for i in range(polish):  # polish this start's best
            if seen["start_theta"] is None:
                break
            if not full:
                sweep()
            run(seen["start_theta"], 0.1 * 0.3**i)
            if not full:
                run(seen["start_theta"], 0.1 * 0.3**i, free=np.arange(4))  # the means alone
        per.append(seen["start"])
    out = {"k": k, "alpha": float(alpha), "c_k": ck, "best": seen["best"], "best_hi": None,
           "W": None, "evaluations": seen["n"], "per_restart": per,
           "exceeded": seen["exceeded"]}
    if seen["theta"] is not None:
        W = net_of(seen["theta"], k, d, full=full)
        exact = plane_c_star(W[:, :2], alpha, exact=True)
        ratio = float(np.sqrt(float(exact.c2))) / ck
        got = c_star(W, alpha=alpha, rtol=rtol, rng=0)
        if not got.lo <= ratio * ck * (1 + 1e-12) or not ratio * ck <= got.hi * (1 + 1e-12):
            raise RuntimeError(f"the exact planar c*(W) = {ratio * ck!r} lies outside the "
                               f"certified bracket [{got.lo!r}, {got.hi!r}] of the best net")
        out.update(W=W, best=ratio, best_hi=got.hi / ck if np.isfinite(got.hi) else None,
                   best_lo=got.lo / ck)
        out["exceeded"] |= exact.c2 > ck_exact**2 or got.lo > ck
    return out
