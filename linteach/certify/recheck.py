"""The independent re-check of a certificate, in exact rationals (no solver, no floats).

Every float64 is a dyadic rational, so ``W``, ``α``, ``c`` and every number of a certificate
are exact rationals (:class:`linteach.certify.exact.ExactNet`).  :func:`recheck` rebuilds
each leaf's relaxation from its own description; it shares no code with the solver in
:mod:`linteach.certify.search`, only the row convention written in :mod:`linteach.certify`
(docs/math.md §5).  Float multipliers are just rationals here: any λ ≥ 0 gives a valid
bound, so solver tolerances can make a certificate fail its re-check, never unsound.

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
   leaf: no point of S lies in it, a Farkas argument), or the leaf's intervals are empty;
   or (a "norm" leaf, :mod:`linteach.certify.normsearch`) the same relaxation with the
   row ``Σ_j t_j − P ≤ 0`` (``N ≤ 0``, multiplier ``λ_f ≥ 0``) and the objective ``‖ξ‖²``
   has its Lagrangian bound (the box minimum of each ``ξ_i² + r_i ξ_i`` taken at ``−r_i/2``
   clamped) ``> ρ²/s²``: every point of the leaf with ``N ≤ 0`` lies outside the ball.

Hence ``N > 0`` on every x with ``D ≥ c·r‖x‖``, ``D > 0`` (and ``N < 0`` on the mirrored side):
no disagreement in the band.
"""
from __future__ import annotations

from fractions import Fraction as F

from .exact import ExactNet
from .vertex import check_vertex

__all__ = ["recheck", "leaf_bound", "CertificateError"]


class CertificateError(ValueError):
    """A certificate failed its exact re-check (names the step and the leaf)."""


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


def _chord(lo, hi, a):
    """σ on ``[lo, hi]`` is below the line ``slope·z + icpt`` (σ if the sign is fixed)."""
    if lo >= 0:
        return F(1), F(0)
    if hi <= 0:
        return a, F(0)
    slope = (hi - a * lo) / (hi - lo)
    return slope, a * lo - slope * lo


def _vertex_bound(B, e, k, a):
    """``max Σ_j σ(B + δ_j)`` over ``|δ_j| ≤ e, Σδ_j = 0``: ``mσ(B+e) + mσ(B−e) + (k−2m)σ(B)``.

    σ is convex, so the maximum is at a vertex of that polytope; a vertex has at most one
    entry strictly inside (−e, e), which the zero sum forces to 0 (k odd) or rules out.
    V is convex in B, so its chord over an interval bounds it above there.
    """
    m = k // 2
    s = lambda z: z if z > 0 else a * z  # noqa: E731
    return m * s(B + e) + m * s(B - e) + (k - 2 * m) * s(B)


def _leaf_bound(net: ExactNet, cert: dict, bl, bh, iv, proof: dict):
    """The exact Lagrangian lower bound of one leaf (see the module docstring, step 3).

    Variables ``z = (ξ, B, t, P)`` with ``x = s·ξ``, ``B = ū·x``, ``t_j ≥ σ(w_j·x)`` and
    ``P = Σ_j σ(u_j·x)``; on the slice ``u_j·x = B + s(u_j − ū)·ξ`` and
    ``w_j·x = B + 1 + s(w_j − w̄)·ξ``.  Rows of ``A z ≤ b`` (the documented order), each
    built only where its multiplier is nonzero: per u neuron its interval (2), per w neuron
    its interval (2), per u and then per w neuron its deviation bound (2 each), per w
    neuron its epigraph (2), the two bounds on P, then the cuts.
    """
    lu, hu, lw, hw = iv
    k, d, a = net.k, net.d, net.alpha
    sc = F(float(cert["s"]))
    if sc <= 0:
        raise CertificateError("the scale s must be > 0")
    n_rows = 10 * k + 2 + proof["n_cuts"]
    if len(proof["lam"]) != n_rows:
        raise CertificateError(f"leaf has {len(proof['lam'])} multipliers for {n_rows} rows")
    if proof["n_cuts"] > len(cert["cuts"]):
        raise CertificateError("leaf uses more cuts than the certificate holds")
    key = ("dev", sc)
    if key not in net.cache:
        net.cache[key] = ([[sc * (p - q) for p, q in zip(row, net.u_bar)] for row in net.u],
                          [[sc * (p - q) for p, q in zip(row, net.w_bar)] for row in net.w])
    du, dw = net.cache[key]
    chords = [_chord(lu[j], hu[j], a) for j in range(k)]
    e = max(F(t) for t in cert["eu"])
    vb = lambda B: _vertex_bound(B, e, k, a)  # noqa: E731
    sv = (vb(bh) - vb(bl)) / (bh - bl) if bh > bl else F(0)
    zero = [F(0)] * d

    def row(i):
        """(coef_ξ, coef_B, t column, coef_P, rhs, sign of coef_ξ) of row i."""
        j, lower = divmod(i % (2 * k), 2) if i < 10 * k else (None, None)
        sgn = -1 if lower == 0 else 1
        if i < 2 * k:
            return du[j], F(1), None, 0, (-lu[j] if sgn < 0 else hu[j]), sgn
        if i < 4 * k:
            return dw[j], F(1), None, 0, (1 - lw[j] if sgn < 0 else hw[j] - 1), sgn
        if i < 8 * k:
            dev, es = (du, cert["eu"]) if i < 6 * k else (dw, cert["ew"])
            return dev[j], F(0), None, 0, F(es[j]), sgn
        if i < 10 * k:  # w_j·x − t_j ≤ 0 and α w_j·x − t_j ≤ 0, with w_j·x = B + 1 + dw_j·ξ
            f = F(1) if lower == 0 else a
            return [f * t for t in dw[j]], f, j, 0, -f, 1
        if i == 10 * k:  # P − Σ_j chord_j(u_j·x) ≤ 0
            coef = [-sum(sl * du[jj][ii] for jj, (sl, _) in enumerate(chords)) for ii in range(d)]
            return coef, -sum(sl for sl, _ in chords), None, 1, sum(ic for _, ic in chords), 1
        if i == 10 * k + 1:  # P − chord of V(B) ≤ 0
            return zero, -sv, None, 1, vb(bl) - sv * bl, 1
        cut, beta = cert["cuts"][i - 10 * k - 2]
        return [sc * F(float(t)) for t in cut], F(0), None, 0, F(beta), 1

    empty = proof["kind"] in ("empty", "norm")
    # objective Σ t_j − P (zero for an "empty" leaf; ‖ξ‖² for a "norm" leaf, added below)
    rx, rb, rt = [F(0)] * d, F(0), [F(0) if empty else F(1)] * k
    rp, const = F(0) if empty else F(-1), F(0)
    if proof["kind"] == "norm":  # the row Σ_j t_j − P ≤ 0 (N ≤ 0), multiplier λ_f ≥ 0
        lam_f = F(float(proof["lam_f"]))
        if lam_f < 0:
            raise CertificateError("the multiplier of the row N ≤ 0 is negative")
        rt, rp = [t + lam_f for t in rt], rp - lam_f
    for i, lt in enumerate(proof["lam"]):
        if lt == 0:
            continue
        lam = F(float(lt))
        if lam < 0:
            raise CertificateError("a multiplier of an inequality row is negative")
        coef, cb, tj, cp, b, sgn = row(i)
        ls = lam * sgn
        rx = [p + ls * q for p, q in zip(rx, coef)]
        rb += ls * cb if i < 4 * k or i >= 8 * k else 0
        rp += lam * cp
        if tj is not None:
            rt[tj] -= lam
        const -= lam * b
    mu = [F(float(t)) for t in proof["mu"]]
    if len(mu) != 2:
        raise CertificateError("a leaf needs two equality multipliers")
    # equalities s·g·ξ = 1 and B − s·ū·ξ = 0
    rx = [p - mu[0] * sc * q + mu[1] * sc * t for p, q, t in zip(rx, net.g, net.u_bar)]
    rb -= mu[1]
    const += mu[0]
    box = [(F(lo) / sc, F(hi) / sc) for lo, hi in cert["Ix"]] + [(bl, bh)] + \
          [(net.sigma(lw[j]), net.sigma(hw[j])) for j in range(k)]
    box.append((sum(net.sigma(t) for t in lu), sum(net.sigma(t) for t in hu)))
    total = const
    quad = proof["kind"] == "norm"
    for i, (r, (lo, hi)) in enumerate(zip(rx + [rb] + rt + [rp], box)):
        if quad and i < d:  # min of ξ² + rξ over [lo, hi]: at −r/2 clamped (convex)
            t = min(max(-r / 2, lo), hi)
            total += t * t + r * t
        else:
            total += min(r * lo, r * hi)
    return total


def _checked_bound(net, side_cert, bl, bh, iv, proof, rho2):
    if proof["kind"] not in ("bound", "empty", "norm"):
        raise CertificateError(f"unknown leaf kind {proof['kind']!r}")
    bound = _leaf_bound(net, side_cert, bl, bh, iv, proof)
    if proof["kind"] == "norm":  # min ‖ξ‖² over the leaf's {N ≤ 0} vs the ball, ‖x‖ = s‖ξ‖
        bound -= rho2 / F(float(side_cert["s"])) ** 2
    return bound


def leaf_bound(net: ExactNet, side_cert: dict, bl, bh, signs, proof, rho2=None):
    """The exact bound that :func:`recheck` computes for one leaf (``> 0``: it holds), or
    None when the leaf's own intervals are empty.  ``bl, bh`` (floats or rationals) and
    ``signs`` describe the leaf as the branch tree does; ``rho2`` (the exact ρ²) is needed
    for a ``"norm"`` leaf.  For a search that confirms a leaf before accepting it; the
    certificate's intervals are checked by :func:`recheck` only."""
    iv = _node(net, side_cert, F(bl), F(bh), signs)
    if iv is None:
        return None
    return _checked_bound(net, side_cert, F(bl), F(bh), iv, proof, rho2)


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
        if kind == "vertex":  # Jensen + the vertex bound, one variable (linteach.certify.vertex)
            ok, why, low = check_vertex(net, side_cert, rho2)
            if not ok:
                raise CertificateError(f"'vertex' certificate of side {side}: {why}")
            out[side] = {"kind": kind, "leaves": 1, "cuts": 0, "min_bound": low}
            continue
        _check_intervals(net, side_cert, rho2)
        bounds, norms, leaves = [], [], 0
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
            bound = _checked_bound(net, side_cert, bl, bh, iv, proof, rho2)
            if not bound > 0:
                raise CertificateError(f"leaf bound {float(bound):.3e} is not > 0 (ū·x in "
                                       f"[{float(bl):.6g}, {float(bh):.6g}], signs {signs})")
            if proof["kind"] == "norm":  # in units of ‖ξ‖², not of N/v: kept apart
                norms.append(bound)
            else:
                bounds.append(bound)
        out[side] = {"kind": kind, "leaves": leaves, "cuts": len(side_cert["cuts"]),
                     "min_bound": float(min(bounds)) if bounds else None,
                     "norm_leaves": len(norms)}
    if sorted(out) != [-1, 1]:
        raise CertificateError("a certificate must cover both sides of the band")
    return out
