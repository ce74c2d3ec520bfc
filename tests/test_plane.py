"""c*(W) of planar nets by the line walk (linteach.certify.plane), against independent oracles:
the norm-QP bracket of c_star (its certificate re-checked in rationals), a dense scan of
directions, the extremal construction's own constant, and exact rational replays."""
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given

from linteach.certify import c_star, extremal_net, plane_c_star, recheck, sharp_constant
from linteach.certify import plane as plane_module
from linteach.certify.exact import ExactNet
from linteach.generators import clustered_weights
from linteach.strategies import clustered_nets

from exact_oracle import max_band_ratio


def _net(seed):
    rng = np.random.default_rng(seed)
    k, a = int(rng.integers(2, 6)), float(rng.uniform(0.05, 0.95))
    W = clustered_weights(k, 2, r=float(rng.uniform(0.05, 0.5)), rng=rng,
                          center_norm=float(rng.uniform(0, 1)))
    return W, a


def _scan(W, a, n=200_001):
    t = np.linspace(0, 2 * np.pi, n)
    return max_band_ratio(W, a, np.stack([np.cos(t), np.sin(t)], 1))


@pytest.mark.parametrize("k", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("a", [0.05, 0.3, 0.7, 0.95])
def test_the_extremal_net_just_below_the_constant_pins_it(k, a):
    """Built at (1 − 1e-9)·c_k(α) it disagrees strictly there, so its own c*(W) is in
    [(1 − 1e-9)c_k, c_k], exactly in rationals (c_k(α) exact: α is a dyadic rational).
    (Built at c_k itself its only disagreement is a tie, which the rounding of its entries
    −c ± 1 can remove: then c*(W) = 0.)"""
    m, q = k // 2, Fraction(a)
    ck = m * (1 - q) / (m * (1 - q) + k * q)
    below = sharp_constant(k, a) * (1 - 1e-9)
    W, _ = extremal_net(k, a, c=below)
    got = plane_c_star(W, a, exact=True)
    assert (Fraction(below) * (1 - Fraction(1, 10**12))) ** 2 <= got.c2 <= ck**2
    assert plane_c_star(W, a).c == pytest.approx(float(np.sqrt(float(got.c2))), rel=1e-12)


@pytest.mark.parametrize("seed", range(6))
def test_the_certified_bracket_contains_the_line_walk(seed):
    """c_star's lower end is an exact witness and its upper end a certificate re-checked in
    rationals: the exact planar value lies between them, and a dense scan never beats it."""
    W, a = _net(seed)
    exact = plane_c_star(W, a, exact=True)
    c = float(np.sqrt(float(exact.c2)))
    got = c_star(W, alpha=a, rtol=1e-3, max_nodes=3000)
    recheck(W, a, got.hi, got.certificate)
    assert got.lo <= c * (1 + 1e-12) and c <= got.hi * (1 + 1e-12)
    assert _scan(W, a) <= c * (1 + 1e-9)
    assert plane_c_star(W, a).c == pytest.approx(c, rel=1e-9, abs=1e-12)


@pytest.mark.parametrize("seed", range(6))
def test_the_witness_disagrees_exactly_just_below_the_constant(seed):
    W, a = _net(seed + 10)
    got = plane_c_star(W, a, exact=True)
    if got.x is None:
        assert got.c2 == 0 and got.side == 0
        return
    net = ExactNet(W, a)
    assert net.witness(got.x, 0.0)["disagree"]
    assert net.witness(got.x, got.c * (1 - 1e-8))["in_band"]
    assert np.sign(net.D(got.x)) == got.side


def test_a_net_that_never_disagrees_off_the_hyperplane_has_c_star_zero():
    """Every w neuron at w̄, the u neurons spread along w̄ − ū itself: N and D agree."""
    W = np.array([[1.0, 0.0], [1.0, 0.0], [-0.9, 0.0], [-1.1, 0.0]])
    got = plane_c_star(W, 0.5, exact=True)
    assert got.c2 == 0 and got.x is None and got.c == 0.0


@pytest.mark.parametrize("e", [-1000, -300, 0, 300, 1000])
def test_scale_invariance_across_the_float_range(e):
    W, a = _net(3)
    assert plane_c_star(np.ldexp(W, e), a, exact=True).c2 == plane_c_star(W, a, exact=True).c2
    assert plane_c_star(3.0 * W, a).c == pytest.approx(plane_c_star(W, a).c, rel=1e-12)


def test_bad_input_is_refused_by_name():
    W, a = _net(0)
    with pytest.raises(ValueError, match="d = 2"):
        plane_c_star(np.zeros((4, 3)) + 1.0, 0.3)
    with pytest.raises(ValueError, match="r = 0"):
        plane_c_star(np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0], [0.0, 1.0]]), 0.3)
    with pytest.raises(ValueError, match="alpha"):
        plane_c_star(W, 1.5)
    with pytest.raises(ValueError, match="W"):
        plane_c_star(np.ones((3, 2)), 0.3)


def test_a_walk_that_looks_one_way_only_is_caught_by_the_oracles(monkeypatch):
    """Planted bug: the walk ignores the direction s < 0.  On some of the seeded nets the
    dense scan then finds a disagreement beyond it (the comparison above fails)."""
    walk = plane_module._walk

    def one_way(w, u, alpha, g):
        s = walk(w, u, alpha, g)
        return None if s is not None and s < 0 else s
    monkeypatch.setattr(plane_module, "_walk", one_way)
    caught = 0
    for seed in range(6):
        W, a = _net(seed)
        caught += _scan(W, a) > plane_c_star(W, a).c * (1 + 1e-9)
    assert caught > 0


def test_the_claim_closes_a_planar_bracket_exactly_and_rejects_a_wrong_walk(monkeypatch):
    """proofs_check's sharp_ratio closes a planar net's bracket with the exact value, and a
    planted walk answering twice the true c*(W) falls outside the certified bracket: an
    error, never a closed bracket."""
    import dataclasses

    from proofs_check.kit import certified
    W, a = next(net for net in map(_net, range(20)) if plane_c_star(*net, exact=True).c2 > 0)
    ck = sharp_constant(W.shape[0] // 2, a)
    got = certified.sharp_ratio(W, a, ck, rtol=1e-2, max_nodes=3000)
    c = float(np.sqrt(float(plane_c_star(W, a, exact=True).c2))) / ck
    assert got["closed"] and got["exact"] and got["lo"] <= c <= got["hi"] <= c * (1 + 1e-12)
    wrong = lambda *args, **kw: dataclasses.replace(plane_c_star(*args, **kw),  # noqa: E731
                                                     c2=4 * plane_c_star(*args, **kw).c2)
    monkeypatch.setattr(certified, "plane_c_star", wrong)
    with pytest.raises(RuntimeError, match="outside the certified bracket"):
        certified.sharp_ratio(W, a, ck, rtol=1e-2, max_nodes=3000)


@given(clustered_nets(k=(2, 6), d=(2, 2), r=(0.01, 0.49), center_norm=(0.0, 3.0)))
def test_no_direction_beats_the_walk_and_its_witness_disagrees(net_W):
    """Property: over any planar clustered net, a scan of directions never finds a
    disagreement at a larger band ratio than the walk's c*(W), floats and rationals agree,
    and the exact witness disagrees at a ratio within 1e-8 below c*(W)."""
    net, W = net_W
    exact = plane_c_star(W, net.alpha, exact=True)
    c = float(np.sqrt(float(exact.c2)))
    k = W.shape[0] // 2
    top = np.linalg.norm(W[:k].mean(0) - W[k:].mean(0)) / np.sqrt(float(ExactNet(W, 0.5).r2))
    assert _scan(W, net.alpha, n=20_001) <= c * (1 + 1e-9) + 1e-300
    # floats: rounding, and near c* = 0 a tiny positive value (a far root of N ≈ 0)
    assert plane_c_star(W, net.alpha).c == pytest.approx(c, rel=1e-9, abs=1e-9 * top)
    if exact.x is not None:
        got = ExactNet(W, net.alpha).witness(exact.x, c * (1 - 1e-8))
        assert got["disagree"] and got["in_band"]


def test_a_root_inside_a_piece_that_ends_beyond_the_other_directions_root():
    """Found by the property above: on side −1 of this net the root of direction −1 (at
    |s| ≈ 37) lies on a piece whose far kink (|s| ≈ 100) is beyond direction +1's root
    (|s| ≈ 47).  The walk once stopped at that kink and reported the larger root, a c*(W)
    of 0.0848 where the certified bracket is [0.1081, 0.1082]."""
    W = np.array([[0.36588063, -0.52607763], [0.20106556, -0.52779537],
                  [0.32249702, -0.15397252], [-0.23380763, 0.41500907],
                  [-0.28712957, 0.3818412], [-0.36850601, 0.41099525]])
    got = c_star(W, alpha=0.5, rtol=1e-4, max_nodes=5000)
    recheck(W, 0.5, got.hi, got.certificate)
    c = float(np.sqrt(float(plane_c_star(W, 0.5, exact=True).c2)))
    assert got.lo <= c * (1 + 1e-12) and c <= got.hi * (1 + 1e-12)


@pytest.mark.parametrize("e", [-600, 600])
def test_the_claims_planar_bracket_is_the_same_for_w_and_a_power_of_two_times_w(e):
    """W and 2^±600·W (entries near 1e±180, squares past float64) get the same bracket,
    with no NumPy warning (warnings are errors here)."""
    from proofs_check.kit import certified
    W, a = next(net for net in map(_net, range(20)) if plane_c_star(*net, exact=True).c2 > 0)
    ck = sharp_constant(W.shape[0] // 2, a)
    want = certified.sharp_ratio(W, a, ck, rtol=1e-2, max_nodes=3000)
    got = certified.sharp_ratio(np.ldexp(W, e), a, ck, rtol=1e-2, max_nodes=3000)
    assert (got["lo"], got["hi"], got["closed"]) == (want["lo"], want["hi"], want["closed"])
