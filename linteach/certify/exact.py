"""Exact rational arithmetic for the sign test: the net, witnesses, and the certificate re-check.

Every float64 is a dyadic rational, so ``W``, ``α`` and ``c`` are exact rationals and so are
``w̄``, ``ū``, ``g = w̄ − ū`` and ``r² = max_j ‖n_j − mean‖²``.  This module evaluates
``N_W(x)/v``, ``D = g·x`` and the band test ``D² ≥ c²r²‖x‖²`` in :class:`fractions.Fraction`,
and re-checks a certificate from its own description of the relaxation (:func:`recheck`):
it shares no code with the solver in :mod:`linteach.certify.search`, only the row
convention written in :mod:`linteach.certify` (docs/math.md §5).

What :func:`recheck` verifies, all in exact rationals, for each side ``s = ±1`` of the band
(side −1 is side +1 of the net with its two neuron types swapped):

1. every interval the relaxation uses is valid on the slice ``S = {g·x = 1, ‖x‖ ≤ ρ}``,
   ``ρ² = 1/(c²r²)``: ``max_S a·x = a·g/G + sqrt((ρ² − 1/G)(‖a‖² − (a·g)²/G))`` (``G = ‖g‖²``)
   is compared with the stated bound by squaring, and the deviation radii ``e_j`` satisfy
   ``e_j² ≥ ‖n_j − mean‖²ρ²`` (so ``|(n_j − mean)·x| ≤ e_j`` on S);
2. the branch tree covers S: the re-check derives every node's description itself from its
   parent's split (an interval of ``ū·x`` cut in two, or a u neuron's sign fixed both ways);
3. every leaf's relaxation is below ``N/v`` on the leaf (epigraph of the convex w part is
   exact; each u term is bounded by its chord over the leaf's interval, since σ is convex),
   and its Lagrangian bound ``Σmin(r_i l_i, r_i h_i) − λ·b + μ·1 + const`` with the stated
   multipliers (λ ≥ 0) is > 0 (a "bound" leaf), or > 0 with a zero objective (an "empty"
   leaf: no point of S lies in it, a Farkas argument), or the leaf's intervals are empty.

Hence ``N > 0`` on every x with ``D ≥ c·r‖x‖``, ``D > 0`` (and ``N < 0`` on the mirrored side):
no disagreement in the band.
"""
from __future__ import annotations

from fractions import Fraction as F

import numpy as np

__all__ = ["ExactNet", "recheck", "CertificateError"]


class CertificateError(ValueError):
    """A certificate failed its exact re-check (names the step and the leaf)."""


def _dot(a, b):
    return sum(p * q for p, q in zip(a, b))


class ExactNet:
    """``W (2k, d)`` (w rows, then u rows) and ``α`` as exact rationals, for one side.

    ``side = -1`` swaps the types: then ``N`` and ``D`` change sign, so side −1 of ``W`` is
    side +1 of the swapped net.  ``scale_exp`` multiplies ``W`` by ``2**scale_exp`` (exact).
    """

    def __init__(self, W, alpha, *, side: int = 1, scale_exp: int = 0):
        W = np.asarray(W, dtype=np.float64)
        k = W.shape[0] // 2
        rows = [[F(float(t)) * F(2) ** scale_exp for t in row] for row in W]
        if side < 0:
            rows = rows[k:] + rows[:k]
        self.k, self.d = k, W.shape[1]
        self.alpha = F(float(alpha))
        self.w, self.u = rows[:k], rows[k:]
        self.w_bar = [sum(col) / k for col in zip(*self.w)]
        self.u_bar = [sum(col) / k for col in zip(*self.u)]
        self.g = [a - b for a, b in zip(self.w_bar, self.u_bar)]
        self.G = _dot(self.g, self.g)
        self.dev_w = [_dot(dv, dv) for dv in ([a - m for a, m in zip(row, self.w_bar)]
                                              for row in self.w)]
        self.dev_u = [_dot(dv, dv) for dv in ([a - m for a, m in zip(row, self.u_bar)]
                                              for row in self.u)]
        self.r2 = max(self.dev_w + self.dev_u)

    def sigma(self, z):
        return z if z > 0 else self.alpha * z

    def f(self, x):
        """``N_W(x)/v`` exactly (x: rationals)."""
        return (sum(self.sigma(_dot(row, x)) for row in self.w)
                - sum(self.sigma(_dot(row, x)) for row in self.u))

    def D(self, x):
        return _dot(self.g, x)

    def witness(self, x, c) -> dict:
        """Exact verdict on the point ``x`` at band constant ``c``: in the band? disagreeing?"""
        x = [F(float(t)) if not isinstance(t, F) else t for t in x]
        N, D = self.f(x), self.D(x)
        c = F(float(c))
        in_band = D * D >= c * c * self.r2 * _dot(x, x)
        sign = lambda a: (a > 0) - (a < 0)  # noqa: E731
        return {"in_band": in_band, "disagree": sign(N) != sign(D), "N_over_v": N, "D": D}

    # -- the slice S = {g·x = 1, ‖x‖² ≤ rho2} -------------------------------------------------
    def slice_extent(self, a, rho2):
        """``(m, q)``: on S, ``a·x`` ranges over ``m ± sqrt(q)``."""
        ag = _dot(a, self.g)
        return ag / self.G, (rho2 - 1 / self.G) * (_dot(a, a) - ag * ag / self.G)


def _upper_ok(m, q, h):
    """``h ≥ m + sqrt(q)`` exactly."""
    return h - m >= 0 and (h - m) ** 2 >= q


def _lower_ok(m, q, l):
    return m - l >= 0 and (m - l) ** 2 >= q


def _check_intervals(net: ExactNet, cert: dict, rho2) -> None:
    unit = lambda i: [F(int(i == j)) for j in range(net.d)]  # noqa: E731
    named = [("u_bar", net.u_bar, cert["B"])]
    named += [(f"u{j}", net.u[j], cert["Iu"][j]) for j in range(net.k)]
    named += [(f"w{j}", net.w[j], cert["Iw"][j]) for j in range(net.k)]
    named += [(f"x{i}", unit(i), cert["Ix"][i]) for i in range(net.d)]
    for name, a, (lo, hi) in named:
        m, q = net.slice_extent(a, rho2)
        if not (_lower_ok(m, q, F(lo)) and _upper_ok(m, q, F(hi))):
            raise CertificateError(f"interval of {name}·x = [{lo!r}, {hi!r}] is not valid on "
                                   "the slice")
    for name, devs, es in (("u", net.dev_u, cert["eu"]), ("w", net.dev_w, cert["ew"])):
        for j, (dev2, e) in enumerate(zip(devs, es)):
            e = F(e)
            if e < 0 or e * e < dev2 * rho2:
                raise CertificateError(f"deviation radius of {name}{j} ({float(e)!r}) is below "
                                       "‖n − mean‖·ρ")
    for i, (a, beta) in enumerate(cert["cuts"]):
        m, q = net.slice_extent([F(float(t)) for t in a], rho2)
        if not _upper_ok(m, q, F(beta)):
            raise CertificateError(f"cut {i} is not valid on the slice")


def _node(net: ExactNet, cert: dict, bl, bh, signs):
    """Exact intervals of the u and w pre-activations on a node, or None if the node is empty."""
    lu, hu, lw, hw = [], [], [], []
    for j in range(net.k):
        glo, ghi = (F(t) for t in cert["Iu"][j])
        e = F(cert["eu"][j])
        lo, hi = max(glo, bl - e), min(ghi, bh + e)
        if signs.get(j) == 1:
            lo = max(lo, F(0))
        elif signs.get(j) == -1:
            hi = min(hi, F(0))
        lu.append(lo), hu.append(hi)
        glo, ghi = (F(t) for t in cert["Iw"][j])
        e = F(cert["ew"][j])
        lw.append(max(glo, bl + 1 - e)), hw.append(min(ghi, bh + 1 + e))
    if bl > bh or any(a > b for a, b in zip(lu + lw, hu + hw)):
        return None
    return lu, hu, lw, hw


def _leaf_bound(net: ExactNet, cert: dict, bl, bh, iv, proof: dict):
    """The exact Lagrangian lower bound of one leaf (see the module docstring, step 3).

    Variables ``z = (ξ, B, t)`` with ``x = s·ξ``, ``B = ū·x``, ``t_j ≥ σ(w_j·x)``; on the slice
    ``u_j·x = B + s(u_j − ū)·ξ`` and ``w_j·x = B + 1 + s(w_j − w̄)·ξ``.
    """
    lu, hu, lw, hw = iv
    k, d, a = net.k, net.d, net.alpha
    sc = F(float(cert["s"]))
    if sc <= 0:
        raise CertificateError("the scale s must be > 0")
    lam = [F(float(t)) for t in proof["lam"]]
    if any(t < 0 for t in lam):
        raise CertificateError("a multiplier of an inequality row is negative")
    du = [[sc * (p - q) for p, q in zip(row, net.u_bar)] for row in net.u]
    dw = [[sc * (p - q) for p, q in zip(row, net.w_bar)] for row in net.w]
    neg = lambda v: [-t for t in v]  # noqa: E731
    # rows (coef_ξ, coef_B, t column, rhs) of A z ≤ b in the documented order
    rows = []
    for j in range(k):
        rows += [(neg(du[j]), F(-1), None, -lu[j]), (du[j], F(1), None, hu[j])]
    for j in range(k):
        rows += [(neg(dw[j]), F(-1), None, 1 - lw[j]), (dw[j], F(1), None, hw[j] - 1)]
    for dev, es in ((du, cert["eu"]), (dw, cert["ew"])):  # |(n_j − mean)·x| ≤ e_j
        for j in range(k):
            rows += [(neg(dev[j]), F(0), None, F(es[j])), (dev[j], F(0), None, F(es[j]))]
    for j in range(k):
        rows += [(dw[j], F(1), j, F(-1)), ([a * t for t in dw[j]], a, j, -a)]
    rows += [([sc * F(float(t)) for t in cut], F(0), None, F(beta))
             for cut, beta in cert["cuts"][:proof["n_cuts"]]]
    if len(lam) != len(rows):
        raise CertificateError(f"leaf has {len(lam)} multipliers for {len(rows)} rows")
    empty = proof["kind"] == "empty"
    rx, rb, rt, const = [F(0)] * d, F(0), [F(0) if empty else F(1)] * k, F(0)
    if not empty:  # objective Σ t_j − Σ slope_j (B + s(u_j − ū)·ξ) − Σ icpt_j
        for j in range(k):
            if lu[j] >= 0:
                slope, icpt = F(1), F(0)
            elif hu[j] <= 0:
                slope, icpt = a, F(0)
            else:
                slope = (hu[j] - a * lu[j]) / (hu[j] - lu[j])
                icpt = a * lu[j] - slope * lu[j]
            rx = [p - slope * q for p, q in zip(rx, du[j])]
            rb -= slope
            const -= icpt
    for l, (coef, cb, tj, b) in zip(lam, rows):
        if l == 0:
            continue
        rx = [p + l * q for p, q in zip(rx, coef)]
        rb += l * cb
        if tj is not None:
            rt[tj] -= l
        const -= l * b
    mu = [F(float(t)) for t in proof["mu"]]
    if len(mu) != 2:
        raise CertificateError("a leaf needs two equality multipliers")
    # equalities s·g·ξ = 1 and B − s·ū·ξ = 0
    rx = [p - mu[0] * sc * q + mu[1] * sc * t for p, q, t in zip(rx, net.g, net.u_bar)]
    rb -= mu[1]
    const += mu[0]
    box = [(F(lo) / sc, F(hi) / sc) for lo, hi in cert["Ix"]] + [(bl, bh)] + \
          [(net.sigma(lw[j]), net.sigma(hw[j])) for j in range(k)]
    total = const
    for r, (lo, hi) in zip(rx + [rb] + rt, box):
        total += min(r * lo, r * hi)
    return total


def recheck(W, alpha, c, certificate) -> dict:
    """Re-verify ``certificate`` for ``(W, α, c)`` in exact rationals; raise if it fails.

    Returns a summary: per side its kind, leaves, cuts and the smallest leaf bound (as a
    float; it was compared with 0 exactly).  Raises :class:`CertificateError` naming the
    failed step.  See the module docstring for exactly what is verified.
    """
    if float(certificate["c"]) != float(c) or float(certificate["alpha"]) != float(alpha):
        raise CertificateError("certificate was issued for another (α, c)")
    out = {}
    for side_cert in certificate["sides"]:
        side = side_cert["side"]
        net = ExactNet(W, alpha, side=side, scale_exp=certificate["scale_exp"])
        kind = side_cert["kind"]
        if kind == "clustered":  # r = 0, α > 0: σ(z + D) − σ(z) ≥ α·D > 0, exactly
            if net.r2 != 0 or net.alpha <= 0:
                raise CertificateError("'clustered' certificate needs r = 0 and α > 0")
            out[side] = {"kind": kind}
            continue
        if net.r2 == 0:
            raise CertificateError("r = 0: only a 'clustered' certificate applies")
        cc = F(float(c))
        if cc <= 0:
            raise CertificateError("a slice certificate needs c > 0")
        rho2 = 1 / (cc * cc * net.r2)
        if kind == "empty-band":  # c·r > ‖g‖: only x = 0 is in the band
            if not rho2 * net.G < 1:
                raise CertificateError("'empty-band' certificate needs c·r > ‖w̄ − ū‖")
            out[side] = {"kind": kind}
            continue
        if not rho2 * net.G >= 1:
            raise CertificateError("the slice is empty: issue an 'empty-band' certificate")
        _check_intervals(net, side_cert, rho2)
        bounds, leaves = [], 0
        stack = [(side_cert["tree"], F(side_cert["B"][0]), F(side_cert["B"][1]), {})]
        while stack:
            node, bl, bh, signs = stack.pop()
            if "split" in node:
                what, at = node["split"]
                lo, hi = node["children"]
                if what == "B":
                    at = F(at)
                    stack += [(lo, bl, at, signs), (hi, at, bh, signs)]
                else:
                    j = int(at)
                    if not 0 <= j < net.k or j in signs:
                        raise CertificateError(f"invalid sign split on neuron {j}")
                    stack += [(lo, bl, bh, {**signs, j: -1}), (hi, bl, bh, {**signs, j: 1})]
                continue
            leaves += 1
            iv = _node(net, side_cert, bl, bh, signs)
            if iv is None:
                continue  # the node's own intervals are empty: no point of S lies in it
            proof = node["proof"]
            if proof["kind"] not in ("bound", "empty"):
                raise CertificateError(f"unknown leaf kind {proof['kind']!r}")
            bound = _leaf_bound(net, side_cert, bl, bh, iv, proof)
            if not bound > 0:
                raise CertificateError(f"leaf bound {float(bound):.3e} is not > 0 (ū·x in "
                                       f"[{float(bl):.6g}, {float(bh):.6g}], signs {signs})")
            bounds.append(bound)
        out[side] = {"kind": kind, "leaves": leaves, "cuts": len(side_cert["cuts"]),
                     "min_bound": float(min(bounds)) if bounds else None}
    if sorted(out) != [-1, 1]:
        raise CertificateError("a certificate must cover both sides of the band")
    return out
