"""The smallest disagreeing point of one side of the band: a best-first branch and bound.

On side +1, ``c*`` restricted to that side is ``1/(r·min{‖x‖ : g·x = 1, N(x) ≤ 0})``.  The
w part of ``N/v`` is convex and only the u part is not, so once every u neuron's sign is
fixed the set ``{g·x = 1, N ≤ 0}`` is convex and its smallest point a convex QP; a node with
some signs open relaxes each open u term by its chord over the node's interval.  Every node
is the relaxation of :mod:`linteach.certify.search` (rows, boxes and variables
``z = (ξ, B, t, P)``, ``x = s·ξ``) plus the row ``Σ_j t_j − P ≤ 0`` (that is, ``N ≤ 0``),
with the objective ``‖ξ‖²`` (Clarabel).

A node is closed when the Lagrangian bound of its multipliers,
``min over the box of ‖ξ‖² + r·z − λ·b + μ₁``, exceeds the target ``(ρ_hi/s)²``: no point
of the node with ``N ≤ 0`` is as close as ``ρ_hi = 1/(r·hi)``.  Those are the ``"norm"``
leaves that :func:`linteach.certify.recheck` re-verifies in rationals (an infeasible QP's
Farkas ray, scaled, gives one too).  The optimum of a node whose bound does not close it is
tried as a witness in exact arithmetic: a disagreeing one lowers the incumbent, and with it
the target (``hi = lo·(1 + rtol)``, ``lo`` the best exact ratio).  A node with every sign
fixed is exact, so the search ends (at most ``2^k`` leaves).

The intervals are those of the ball of radius ``ρ₀ = s`` of the first incumbent; they stay
valid on every smaller ball, hence for the final ``c = hi`` (the re-check confirms it).
"""
from __future__ import annotations

import heapq
from fractions import Fraction

import numpy as np
import scipy.sparse as sp

from .recheck import leaf_bound
from .relax import sigma
from .search import SideSearch, Undecided

__all__ = ["NormSearch", "NORM_ACCEPT"]

#: a leaf is closed when its float bound exceeds the target by this fraction of its scale
NORM_ACCEPT = 1e-10
#: a norm leaf whose bound exceeds the target by less than this fraction of its scale is
#: confirmed in rationals before it is accepted
NORM_CONFIRM = 1e-7
#: interior-point multipliers are all > 0; those below a fraction of the largest are
#: dropped (any λ ≥ 0 is valid, the bound is re-evaluated; the exact re-check skips zeros),
#: the largest fraction first that still closes the node
SPARSE = (1e-4, 1e-8, 0.0)
#: margins (relative to the scale of N) of the row Σt − P ≤ −margin when a relaxed optimum
#: is turned into an exact witness (the QP's own tolerance can leave N just above 0)
MARGINS = (0.0, 1e-10, 1e-8, 1e-6)


#: (scaled, (gap, feasibility) tolerances) of Clarabel, tried in turn until it reports
#: Solved or PrimalInfeasible (else the last solve's multipliers are used: any λ ≥ 0 gives
#: a valid bound, which may just not close the node).  "scaled": the columns B, t, P
#: centred and scaled by their box, then each row to unit max norm
ATTEMPTS = ((True, (1e-9, 1e-10)), (False, (1e-9, 1e-10)), (True, (1e-7, 1e-8)),
            (False, (1e-7, 1e-8)))


def _settings(gap, feas):
    import clarabel

    s = clarabel.DefaultSettings()
    s.verbose = False
    s.tol_gap_abs = s.tol_gap_rel = gap
    s.tol_feas = s.tol_infeas_abs = s.tol_infeas_rel = feas
    s.max_iter = 100
    s.presolve_enable = False
    return s


class NormSearch(SideSearch):
    """Side +1 of ``W`` (pass the swapped net for side −1) at the ball of band ``c0``."""

    def __init__(self, W, alpha, c0, exact_net, *, max_nodes: int):
        super().__init__(W, alpha, c0, exact_net, max_nodes=max_nodes)
        self.cert["kind"] = "tree"
        self.memo = (None, None)

    # -- one node's QP ------------------------------------------------------------------------
    def _qp(self, bl, bh, iv, margin=0.0, attempts=None):
        """Solve ``min ‖ξ‖²`` over the node's relaxation and ``Σt − P ≤ −margin``."""
        import clarabel

        obj, _, A, b, Aeq, box = self.rows(bl, bh, iv)
        n, d = A.shape[1], self.d
        frow = np.zeros(n)
        frow[d + 1:-1], frow[-1] = 1.0, -1.0
        lo, hi = np.array(box, dtype=float).T
        eye = np.eye(n)
        G = np.vstack([Aeq, A, frow, eye, -eye])
        h = np.r_[1.0, 0.0, b, -margin, hi, -lo]
        P = sp.csc_matrix(np.diag(np.r_[2.0 * np.ones(d), np.zeros(n - d)]))
        cones = [clarabel.ZeroConeT(2), clarabel.NonnegativeConeT(len(h) - 2)]
        # row multipliers scale back exactly (column scaling leaves them unchanged)
        for scaled, (gap, feas) in attempts or ATTEMPTS:
            # "scaled": z = z0 + col·y with z0 the box centre of B, t, P (they are ~ s·|W|,
            # their differences, N among them, O(1): centring removes the cancellation)
            col, z0 = np.ones(n), np.zeros(n)
            if scaled:
                z0[d:] = 0.5 * (lo[d:] + hi[d:])
                col[d:] = np.maximum(0.5 * (hi[d:] - lo[d:]), 1e-300)
            Gs, hs = G * col, h - G @ z0
            row = np.maximum(np.abs(Gs).max(1), 1e-300) if scaled else np.ones(len(h))
            self.lps += 1
            sol = clarabel.DefaultSolver(P, np.zeros(n), sp.csc_matrix(Gs / row[:, None]),
                                         hs / row, cones, _settings(gap, feas)).solve()
            status = str(sol.status)
            if status.endswith(("Solved", "PrimalInfeasible")) and "Almost" not in status:
                break
        z = np.asarray(sol.z, dtype=float) / row
        m = A.shape[0]
        mu = -z[:2]
        lam = np.maximum(z[2:2 + m], 0.0)
        lam_f = max(float(z[2 + m]), 0.0)
        infeasible = "PrimalInfeasible" in status
        x = z0 + np.asarray(sol.x, dtype=float) * col
        if not np.all(np.isfinite(x)) or not np.all(np.isfinite(z)):
            return None, None, (A, b, Aeq, box, frow), status
        # any status: multipliers λ ≥ 0 always give a valid bound (it may just not close)
        return x, (lam, lam_f, mu, infeasible), (A, b, Aeq, box, frow), status

    @staticmethod
    def norm_bound(A, b, Aeq, box, frow, lam, lam_f, mu, d, *, ray=False):
        """The float Lagrangian bound of ``min ‖ξ‖²`` and its scale (``ray``: no ``μ₁``·1 as
        objective-free Farkas value, then scaled by the caller)."""
        r = A.T @ lam + lam_f * frow - Aeq.T @ mu
        lo, hi = np.array(box, dtype=float).T
        quad = 0.0 if ray else 1.0
        if quad:
            xi = np.clip(-r[:d] / 2.0, lo[:d], hi[:d])
            terms_x = xi * xi + r[:d] * xi
        else:
            terms_x = np.minimum(r[:d] * lo[:d], r[:d] * hi[:d])
        terms = np.concatenate([terms_x, np.minimum(r[d:] * lo[d:], r[d:] * hi[d:])])
        parts = np.concatenate([[mu[0]], -lam * b, terms])
        return float(parts.sum()), float(np.abs(parts).sum()) + 1e-300

    def close(self, bl, bh, iv, target, signs, attempts=None):
        """``(proof, value, x)``: a ``"norm"`` leaf proof if the node's bound exceeds
        ``target``, the bound itself (or None), and the relaxed optimum ``x`` (or None)."""
        xz, duals, rows, status = self._qp(bl, bh, iv, attempts=attempts)
        A, b, Aeq, box, frow = rows
        if duals is None:
            return None, None, None
        lam, lam_f, mu, infeasible = duals
        d = self.d
        if infeasible:  # N > 0 on the node: the LP's multipliers (a vertex: sparse, they
            # re-check faster than the interior point's dense Farkas ray), else the ray scaled
            proof = self.lp_close(bl, bh, iv, signs)
            if proof is not None:
                return proof, np.inf, None
            val, scale = self.norm_bound(A, b, Aeq, box, frow, lam, lam_f, mu, d, ray=True)
            if val > 1e-9 * scale:
                f = 2.0 * (target + 1.0) / val
                proof = self.accept_norm(A, b, Aeq, box, frow, (lam * f, lam_f * f, mu * f),
                                         target, bl, bh, signs)
            return proof, (np.inf if proof else None), None
        x = None if xz is None else self.s * xz[:d]
        top = float(lam.max(initial=0.0))
        for cut in SPARSE:  # the sparsest multipliers that still close the node
            got = self.accept_norm(A, b, Aeq, box, frow,
                                   (np.where(lam > cut * top, lam, 0.0), lam_f, mu),
                                   target, bl, bh, signs)
            if got is not None:
                return got, np.inf, x
        val, _ = self.norm_bound(A, b, Aeq, box, frow, lam, lam_f, mu, d)
        return None, val, x

    def accept_norm(self, A, b, Aeq, box, frow, duals, target, bl, bh, signs):
        """The ``"norm"`` proof of these multipliers if their bound exceeds ``target``
        (confirmed in rationals when it does so only narrowly), else None."""
        lam, lam_f, mu = duals
        val, scale = self.norm_bound(A, b, Aeq, box, frow, lam, lam_f, mu, self.d)
        if not val - target > NORM_ACCEPT * (scale + target):
            return None
        proof = {"kind": "norm", "lam": lam.tolist(), "lam_f": float(lam_f), "mu": mu.tolist(),
                 "n_cuts": 0}
        if val - target > NORM_CONFIRM * (scale + target) or \
                self.confirm_norm(bl, bh, signs, proof, target):
            return proof
        return None

    def confirm_norm(self, bl, bh, signs, proof, target) -> bool:
        """A ``"norm"`` leaf close to its target, confirmed in rationals against it,
        raised by 1e-12 (the float target is ``(ρ_hi/s)²`` to rounding; the final one is no
        larger, so the leaf holds for it too)."""
        self.confirmed += 1
        rho2 = Fraction(float(target)) * (1 + Fraction(1, 10**12)) * Fraction(float(self.s)) ** 2
        exact = leaf_bound(self.exact, self.cert, bl, bh, signs, proof, rho2)
        return exact is None or exact > 0

    def rows(self, bl, bh, iv):
        """The node's rows (:meth:`SideSearch._lp`, zero objective), kept for its LP."""
        key = (bl, bh, tuple(np.concatenate(iv)))
        if self.memo[0] != key:
            self.memo = (key, self._lp(bl, bh, iv, empty=True))
        return self.memo[1]

    def lp_close(self, bl, bh, iv, signs):
        """A ``"bound"`` or ``"empty"`` leaf proof from the LP of
        :class:`linteach.certify.search.SideSearch` (``N > 0`` on the leaf), or None."""
        _, const, A, b, Aeq, box = self.rows(bl, bh, iv)
        obj = np.zeros(A.shape[1])
        obj[self.d + 1:-1], obj[-1] = 1.0, -1.0  # Σ t_j − P, as SideSearch's node LP
        res = self._solve(obj, A, b, Aeq, box)
        if res.status == 2:
            lam, mu, val, scale = self._empty_proof(obj, A, b, Aeq, box)
            kind = "empty"
        else:
            lam = np.maximum(-res.ineqlin.marginals, 0.0)
            mu = np.asarray(res.eqlin.marginals, dtype=float)
            val, scale = self._bound(obj, const, A, b, box, lam, mu, Aeq)
            kind = "bound"
        proof = {"kind": kind, "lam": lam.tolist(), "mu": mu.tolist(), "n_cuts": 0}
        return proof if self.accept(val, scale, lam, mu, proof, bl, bh, signs) else None

    def witness_at(self, bl, bh, iv, x, attempts=None):
        """``x`` (or the node's optimum with a margin on N) if it disagrees exactly."""
        if x is not None and self.exact.witness(x, 0.0)["disagree"]:
            return x
        for margin in MARGINS[1:]:
            scale = float(np.abs(self.W).sum()) * self.s
            xz, duals, _, _ = self._qp(bl, bh, iv, margin * scale, attempts)
            if duals is None or duals[3]:
                return None
            y = self.s * xz[:self.d]
            if self.exact.witness(y, 0.0)["disagree"]:
                return y
        return None

    def ratio(self, x):
        r = float(np.sqrt(float(self.exact.r2)))
        return abs(float(self.g @ x)) / (r * float(np.linalg.norm(x)))

    # -- the search ---------------------------------------------------------------------------
    def run(self, lo, rtol, on_witness):
        """Close every node against the target of ``hi = lo·(1 + rtol)``; ``on_witness(x)``
        gets each exact witness found (it returns the new ``lo``, the best exact ratio over
        both sides).  Returns ``(certificate, lo)``."""
        r2 = float(self.exact.r2)

        def target(lo):  # (ρ_hi/s)², ρ_hi = 1/(r·lo·(1 + rtol)); no witness: the ball itself
            return min(1.0, 1.0 / (lo * (1 + rtol)) ** 2 / r2 / self.s**2) if lo > 0 else 1.0
        root = {}
        heap = [(0.0, 0, root, *self.cert["B"], {})]
        tick = 1
        while heap:
            _, _, node, bl, bh, signs = heapq.heappop(heap)
            self.nodes += 1
            if self.nodes > self.max_nodes:
                raise Undecided(f"norm branch and bound exceeded max_nodes = {self.max_nodes}")
            iv = self._node(bl, bh, signs)
            if iv is None:
                node["proof"] = {"kind": "interval-empty"}
                continue
            lu, hu = iv[0], iv[1]
            unfixed = [j for j in range(self.k) if lu[j] < 0 < hu[j] and j not in signs]
            # a leaf with every sign fixed is exact: if the first solve neither closes it
            # nor gives a witness, each solver setting is tried on its own
            for attempts in [None] + ([] if unfixed else [(a,) for a in ATTEMPTS]):
                proof, val, x = self.close(bl, bh, iv, target(lo), signs, attempts)
                if proof is None and x is not None and self.f(x) <= 1e-9 * self.fscale(x):
                    y = self.witness_at(bl, bh, iv, x, attempts)
                    if y is not None and self.ratio(y) > lo:
                        lo = on_witness(y)
                        proof, val, x = self.close(bl, bh, iv, target(lo), signs, attempts)
                if proof is not None:
                    break
            if proof is not None:
                node["proof"] = proof
                continue
            if not unfixed and x is not None:
                proof = self.lp_close(bl, bh, iv, signs)  # N > 0 on the whole leaf, by the LP
                if proof is not None:
                    node["proof"] = proof
                    continue
            if not unfixed:
                raise Undecided("a norm-QP leaf with every sign fixed is not closed and its "
                                "optimum is no exact witness: the float resolution")
            if x is None:
                x = self.x0
            z = self.u @ x
            gap = [(hu[j] - self.alpha * lu[j]) / (hu[j] - lu[j]) * (z[j] - lu[j])
                   + self.alpha * lu[j] - float(sigma(z[j], self.alpha)) for j in unfixed]
            j = unfixed[int(np.argmax(gap))]
            node.update(split=("sign", j), children=[{}, {}])
            for child, s in zip(node["children"], (-1, 1)):
                heapq.heappush(heap, (val if val is not None else 0.0, tick, child, bl, bh,
                                      {**signs, j: s}))
                tick += 1
        self.cert["tree"] = root
        return self.cert, lo

