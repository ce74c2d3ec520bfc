"""A net's own sharp constant ``c*(W)``: an exact witness below, a certificate above.

``c*(W) = sup{c : some x with |D| ≥ c·r‖x‖ has sign N ≠ sign D}``.  The lower end is the
band ratio ``|D|/(r‖x‖)`` of an exact witness, found by sampling and then improved by a
local search over activation patterns (:func:`linteach.certify.witness.witness_bound`,
cheap, a lower bound only).  :func:`c_star`
then closes the bracket with the global search of :mod:`linteach.certify.normsearch`: per
side the smallest disagreeing point of the slice ``D = 1`` (a best-first branch and bound
of norm QPs over the u signs), whose relaxed optima are further witnesses and whose closed
nodes form a certificate at ``hi = lo·(1 + rtol)`` that
:func:`linteach.certify.recheck` re-verifies in rationals (``"norm"`` leaves).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._check import check_int, check_real
from .exact import ExactNet
from .inputs import check_net, swap_types
from .search import Undecided
from .sharp import sharp_constant
from .witness import witness_bound

__all__ = ["CStar", "c_star"]

#: growth of lo past the searched ball's band that makes c_star redo the search
RESTART = 1.1


@dataclass(frozen=True)
class CStar:
    """``lo ≤ c*(W) ≤ hi``: ``witness`` is exact at band ``lo``; ``certificate`` at ``hi``."""

    lo: float
    hi: float
    witness: np.ndarray | None
    certificate: dict | None
    notes: tuple = ()
    decides: int = 0


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
