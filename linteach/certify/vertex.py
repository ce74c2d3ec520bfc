"""The one-variable certificate of a side: Jensen on the w part, the vertex bound on the u part.

On the slice ``S = {g·x = 1, ‖x‖ ≤ ρ}`` write ``B = ū·x``; then ``w̄·x = B + 1`` and
``u_j·x = B + δ_j`` with ``Σ δ_j = 0`` and ``|δ_j| ≤ ‖u_j − ū‖·ρ ≤ e``.  σ is convex, so

    N/v = Σ σ(w_j·x) − Σ σ(u_j·x)  ≥  h(B) = k·σ(B + 1) − V(B),
    V(B) = m σ(B + e) + m σ(B − e) + (k − 2m) σ(B),  m = ⌊k/2⌋

(Jensen for the w part; ``V`` is the largest ``Σσ(B + δ_j)`` over that polytope of δ, see
:func:`linteach.certify.relax.vertex_bound`).  ``h`` is piecewise linear in the one real
variable B with kinks at ``−1, −e, e`` (and 0 for odd k) and slope 0 beyond the outermost
ones (``k − k`` on the right, ``kα − kα`` on the left), so ``h > 0`` everywhere iff it is
> 0 at its kinks.  Then ``N > 0`` on the whole slice: a certificate that needs no LP.

It proves a side exactly when ``e < 1/c_k(α)`` (docs/claims/thm5.1.md), whatever the
net's other weights, so :func:`linteach.certify.decide` issues it where the LP cannot be
trusted: a slice whose radius ``ρ = 1/(c r)`` is so large next to the weights that a
float64 LP cannot resolve its pre-activations (``r`` tiny next to ``‖w̄ − ū‖``).
:func:`check_vertex` re-verifies it in rationals.
"""
from __future__ import annotations

from fractions import Fraction as F

import numpy as np

from .relax import vertex_bound

__all__ = ["vertex_certificate", "check_vertex", "VERTEX_PAD"]

#: outward relative padding of the float radius ``e`` (the exact re-check confirms it)
VERTEX_PAD = 1e-14


def _kinks(e, k):
    return (-1, -e, e) + ((0,) if k % 2 else ())


def vertex_certificate(exact_net, c):
    """The ``"vertex"`` side certificate of side +1 of ``exact_net`` at band ``c``, or None
    when ``h`` is not clearly > 0 at its kinks in floats (then the side is left undecided)."""
    k = exact_net.k
    rho2 = 1 / (F(c) ** 2 * exact_net.r2)
    e = float(np.sqrt(float(max(exact_net.dev_u) * rho2))) * (1 + VERTEX_PAD) + 1e-300
    alpha = float(exact_net.alpha)
    s = lambda z: z if z > 0 else alpha * z  # noqa: E731
    h = [k * s(B + 1) - vertex_bound(B, e, k, alpha) for B in _kinks(e, k)]
    if min(h) <= 1e-12 * k * (1 + e):
        return None
    return {"side": 1, "kind": "vertex", "e": e}


def check_vertex(net, cert, rho2) -> dict:
    """Exact re-check of a ``"vertex"`` side certificate; returns ``(ok, why, min h)``."""
    e = F(cert["e"])
    if e < 0 or any(e * e < dev2 * rho2 for dev2 in net.dev_u):
        return False, "the radius e is below max_j ‖u_j − ū‖·ρ", None
    a, k, m = net.alpha, net.k, net.k // 2
    s = lambda z: z if z > 0 else a * z  # noqa: E731
    h = [k * s(B + 1) - (m * s(B + e) + m * s(B - e) + (k - 2 * m) * s(B))
         for B in _kinks(e, k)]
    if not min(h) > 0:
        return False, f"h(B) = k·σ(B+1) − V(B) is {float(min(h)):.3e} ≤ 0 at a kink", None
    return True, "", float(min(h))
