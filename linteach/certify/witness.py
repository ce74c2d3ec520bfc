"""Exact lower ends of a net's own sharp constant c*(W): witnesses found by sampling and a
local search over activation patterns (:func:`witness_bound`).

Points are sampled at band ratios ``|D|/(r‖x‖)`` half log-uniform over twelve decades and
half uniform below ``1.2·c_k(α)`` (a net's violations sit in a wedge around D = 0 whose
width is its own c*(W)); from the best disagreeing ones a local search solves, in the
pattern of the current point, the convex QP ``min ‖x‖²`` s.t. ``D = const``, the pattern's
signs and its linear ``N ≤ 0`` (SLSQP), then hops to adjacent patterns across active kinks.
Every answer is confirmed in rationals (:class:`linteach.certify.exact.ExactNet`): a lower
bound of c*(W) only; :func:`linteach.certify.c_star` closes the bracket.
"""
from __future__ import annotations

import numpy as np
from scipy.optimize import minimize

from .._check import check_int
from .exact import ExactNet
from .inputs import check_net
from .sharp import sharp_constant

__all__ = ["witness_bound", "DIRECTIONS", "HOPS", "HINT_SAMPLES", "RATIO_FLOOR", "CLEAR"]

#: random directions sampled per side for the first witnesses
DIRECTIONS = 2000
#: pattern-QP rounds of the local search
HOPS = 8
#: points sampled around each hint of :func:`witness_bound`
HINT_SAMPLES = 64
#: smallest sampled band ratio, relative to the largest (log-uniform in between)
RATIO_FLOOR = 1e-12
#: float agreement, as a fraction of Σ_j ‖n_j‖₁·max|x| (a bound of |N/v|), beyond which a
#: point is not tested exactly as a witness (float N is within about 1e-15 of that scale)
CLEAR = 1e-9


def _sigma_slopes(Z, alpha):
    return np.where(Z > 0, 1.0, alpha)


def _f(W, alpha, X):
    k = W.shape[0] // 2
    Z = X @ W.T
    S = _sigma_slopes(Z, alpha) * Z
    return S[..., :k].sum(-1) - S[..., k:].sum(-1)


def _ratio(W, x, r):
    k = W.shape[0] // 2
    g = W[:k].mean(0) - W[k:].mean(0)
    return abs(float(g @ x)) / (r * float(np.linalg.norm(x)))


def _sample(W, alpha, r, rng, n, top, *, starts=4):
    """Random points at band ratios ``|D|/(r‖x‖)`` in ``(0, top)``, half log-uniform down to
    ``RATIO_FLOOR·top``, half uniform; the disagreeing ones, largest ratio first.  A net's violations sit in a wedge around
    D = 0 whose width is the net's own c*(W), which can be many decades below c_k(α):
    uniform ratios (or uniform directions) would almost never hit it."""
    k, d = W.shape[0] // 2, W.shape[1]
    g = W[:k].mean(0) - W[k:].mean(0)
    gn = float(np.linalg.norm(g))
    Y = rng.standard_normal((n, d))
    Y -= np.outer(Y @ g / (g @ g), g)
    norms = np.linalg.norm(Y, axis=1, keepdims=True)
    keep = norms[:, 0] > 0
    Y, norms = Y[keep], norms[keep]
    ratio = top * np.where(np.arange(len(Y)) % 2 == 0,
                           np.exp(rng.uniform(np.log(RATIO_FLOOR), 0.0, len(Y))),
                           rng.uniform(0.0, 1.0, len(Y)))
    cos = np.minimum(ratio * r / gn, 1.0)
    side = np.where(rng.random(len(Y)) < 0.5, -1.0, 1.0)
    X = Y / norms * np.sqrt(1 - cos**2)[:, None] + (side * cos)[:, None] * (g / gn)
    D, f = X @ g, _f(W, alpha, X)
    bad = np.sign(f) != np.sign(D)
    ratio = np.abs(D) / (r * np.linalg.norm(X, axis=1))
    order = np.argsort(-np.where(bad, ratio, -1.0))
    return [X[i] for i in order[:starts] if bad[i]]


def _near(W, alpha, x, rng, n):
    """``x`` itself and random points around it (relative distances log-uniform in
    ``(1e-6, 0.3)``): the disagreeing ones nearest to ``x`` first, at most two."""
    scale = np.exp(rng.uniform(np.log(1e-6), np.log(0.3), n))[:, None]
    X = np.vstack([x, x + scale * float(np.linalg.norm(x)) * rng.standard_normal((n, x.size))])
    k = W.shape[0] // 2
    D = X @ (W[:k].mean(0) - W[k:].mean(0))
    bad = np.flatnonzero(np.sign(_f(W, alpha, X)) != np.sign(D))
    return [X[i] for i in bad[:2]]


def _pattern_qp(W, alpha, x, signs):
    """``min ‖y‖²`` s.t. ``D(y) = D(x)``, ``N_P(y) ≤ 0`` on D's side, pattern ``signs``."""
    k = W.shape[0] // 2
    g = W[:k].mean(0) - W[k:].mean(0)
    s = np.sign(g @ x)
    slopes = np.where(signs > 0, 1.0, alpha)
    a = (slopes[:k, None] * W[:k]).sum(0) - (slopes[k:, None] * W[k:]).sum(0)
    target = float(g @ x)
    cons = [{"type": "eq", "fun": lambda y: np.array([g @ y - target]), "jac": lambda y: g[None]},
            {"type": "ineq", "fun": lambda y: np.array([-s * (a @ y)]),
             "jac": lambda y: -s * a[None]},
            {"type": "ineq", "fun": lambda y: signs * (W @ y), "jac": lambda y: signs[:, None] * W}]
    res = minimize(lambda y: y @ y, x, jac=lambda y: 2 * y, constraints=cons, method="SLSQP",
                   options={"maxiter": 200, "ftol": 1e-15})
    return res.x if np.all(np.isfinite(res.x)) else x


def _exact_best(W, alpha, r, start, cand, exact):
    """The best exact witness among ``cand`` nudged towards ``start`` (which disagrees).

    A nudge whose float signs agree by more than :data:`CLEAR` of the scale of N is skipped
    without its exact test (it cannot disagree); every answer is still an exact witness."""
    k = W.shape[0] // 2
    g, scale = W[:k].mean(0) - W[k:].mean(0), float(np.abs(W).sum())
    for t in (0.0, 1e-12, 1e-10, 1e-8, 1e-6, 1e-4, 1e-2, 1.0):
        y = cand + t * (start - cand)
        f, D = float(_f(W, alpha, y)), float(g @ y)
        if f * np.sign(D) > CLEAR * scale * float(np.abs(y).max()):
            continue
        rt = _ratio(W, y, r)
        got = exact.witness(y, rt * (1 - 1e-12))
        if got["disagree"] and got["in_band"]:
            return rt * (1 - 1e-12), y
    return None


def _local(W, alpha, r, x, exact):
    """Local search from the disagreeing ``x``: pattern QPs, hopping across active kinks."""
    best = (_ratio(W, x, r) * (1 - 1e-12), x) if exact.witness(x, 0.0)["disagree"] else None
    cur = x
    for _ in range(HOPS):
        Z = W @ cur
        signs = np.where(Z >= 0, 1.0, -1.0)
        tries = [signs]
        scale = np.abs(W).sum(1) * np.abs(cur).max()
        for j in np.flatnonzero(np.abs(Z) <= 1e-7 * scale):
            flip = signs.copy()
            flip[j] = -flip[j]
            tries.append(flip)
        improved = None
        for sg in tries:
            y = _pattern_qp(W, alpha, cur, sg)
            got = _exact_best(W, alpha, r, cur, y, exact)
            if got and (best is None or got[0] > best[0] * (1 + 1e-13)):
                best, improved = got, y
        if improved is None:
            break
        cur = improved
    return best


def witness_bound(W, *, alpha, rng=0, directions: int = DIRECTIONS, starts: int = 4,
                  hints=()):
    """An exact lower bound of ``c*(W)``: ``(lo, x)``, ``x`` disagreeing in sign at band ratio
    ``lo`` (confirmed in rationals), or ``(0.0, None)`` if no disagreement was found.

    Samples ``directions`` points per net (ratios log-uniform below ``1.2·c_k(α)``) and runs
    the pattern-QP local search from the ``starts`` best disagreeing ones, and from each
    point of ``hints`` that disagrees (e.g. the best witness of a nearby net: a search over
    nets warm-starts with it).  Cheap (no LP), and a lower bound only: :func:`c_star`
    closes the bracket with a certificate.
    """
    Ws, alpha, _, _ = check_net(W, alpha, 1.0)
    directions = check_int("directions", directions, ge=1)
    starts = check_int("starts", starts, ge=1)
    exact = ExactNet(Ws, alpha)
    if alpha == 0 or exact.r2 == 0:
        raise ValueError("`W` needs r > 0 and `alpha` > 0 for a finite c*(W)")
    rng = np.random.default_rng(rng)
    r = float(np.sqrt(float(exact.r2)))
    ck = sharp_constant(Ws.shape[0] // 2, alpha)
    lo, witness = 0.0, None
    hinted = []
    for x in hints:
        x = np.asarray(x, dtype=np.float64)
        if x.shape == (Ws.shape[1],) and np.all(np.isfinite(x)) and np.any(x):
            hinted += _near(Ws, alpha, x, rng, HINT_SAMPLES)
    for x in hinted + _sample(Ws, alpha, r, rng, directions, 1.2 * ck, starts=starts):
        got = _local(Ws, alpha, r, x, exact)
        if got and got[0] > lo:
            lo, witness = got
    return lo, witness
