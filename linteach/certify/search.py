"""Float search for one side of the band: branch and bound over LP relaxations (HiGHS).

The slice ``S = {g·x = 1, ‖x‖ ≤ ρ}`` (``g = w̄ − ū``, ``ρ = 1/(c·r)``) is searched for a
point with ``f(x) = N_W(x)/v ≤ 0``.  A node is an interval ``[bl, bh]`` of ``ū·x`` and a
set of fixed u-neuron signs; its relaxation (row order as in :mod:`linteach.certify`) is

    min  Σ_j t_j − Σ_j φ_j(u_j·x)     s.t.  t_j ≥ w_j·x, t_j ≥ α w_j·x, g·x = 1,
         node intervals of ū·x, u_j·x, w_j·x;  ball cuts a·x ≤ β;  x, t in boxes,

``φ_j`` the chord of σ over the node's interval of ``u_j·x`` (σ itself once the sign is
fixed).  A leaf is accepted when the Lagrangian bound of its HiGHS multipliers, evaluated
in floats, is clearly > 0; :func:`linteach.certify.exact.recheck` re-verifies it exactly.
The ball enters only through the box, the interval bounds and cuts, all *outer*
approximations, so a relaxation can only be too weak (a point outside the ball), never
unsound: such a point adds a cut; a point inside the ball with ``f ≤ 0`` is checked as a
witness in exact arithmetic.
"""
from __future__ import annotations

import numpy as np

from .nodelp import farkas_proof, lagrangian_bound, solve_node_lp
from .recheck import leaf_bound
from .relax import chord, chord_v, sigma

__all__ = ["SideSearch", "Undecided"]

#: outward padding of every float bound (relative); the exact re-check confirms validity
PAD = 4e-14
#: a float leaf bound must exceed this fraction of its scale to be accepted
ACCEPT = 1e-13
#: a leaf bound below this fraction of its scale (or near the rows' float error) is
#: confirmed in exact rationals before it is accepted
CONFIRM = 1e-10
#: float error of the rows per unit of s·max|W|·(k + d)·Σ|multipliers| (u − ū, w − w̄ and
#: ū are rounded before they are scaled by s): a bound within it is confirmed exactly
ROW_ERROR = 1e-15
#: re-solves of one node with new cuts before it is branched anyway
CUT_ROUNDS = 25
#: largest ρ·max|W| the float LP is trusted with (beyond it: Undecided, never a guess)
MAX_RANGE = 1e9


class Undecided(RuntimeError):
    """Neither a certificate nor an exact witness within the float resolution or budget."""


class SideSearch:
    """Branch and bound for side +1 of ``W`` (pass the swapped net for side −1)."""

    def __init__(self, W, alpha, c, exact_net, *, max_nodes: int):
        self.W, self.alpha, self.c = W, float(alpha), float(c)
        k = W.shape[0] // 2
        self.k, self.d = k, W.shape[1]
        self.w, self.u = W[:k], W[k:]
        self.w_bar, self.u_bar = self.w.mean(0), self.u.mean(0)
        self.g = self.w_bar - self.u_bar
        self.G = float(self.g @ self.g)
        dev_w = np.linalg.norm(self.w - self.w_bar, axis=1)
        dev_u = np.linalg.norm(self.u - self.u_bar, axis=1)
        r = float(np.sqrt(float(exact_net.r2)))  # the exact r², rounded
        self.rho = 1.0 / (self.c * r)
        self.rho_perp = np.sqrt(max(self.rho**2 - 1.0 / self.G, 0.0))
        if not self.rho * float(np.abs(W).max()) <= MAX_RANGE:
            raise Undecided(f"the slice's radius ρ = 1/(c·r) = {self.rho:.3g} times the weights "
                            f"exceeds {MAX_RANGE:g}: pre-activations over the slice span more "
                            "than a float64 LP resolves (r is tiny next to the weights)")
        self.x0 = self.g / self.G
        self.s = float(self.rho)  # x = s·ξ: ξ in the unit ball (any dyadic s is exact)
        self.du, self.dw = self.u - self.u_bar, self.w - self.w_bar
        self.exact, self.max_nodes = exact_net, max_nodes
        self.cert = {"side": 1, "kind": "tree", "cuts": [], "s": self.s,
                     "B": self._interval(self.u_bar),
                     "Iu": [self._interval(a) for a in self.u],
                     "Iw": [self._interval(a) for a in self.w],
                     "Ix": [self._interval(a) for a in np.eye(self.d)],
                     "eu": self._radii(self.u, self.u_bar, dev_u),
                     "ew": self._radii(self.w, self.w_bar, dev_w)}
        self.nodes = self.lps = self.confirmed = 0

    def _radii(self, rows, mean, dev):
        """``e_j ≥ ‖n_j − mean‖·ρ``, padded for the float error of the mean."""
        slack = 1e-14 * (np.linalg.norm(rows, axis=1) + np.linalg.norm(mean))
        return [float(e) for e in (dev * (1 + PAD) + slack) * self.rho]

    # -- valid bounds on S ------------------------------------------------------------------
    def _extent(self, a):
        m = float(a @ self.g) / self.G
        a_perp = a - m * self.g
        half = self.rho_perp * float(np.linalg.norm(a_perp))
        pad = PAD * (abs(m) + half) + 1e-12 * self.rho * float(np.linalg.norm(a)) + 1e-300
        return m, half, pad

    def _interval(self, a):
        m, half, pad = self._extent(a)
        return (float(m - half - pad), float(m + half + pad))

    def _cut(self, x):
        y = x - (x @ self.g / self.G) * self.g
        a = y / np.linalg.norm(y)
        m, half, pad = self._extent(a)
        self.cert["cuts"].append((a.tolist(), float(m + half + pad)))

    # -- one node's LP ----------------------------------------------------------------------
    def _node(self, bl, bh, signs):
        Iu, Iw = np.array(self.cert["Iu"]), np.array(self.cert["Iw"])
        eu, ew = np.array(self.cert["eu"]), np.array(self.cert["ew"])
        lu, hu = np.maximum(Iu[:, 0], bl - eu), np.minimum(Iu[:, 1], bh + eu)
        for j, s in signs.items():
            if s > 0:
                lu[j] = max(lu[j], 0.0)
            else:
                hu[j] = min(hu[j], 0.0)
        lw, hw = np.maximum(Iw[:, 0], bl + 1 - ew), np.minimum(Iw[:, 1], bh + 1 + ew)
        if bl > bh or np.any(lu > hu) or np.any(lw > hw):
            return None
        return lu, hu, lw, hw

    def _lp(self, bl, bh, iv, *, empty=False):
        """The node LP in z = (ξ, B, t), x = s·ξ (row order: see linteach.certify)."""
        lu, hu, lw, hw = iv
        k, d, a, sc = self.k, self.d, self.alpha, self.s
        n = d + 2 + k
        rows, rhs = [], []

        def add(coef_xi, coef_b, t_col, b, coef_p=0.0):
            row = np.zeros(n)
            row[:d], row[d], row[-1] = coef_xi, coef_b, coef_p
            if t_col is not None:
                row[d + 1 + t_col] = -1.0
            rows.append(row), rhs.append(b)
        for j in range(k):
            add(-sc * self.du[j], -1.0, None, -lu[j]), add(sc * self.du[j], 1.0, None, hu[j])
        for j in range(k):
            add(-sc * self.dw[j], -1.0, None, 1 - lw[j])
            add(sc * self.dw[j], 1.0, None, hw[j] - 1)
        for dev, e in ((self.du, self.cert["eu"]), (self.dw, self.cert["ew"])):
            for j in range(k):
                add(-sc * dev[j], 0.0, None, e[j]), add(sc * dev[j], 0.0, None, e[j])
        for j in range(k):
            add(sc * self.dw[j], 1.0, j, -1.0), add(a * sc * self.dw[j], a, j, -a)
        # P ≥ Σσ(u_j·x): P ≤ Σ chords, and P ≤ the chord of V(B) (the vertex bound)
        slopes, icpts = zip(*(chord(lu[j], hu[j], a) for j in range(k)))
        slopes = np.array(slopes)
        add(-sc * (slopes @ self.du), -slopes.sum(), None, float(np.sum(icpts)), 1.0)
        sv, iv_ = chord_v(bl, bh, max(self.cert["eu"]), k, a)
        add(np.zeros(d), -sv, None, iv_, 1.0)
        for cut, beta in self.cert["cuts"]:
            add(sc * np.asarray(cut), 0.0, None, beta)
        A, b = np.array(rows), np.array(rhs)
        obj = np.zeros(n)
        if not empty:
            obj[d + 1:-1], obj[-1] = 1.0, -1.0
        box = [(lo / sc, hi / sc) for lo, hi in self.cert["Ix"]] + [(bl, bh)] + \
              [(float(sigma(lw[j], a)), float(sigma(hw[j], a))) for j in range(k)] + \
              [(float(sigma(lu, a).sum()), float(sigma(hu, a).sum()))]
        Aeq = np.zeros((2, n))
        Aeq[0, :d] = sc * self.g
        Aeq[1, :d], Aeq[1, d] = -sc * self.u_bar, 1.0
        return obj, 0.0, A, b, Aeq, box

    def _solve(self, obj, A, b, Aeq, box):
        res, tries = solve_node_lp(obj, A, b, Aeq, box)
        self.lps += tries
        return res

    _bound = staticmethod(lagrangian_bound)

    def _empty_proof(self, obj, A, b, Aeq, box):
        return farkas_proof(self._solve, obj, A, b, Aeq, box)

    # -- the branch and bound ---------------------------------------------------------------
    def run(self, check_point):
        """Certificate dict for side +1, or the first exact witness (``check_point(x)``)."""
        root = {}
        stack = [(root, *self.cert["B"], {})]
        while stack:
            node, bl, bh, signs = stack.pop()
            self.nodes += 1
            if self.nodes > self.max_nodes:
                raise Undecided(f"branch and bound exceeded max_nodes = {self.max_nodes}")
            out = self._process(node, bl, bh, signs, check_point)
            if isinstance(out, np.ndarray):
                return out
            stack += out
        self.cert["tree"] = root
        return self.cert

    def _process(self, node, bl, bh, signs, check_point):
        iv = self._node(bl, bh, signs)
        if iv is None:
            node["proof"] = {"kind": "interval-empty"}
            return []
        can_branch = self._can_branch(bl, bh, signs, iv)
        for rounds in range(CUT_ROUNDS):
            obj, const, A, b, Aeq, box = self._lp(bl, bh, iv)
            res = self._solve(obj, A, b, Aeq, box)
            if res.status == 2:
                lam, mu, val, scale = self._empty_proof(obj, A, b, Aeq, box)
                proof = {"kind": "empty", "lam": lam.tolist(), "mu": mu.tolist(),
                         "n_cuts": len(self.cert["cuts"])}
                if self.accept(val, scale, lam, mu, proof, bl, bh, signs):
                    node["proof"] = proof
                    return []
                if not can_branch:
                    raise Undecided("a node LP is infeasible but its Farkas bound is not "
                                    f"positive ({val:.3e} of scale {scale:.3e}, or in the "
                                    "exact re-check)")
                x = self.x0  # no LP point: branch on the sign whose chord gap is largest there
                break
            lam = np.maximum(-res.ineqlin.marginals, 0.0)
            mu = np.asarray(res.eqlin.marginals, dtype=float)
            val, scale = self._bound(obj, const, A, b, box, lam, mu, Aeq)
            proof = {"kind": "bound", "lam": lam.tolist(), "mu": mu.tolist(),
                     "n_cuts": len(self.cert["cuts"])}
            if self.accept(val, scale, lam, mu, proof, bl, bh, signs):
                node["proof"] = proof
                return []
            x = self.s * res.x[:self.d]
            hit = self._try_witness(x, check_point)
            if hit is not None:
                return hit
            if x @ x <= self.rho**2 * (1 + 1e-9):
                break
            # outside the ball: cut if the relaxation is tight at x (the ball is what binds),
            # branch if the gap is the chords' (a cut would not close it)
            tight = self.f(x) - res.fun <= 1e-9 * self.fscale(x)
            if can_branch and not tight:
                break
            self._cut(x)
        return self._branch(node, bl, bh, signs, iv, x, check_point)

    def accept(self, val, scale, lam, mu, proof, bl, bh, signs, rho2=None) -> bool:
        """Whether a leaf's float bound ``val`` proves it: clearly positive, or else (close
        to the float error of the rows, which carry ``s``·(rounding of u − ū) per unit of λ)
        confirmed in rationals by :func:`linteach.certify.recheck.leaf_bound`, so the search
        never accepts a leaf the re-check rejects (it branches further instead)."""
        if not val > ACCEPT * scale:
            return False
        err = ROW_ERROR * self.s * float(np.abs(self.W).max()) * (self.k + self.d) * \
            (float(np.sum(lam)) + float(np.sum(np.abs(mu))))
        if val > CONFIRM * scale + err:
            return True
        self.confirmed += 1
        exact = leaf_bound(self.exact, self.cert, bl, bh, signs, proof, rho2)
        return exact is None or exact > 0

    def _can_branch(self, bl, bh, signs, iv):
        lu, hu = iv[0], iv[1]
        eu = max(self.cert["eu"])
        return any(lu[j] < 0 < hu[j] and j not in signs for j in range(self.k)) or \
            bh - bl > 1e-9 * (abs(bl) + abs(bh) + eu)

    def _try_witness(self, x, check_point):
        """``x`` and its projection into the ball, checked exactly if f looks ≤ 0."""
        y = x - (x @ self.g / self.G) * self.g
        ny = float(np.linalg.norm(y))
        cands = [x]
        if ny > 0:
            cands.append(self.x0 + y * min(1.0, self.rho_perp / ny) * (1 - 1e-12))
        for z in cands:
            if self.f(z) <= 1e-12 * self.fscale(z):
                if check_point(z):
                    return z
        return None

    def f(self, x):
        return float(sigma(self.w @ x, self.alpha).sum() - sigma(self.u @ x, self.alpha).sum())

    def fscale(self, x):
        return float(np.abs(self.W @ x).sum()) + 1e-300

    def _breakpoint(self, bl, bh):
        """A kink of the relaxation strictly inside ``[bl, bh]``: first the vertex bound's
        (B = ±e, and 0 for odd k), then w̄·x = 0 (B = −1) and the w switching zone's edges."""
        eu, ew = max(self.cert["eu"]), max(self.cert["ew"])
        width = bh - bl
        kinks = (-eu, 0.0, eu) if self.k % 2 else (-eu, eu)
        for at in kinks + (-1.0, -1 - ew, -1 + ew):
            if bl + 1e-6 * width < at < bh - 1e-6 * width:
                return float(at)
        return None

    def _branch(self, node, bl, bh, signs, iv, x, check_point):
        lu, hu = iv[0], iv[1]
        unfixed = [j for j in range(self.k) if lu[j] < 0 < hu[j] and j not in signs]
        width = bh - bl
        eu = max(self.cert["eu"])
        at = self._breakpoint(bl, bh)
        if at is None and unfixed and width <= 4 * eu:
            z = self.u @ x
            gap = []
            for j in unfixed:
                slope = (hu[j] - self.alpha * lu[j]) / (hu[j] - lu[j])
                chord = self.alpha * lu[j] + slope * (z[j] - lu[j])
                gap.append(chord - float(sigma(z[j], self.alpha)) + 1e-3 * (hu[j] - lu[j]))
            j = unfixed[int(np.argmax(gap))]
            node.update(split=("sign", j), children=[{}, {}])
            return [(node["children"][0], bl, bh, {**signs, j: -1}),
                    (node["children"][1], bl, bh, {**signs, j: 1})]
        if at is None and width > 1e-9 * (abs(bl) + abs(bh) + eu):
            at = 0.5 * (bl + bh)
        if at is not None:
            node.update(split=("B", at), children=[{}, {}])
            return [(node["children"][0], bl, at, signs), (node["children"][1], at, bh, signs)]
        raise Undecided("a leaf with every sign fixed has relaxation minimum ≈ 0 but no exact "
                        "witness: c is within the float resolution of the net's sharp constant")
