"""Exact decision of Theorem 5.1's sign agreement for one net, and its sharp constants.

Given ``W (2k, d)`` (rows ``0..k−1`` the w neurons, ``k..2k−1`` the u neurons), ``α ∈ [0, 1)``
and ``c ≥ 0``, :func:`decide` answers exactly whether some x with
``|(w̄ − ū)·x| ≥ c·r‖x‖`` has ``sign N_W(x) ≠ sign((w̄ − ū)·x)`` (docs/math.md §5), returning
either a **witness** x (its disagreement and band membership confirmed in rationals,
:class:`linteach.certify.exact.ExactNet`) or a **certificate** that
:func:`linteach.certify.exact.recheck` re-verifies in rationals, independently of the
solver that found it.

Method.  ``N`` and ``D = (w̄ − ū)·x`` are 1-homogeneous, so side ``D > 0`` of the band is the
slice ``D = 1, ‖x‖ ≤ ρ = 1/(c r)`` and side ``D < 0`` is the same slice of the net with its
types swapped.  On a slice the w part ``Σσ(w_j·x)`` is convex (an exact LP epigraph) and
only the u neurons are branched on (:mod:`linteach.certify.search`).  Witnesses come from
sampling and from relaxation optima inside the ball; the branch and bound proves their
absence.  A slice too wide for a float64 LP (``r`` tiny next to ``‖w̄ − ū‖``) gets the
one-variable certificate of :mod:`linteach.certify.vertex` instead.  ``W`` is first scaled by a power of two (exact), so ``W`` and ``s·W`` get the
same answer over the float range.

Certificate row convention (shared with the re-check, one node ``[bl, bh]`` of ``ū·x`` with
fixed u signs): rows ``−ū·x ≤ −bl, ū·x ≤ bh``; per u neuron ``−u_j·x ≤ −l_j, u_j·x ≤ h_j``;
per w neuron the same with its interval; per w neuron ``w_j·x − t_j ≤ 0, αw_j·x − t_j ≤ 0``;
then the cuts ``a·x ≤ β``; one equality ``g·x = 1``.  Node intervals:
``[max(L_j, bl − e_j), min(H_j, bh + e_j)]`` for u (clipped at 0 by a fixed sign) and
``[max(L_j, bl + 1 − e_j), min(H_j, bh + 1 + e_j)]`` for w, since ``w̄·x = ū·x + 1`` on the
slice.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from .._check import check_int, check_real
from .exact import ExactNet
from .recheck import CertificateError, recheck
from .inputs import check_net, swap_types
from .search import SideSearch, Undecided
from .adversary import adversarial_search
from .plane import PlaneCStar, plane_c_star
from .sharp import extremal_net, sharp_constant
from .vertex import vertex_certificate

__all__ = ["Decision", "CStar", "decide", "c_star", "witness_bound", "recheck", "sharp_constant",
           "extremal_net", "adversarial_search", "plane_c_star", "PlaneCStar",
           "CertificateError", "Undecided"]

#: random points per side tried as witnesses before the branch and bound
SAMPLES = 256


@dataclass(frozen=True)
class Decision:
    """Outcome of :func:`decide`: ``holds`` with a ``certificate``, or not, with a ``witness``.

    ``witness_info`` holds the exact ``N/v`` and ``D`` (as floats) and the band ratio
    ``|D|/(r‖x‖)``; ``stats`` counts nodes, LPs, cuts and the leaves confirmed in rationals
    before they were accepted.
    """

    holds: bool
    c: float
    alpha: float
    certificate: dict | None = None
    witness: np.ndarray | None = None
    witness_info: dict = field(default_factory=dict)
    stats: dict = field(default_factory=dict)


def _witness_decision(x, W, alpha, c, exp, stats):
    net = ExactNet(W, alpha, scale_exp=exp)
    info = net.witness(x, c)
    assert info["in_band"] and info["disagree"]  # internal: only confirmed points get here
    r = float(np.sqrt(float(net.r2))) if net.r2 else 0.0
    ratio = abs(float(info["D"])) / (r * float(np.linalg.norm(x))) if r else np.inf
    return Decision(False, c, alpha, witness=np.array(x, dtype=np.float64),
                    witness_info={"N_over_v": float(info["N_over_v"]), "D": float(info["D"]),
                                  "ratio": ratio}, stats=stats)


def _sample(search, rng, n):
    """Random points of the slice (half on its rim), the lowest ``f`` first."""
    d = search.d
    Y = rng.standard_normal((n, d))
    Y -= np.outer(Y @ search.g / search.G, search.g)
    norms = np.linalg.norm(Y, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    rad = np.where(np.arange(n) % 2 == 0, 1 - 1e-12, rng.random(n) ** (1 / max(d - 1, 1)))
    X = search.x0 + Y / norms * (rad * search.rho_perp)[:, None]
    f = (np.where(X @ search.w.T > 0, 1, search.alpha) * (X @ search.w.T)).sum(1) \
        - (np.where(X @ search.u.T > 0, 1, search.alpha) * (X @ search.u.T)).sum(1)
    order = np.argsort(f)
    return [X[i] for i in order[:3] if f[i] <= 0]


def _clustered_relu_witness(W, net_side):
    """α = 0, r = 0: a point with D = 1 where every neuron is off (N = 0), if one exists."""
    k = W.shape[0] // 2
    w, u = W[0], W[k]
    for target in ((-1.0, 1.0), (-2.0, 1.0), (0.0, 1.0)):
        x = np.linalg.lstsq(np.stack([w, w - u]), np.array(target), rcond=None)[0]
        if net_side.witness(x, 0.0)["disagree"]:
            return x
    return None


def decide(W, *, alpha, c, v=1.0, rng=0, max_nodes: int = 20_000) -> Decision:
    """Decide exactly whether the band ``|(w̄ − ū)·x| ≥ c·r‖x‖`` holds a sign disagreement.

    Parameters
    ----------
    W : array (2k, d)
        First layer, w rows then u rows.
    alpha : float in [0, 1)
        Leaky slope (0 = ReLU).
    c : float >= 0
        Band constant (Theorem 5.1 states c = 2).
    v : float > 0
        Second-layer weight (signs do not depend on it; validated only).
    rng : seed or Generator
        For the witness sampling (any ``np.random.default_rng`` argument).
    max_nodes : int
        Branch-and-bound budget per side; exceeding it raises :class:`Undecided`.

    Returns
    -------
    Decision
        ``holds=True`` with a certificate (re-check with :func:`recheck`), or
        ``holds=False`` with a witness x confirmed in exact arithmetic.

    Raises :class:`Undecided` when c is within the float resolution of the net's own sharp
    constant (neither a certificate nor an exact witness is found), and
    :class:`linteach.SolverError` when HiGHS returns a status other than optimal or
    infeasible.
    """
    Ws, alpha, c, exp = check_net(W, alpha, c)
    check_real("v", v, gt=0.0)
    max_nodes = check_int("max_nodes", max_nodes, ge=1)
    rng = np.random.default_rng(rng)
    stats = {"nodes": 0, "lps": 0, "cuts": 0, "confirmed": 0}
    base = ExactNet(Ws, alpha)
    sides = []
    for side, Wside in ((1, Ws), (-1, swap_types(Ws))):
        net = ExactNet(Wside, alpha)
        if base.r2 == 0:
            if alpha > 0:
                sides.append({"side": side, "kind": "clustered"})
                continue
            x = _clustered_relu_witness(Wside, net)
            if x is not None:
                return _witness_decision(x, Ws, alpha, c, 0, stats)
            raise Undecided("α = 0 and r = 0: no point with every neuron off was found")
        if c == 0:
            raise Undecided("c = 0 with r > 0: the band is every x and the slice is unbounded; "
                            "decide a c > 0 (every witness there is one at c = 0 too)")
        cc = Fraction(c)
        if 1 / (cc * cc * net.r2) * net.G < 1:
            sides.append({"side": side, "kind": "empty-band"})
            continue
        try:
            search = SideSearch(Wside, alpha, c, net, max_nodes=max_nodes)
        except Undecided:  # the LP cannot resolve this slice: the one-variable certificate
            vc = vertex_certificate(net, c)
            if vc is None:
                raise
            sides.append(dict(vc, side=side))
            continue

        def check_point(x, net=net):
            got = net.witness(x, c)
            return got["in_band"] and got["disagree"]
        for x in _sample(search, rng, SAMPLES):
            if check_point(x):
                return _witness_decision(x, Ws, alpha, c, 0, stats)
        try:
            out = search.run(check_point)
        finally:
            stats["nodes"] += search.nodes
            stats["lps"] += search.lps
            stats["cuts"] += len(search.cert["cuts"])
            stats["confirmed"] += search.confirmed
        if isinstance(out, np.ndarray):
            return _witness_decision(out, Ws, alpha, c, 0, stats)
        out["side"] = side
        sides.append(out)
    cert = {"c": c, "alpha": alpha, "scale_exp": exp, "sides": sides}
    return Decision(True, c, alpha, certificate=cert, stats=stats)


from .cstar import CStar, c_star  # noqa: E402  (cstar calls decide)
from .witness import witness_bound  # noqa: E402
