"""A net's own sharp constant ``c*(W)``: an exact witness below, a certificate above.

``c*(W) = sup{c : some x with |D| ≥ c·r‖x‖ has sign N ≠ sign D}``.  The lower end is the
band ratio ``|D|/(r‖x‖)`` of an exact witness, found by sampling and then improved by a
local search over activation patterns (in a fixed pattern the largest ratio is a convex QP:
``min ‖x‖²`` s.t. ``D = 1``, the pattern's signs and its linear ``N ≤ 0``; SLSQP, then
adjacent patterns): :func:`witness_bound`, cheap, a lower bound only.  :func:`c_star`
then closes the bracket with the global search of :mod:`linteach.certify.normsearch`: per
side the smallest disagreeing point of the slice ``D = 1`` (a best-first branch and bound
of norm QPs over the u signs), whose relaxed optima are further witnesses and whose closed
nodes form a certificate at ``hi = lo·(1 + rtol)`` that
:func:`linteach.certify.recheck` re-verifies in rationals (``"norm"`` leaves).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import minimize

from .._check import check_int, check_real
from .exact import ExactNet
from .inputs import check_net, swap_types
from .search import Undecided
from .sharp import sharp_constant

__all__ = ["CStar", "c_star", "witness_bound"]

#: random directions sampled per side for the first witnesses
DIRECTIONS = 2000
#: pattern-QP rounds of the local search
HOPS = 8
#: points sampled around each hint of :func:`witness_bound`
HINT_SAMPLES = 64
#: smallest sampled band ratio, relative to the largest (log-uniform in between)
RATIO_FLOOR = 1e-12
#: growth of lo past the searched ball's band that makes c_star redo the search
RESTART = 1.1
#: float agreement, as a fraction of Σ_j ‖n_j‖₁·max|x| (a bound of |N/v|), beyond which a point is not tested
#: exactly as a witness (float N is within about 1e-15 of that scale of the exact one)
CLEAR = 1e-9


@dataclass(frozen=True)
class CStar:
    """``lo ≤ c*(W) ≤ hi``: ``witness`` is exact at band ``lo``; ``certificate`` at ``hi``."""

    lo: float
    hi: float
    witness: np.ndarray | None
    certificate: dict | None
    notes: tuple = ()
    decides: int = 0


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


def _exact_ratio(exact, x):
    """An exact lower bound of ``x``'s band ratio (``x`` disagrees exactly), or None."""
    if not exact.witness(x, 0.0)["disagree"]:
        return None
    r = float(np.sqrt(float(exact.r2)))
    rt = abs(float(np.dot([float(t) for t in exact.g], x))) / (r * float(np.linalg.norm(x)))
    rt *= 1 - 1e-12
    return rt if exact.witness(x, rt)["in_band"] else None


def c_star(W, *, alpha, rtol: float = 1e-6, rng=0, max_nodes: int = 20_000,
           rounds: int = 3, start=None) -> CStar:
    """The net's sharp constant bracketed to ``hi ≤ lo·(1 + rtol)`` (needs r > 0, α > 0).

    ``lo`` is the exact band ratio of ``witness`` (0 if none was found); ``hi`` carries a
    certificate (re-check it with :func:`linteach.certify.recheck` at ``c = hi``).  The
    first ``lo`` comes from :func:`witness_bound`; then each side's smallest disagreeing
    point is searched for by :class:`linteach.certify.normsearch.NormSearch` (a best-first
    branch and bound of norm QPs, whose relaxed optima are the next witnesses), every node
    closed against ``hi = lo·(1 + rtol)``.  The searches run in the ball of the first
    ``lo``; when ``lo`` grows past ``RESTART`` times that, they are redone (at most
    ``rounds`` times) in the smaller ball, whose tighter intervals close nodes sooner.  With
    no witness the first ball is that of ``c_k(α)(1 + 1e-9)`` and each next one that of a
    quarter of the band; if none holds a witness the bracket ``[0, hi]`` stays open (a
    note says so).  :class:`Undecided` (node budget, float resolution) ends the search with
    a note; ``hi`` is then the last completed search's certified band, or nan.
    ``start = (lo, x)`` (a :func:`witness_bound` result for this ``W``) skips that call;
    ``lo`` is re-confirmed from ``x`` in rationals.
    """
    Ws, alpha, _, exp = check_net(W, alpha, 1.0)
    rtol = check_real("rtol", rtol, gt=0.0, lt=1.0)
    rounds = check_int("rounds", rounds, ge=1)
    max_nodes = check_int("max_nodes", max_nodes, ge=1)
    if alpha == 0:
        raise ValueError("`alpha` must be > 0 for c_star: with ReLU a zero region can violate "
                         "every band")
    exact = ExactNet(Ws, alpha)
    if exact.r2 == 0:
        raise ValueError("`W` has r = 0: the band is every x, so no constant c plays a role "
                         "(use decide)")
    rng = np.random.default_rng(rng)
    k = Ws.shape[0] // 2
    ck = sharp_constant(k, alpha)
    top = float(np.sqrt(float(exact.G) / float(exact.r2)))
    if start is None:
        lo, witness = witness_bound(Ws, alpha=alpha, rng=rng)
    else:  # W and 2**e·W share every witness and band ratio: confirm it on Ws
        if not (isinstance(start, tuple) and len(start) == 2):
            raise ValueError(f"`start` must be a (lo, x) pair from witness_bound, got {start!r}")
        witness = None if start[1] is None else np.asarray(start[1], dtype=np.float64)
        if witness is not None and (witness.shape != (Ws.shape[1],)
                                    or not np.all(np.isfinite(witness))):
            raise ValueError(f"`start`'s point must be a finite vector of length {Ws.shape[1]}, "
                             f"got shape {witness.shape}")
        lo = 0.0 if witness is None else (_exact_ratio(exact, witness) or 0.0)
        witness = witness if lo > 0 else None
    best = {"lo": lo, "x": witness, "c0": 0.0, "restart": False}

    def on_witness(x):
        rt = _exact_ratio(exact, x)
        if rt is not None and rt > best["lo"]:
            best.update(lo=rt, x=np.array(x, dtype=np.float64))
            if best["restart"] and rt > RESTART * best["c0"]:
                raise _Restart
        return best["lo"]
    notes, count, last = [], 0, None
    c0 = lo if lo > 0 else ck * (1 + 1e-9)
    for i in range(rounds):
        count += 1
        best.update(c0=c0, restart=i + 1 < rounds)
        try:
            sides = _norm_sides(Ws, alpha, c0, top, rtol, best, on_witness, max_nodes)
        except _Restart:  # lo grew well past the ball's band: a smaller ball closes sooner
            c0 = best["lo"]
            continue
        except Undecided as exc:
            notes.append(f"undecided (ball of c = {c0!r}): {exc}")
            break
        last = (sides, max(best["lo"] * (1 + rtol), c0))
        if best["lo"] > 0 and c0 <= best["lo"] * (1 + rtol):
            break  # closed
        c0 = best["lo"] if best["lo"] > 0 else c0 / 4  # no witness yet: a larger ball
    lo = best["lo"]
    if lo > ck * (1 + 1e-10):
        notes.append(f"witness at c = {lo!r} > c_k(α) = {ck!r}: contradicts the sharp constant")
    if last is None:
        return CStar(lo, float("nan"), best["x"], None, tuple(notes), count)
    sides, hi = last
    if hi > top:  # the band beyond ‖w̄ − ū‖/r holds only x = 0
        hi, sides = top * (1 + 1e-12), [{"side": s, "kind": "empty-band"} for s in (1, -1)]
    if lo == 0:
        notes.append(f"no disagreement found: c*(W) ≤ {hi!r} is certified, the bracket is open")
    elif hi > lo * (1 + rtol):
        notes.append(f"open: the last completed search certified only c = {hi!r}")
    cert = {"c": hi, "alpha": alpha, "scale_exp": exp, "sides": sides}
    return CStar(lo, hi, best["x"], cert, tuple(notes), count)


class _Restart(Exception):
    """Internal: a witness far above the searched ball's band; search a smaller ball."""


def _norm_sides(Ws, alpha, c0, top, rtol, best, on_witness, max_nodes):
    """Both sides' norm searches in the ball of band ``c0`` (side −1: the swapped net)."""
    from .normsearch import NormSearch

    sides = []
    for side, Wside in ((1, Ws), (-1, swap_types(Ws))):
        net = ExactNet(Wside, alpha)
        if c0 > top:
            sides.append({"side": side, "kind": "empty-band"})
            continue
        search = NormSearch(Wside, alpha, c0, net, max_nodes=max_nodes)
        cert, _ = search.run(best["lo"], rtol, on_witness)
        cert["side"] = side
        sides.append(cert)
    return sides
