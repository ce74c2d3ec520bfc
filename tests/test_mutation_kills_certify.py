"""Tests written for the survivors of the sampled campaign over the mutation target
certify-recheck (the exact re-check of Theorem 5.1's certificates, docs/math.md §5): a
re-check weakened in its own arithmetic still accepts every valid certificate, so the
tampering tests alone missed it.  Here the re-check's exact leaf bound is held to a second
computation of the same number, the searches' float Lagrangian bound built from their own
rows, on every leaf they accept; and the summary and the radii are pinned."""
import copy
import sys
from fractions import Fraction

import numpy as np
import pytest

import linteach.certify.recheck  # noqa: F401  (the module, for its leaf_bound)
from linteach.certify import (CertificateError, c_star, decide, extremal_net, nodelp,
                              normsearch, recheck, search, sharp_constant)
from linteach.generators import clustered_weights

exact = sys.modules["linteach.certify.recheck"]


def _nets(seeds, top_k, top_d, low_r):
    for seed in seeds:
        rng = np.random.default_rng(seed)
        k, d = int(rng.integers(2, top_k)), int(rng.integers(2, top_d))
        a = float(rng.uniform(0.05, 0.95))
        W = clustered_weights(k, d, r=float(rng.uniform(low_r, 0.45)), rng=rng,
                              center_norm=float(rng.uniform(0, 2)))
        yield W, a


@pytest.fixture(scope="module")
def accepted_leaves():
    """(float bound, its scale, exact bound, kind, the rows used) of every leaf the searches
    accepted while bracketing c*(W) of six small nets (k, d ≤ 3, seeds 0–5) and deciding them
    at c = 2, and deciding two wider nets (k = 7, d = 5 and k = 4, d = 4: their leaves use
    the vertex bound's row) at c = 2 and a third (k = 5, d = 6) at c = 0.5, whose search
    closes a leaf with a cut."""
    seen, mp = [], pytest.MonkeyPatch()
    real, real_norm = search.SideSearch.accept, normsearch.NormSearch.accept_norm

    def accept(self, val, scale, lam, mu, proof, bl, bh, signs, rho2=None):
        ok = real(self, val, scale, lam, mu, proof, bl, bh, signs, rho2)
        if ok:
            bound = exact.leaf_bound(self.exact, self.cert, bl, bh, signs, proof, rho2)
            seen.append((val, scale, bound, proof["kind"], np.flatnonzero(lam) - 10 * self.k))
            # any λ ≥ 0 gives a bound (positive or not): the same for other multipliers,
            # one row's λ raised in turn (the first of each block of rows: a u, a w interval,
            # a deviation, an epigraph row; both P rows; the last row), the search's rows
            # rebuilt for the leaf
            obj, const, A, b, Aeq, box = self._lp(bl, bh, self._node(bl, bh, signs),
                                                  empty=proof["kind"] == "empty")
            k = self.k
            for row in sorted({0, 1, 2 * k, 4 * k, 6 * k, 8 * k, 10 * k, 10 * k + 1,
                               len(lam) - 1}):
                other = np.array(lam, dtype=float)
                other[row] += 0.5
                val2, scale2 = nodelp.lagrangian_bound(obj, const, A, b, box, other, mu, Aeq)
                bound2 = exact.leaf_bound(self.exact, self.cert, bl, bh, signs,
                                          {**proof, "lam": other.tolist()}, rho2)
                seen.append((val2, scale2, bound2, "raised", [row - 10 * self.k]))
        return ok

    def accept_norm(self, A, b, Aeq, box, frow, duals, target, bl, bh, signs):
        proof = real_norm(self, A, b, Aeq, box, frow, duals, target, bl, bh, signs)
        if proof is not None:
            val, scale = self.norm_bound(A, b, Aeq, box, frow, *duals, self.d)
            rho2 = Fraction(float(target)) * Fraction(float(self.s)) ** 2
            bound = exact.leaf_bound(self.exact, self.cert, bl, bh, signs, proof, rho2)
            seen.append((val - target, scale + target, bound, "norm",
                         np.flatnonzero(duals[0]) - 10 * self.k))
        return proof

    mp.setattr(search.SideSearch, "accept", accept)
    mp.setattr(normsearch.NormSearch, "accept_norm", accept_norm)
    try:
        for W, a in _nets(range(6), 4, 4, 0.05):
            c_star(W, alpha=a)
            decide(W, alpha=a, c=2.0)
        for seeds, c in (((0, 1), 2.0), ((46,), 0.5)):  # seed 46: a leaf closed by a cut
            for W, a in _nets(seeds, 8, 7, 0.005):
                decide(W, alpha=a, c=c)
    finally:
        mp.undo()
    return seen


def test_every_accepted_leaf_s_exact_bound_is_the_search_s_float_bound(accepted_leaves):
    """Two computations of one Lagrangian bound from the same multipliers: the search's, in
    floats from the rows it solved, and the re-check's, in rationals from the leaf's own
    description.  They agree to 1e-9 of the bound's scale on every accepted leaf, of every
    kind (bound, empty, norm), and for the multipliers of each bound or empty leaf with one
    row's raised by 0.5, for a row of each block (any λ ≥ 0 has a bound, positive or not)."""
    kinds = {kind for *_, kind, _rows in accepted_leaves}
    assert kinds == {"bound", "empty", "norm", "raised"}
    # the two rows after the per-neuron ones (P below the u chords, P below V's chord) used
    # and a cut's row (the first after them)
    used = np.concatenate([rows for *_, kind, rows in accepted_leaves if kind != "raised"])
    assert {0, 1, 2} <= set(used.tolist())
    for val, scale, bound, kind, _rows in accepted_leaves:
        assert bound is not None and (bound > 0 or kind == "raised"), kind
        assert abs(float(bound) - val) <= 1e-9 * scale, (kind, float(bound), val, scale)


@pytest.fixture(scope="module")
def certified():
    W, _ = extremal_net(3, 0.3, c=sharp_constant(3, 0.3))
    c = sharp_constant(3, 0.3) * (1 + 1e-9)
    got = decide(W, alpha=0.3, c=c)
    assert got.holds
    return W, c, got.certificate


def _leaves(tree):
    return 1 if "split" not in tree else sum(_leaves(t) for t in tree["children"])


def _kinds(tree):
    if "split" not in tree:
        return [tree["proof"]["kind"]]
    return [kind for t in tree["children"] for kind in _kinds(t)]


def test_the_summary_counts_the_tree_s_leaves_and_its_norm_leaves_apart():
    """Per side: every leaf counted once; the "norm" leaves (bounds in units of ‖ξ‖²) counted
    apart and kept out of the smallest N/v bound."""
    for W, a in _nets(range(6), 4, 4, 0.05):
        found = c_star(W, alpha=a)
        out = recheck(W, a, found.hi, found.certificate)
        for side in found.certificate["sides"]:
            kinds = _kinds(side["tree"])
            assert out[side["side"]]["leaves"] == len(kinds)
            assert out[side["side"]]["norm_leaves"] == kinds.count("norm")
            if kinds.count("norm") == len(kinds):
                assert out[side["side"]]["min_bound"] is None


def test_a_negative_deviation_radius_is_refused_whatever_its_square(certified):
    """|(n − mean)·x| ≤ e needs e ≥ 0: −e has the same square but bounds nothing."""
    W, c, cert = certified
    bad = copy.deepcopy(cert)
    bad["sides"][0]["eu"][0] = -bad["sides"][0]["eu"][0]
    with pytest.raises(CertificateError, match="deviation radius"):
        recheck(W, 0.3, c, bad)


def test_a_side_of_an_unknown_kind_is_not_read_as_an_empty_band():
    """An empty band (c·r > ‖w̄ − ū‖) has 'empty-band' sides; the same side renamed (here
    'band', which sorts before 'empty-band') is refused."""
    W = clustered_weights(2, 2, r=0.3, rng=0, center_norm=0.1)
    got = decide(W, alpha=0.3, c=50.0)
    assert got.holds and {s["kind"] for s in got.certificate["sides"]} == {"empty-band"}
    bad = copy.deepcopy(got.certificate)
    bad["sides"][0]["kind"] = "band"
    with pytest.raises(CertificateError):
        recheck(W, 0.3, 50.0, bad)


@pytest.mark.parametrize("m, q, h, ok", [
    (0, Fraction(1, 4), Fraction(1, 2), True),     # h = m + √q exactly
    (0, Fraction(1, 4), Fraction(1, 3), False),    # below it
    (0, Fraction(1, 4), Fraction(-1, 2), False),   # (h − m)² ≥ q, but h is below m
    (1, 0, 1, True), (1, 0, Fraction(99, 100), False)])
def test_an_upper_end_is_valid_when_it_is_at_least_the_centre_plus_the_half_width(m, q, h, ok):
    """``h ≥ m + √q`` decided without a square root: h − m ≥ 0 and (h − m)² ≥ q; and the
    lower end ``l ≤ m − √q`` the mirror way."""
    assert exact._upper_ok(Fraction(m), Fraction(q), Fraction(h)) is ok
    assert exact._lower_ok(Fraction(-m), Fraction(q), Fraction(-h)) is ok
