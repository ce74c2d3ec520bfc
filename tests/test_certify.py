"""linteach.certify: exact decisions of Theorem 5.1's band, certificates, the sharp constant."""
import copy
import itertools
from fractions import Fraction

import numpy as np
import pytest

from linteach.certify import (CertificateError, Undecided, c_star, decide, extremal_net,
                              recheck, sharp_constant)
from linteach.generators import clustered_weights

from exact_oracle import exact_pieces, max_band_ratio

ALPHAS = (0.05, 0.3, 0.7, 0.95)
#: relative offset from the sharp constant of the pinned decisions
OFFSET = 1e-9


def _assert_witness(W, alpha, c, x):
    sN, sD, D2, r2x2 = exact_pieces(W, alpha, x)
    assert sN != sD, "the witness does not disagree"
    assert D2 >= Fraction(c) ** 2 * r2x2, "the witness is outside the band"


# -- the sharp constant c_k(α) -----------------------------------------------------------------
def _brute_sharp(k, alpha):
    """c_k from the 1-D reduction, by enumerating the deviation vertices (no closed form)."""
    best = 0.0
    for delta in itertools.product((-1.0, 0.0, 1.0), repeat=k):
        if sum(delta) != 0:
            continue
        # violation at D iff (1−α) Σ(δ_j − D)⁺ ≥ αkD: largest D by bisection
        lo, hi = 0.0, 1.0
        for _ in range(80):
            mid = 0.5 * (lo + hi)
            ok = (1 - alpha) * sum(max(d - mid, 0.0) for d in delta) >= alpha * k * mid
            lo, hi = (mid, hi) if ok else (lo, mid)
        best = max(best, lo)
    return best


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5, 6])
@pytest.mark.parametrize("alpha", ALPHAS)
def test_sharp_constant_matches_the_vertex_enumeration(k, alpha):
    assert sharp_constant(k, alpha) == pytest.approx(_brute_sharp(k, alpha), rel=1e-12, abs=1e-15)


def test_sharp_constant_even_odd_and_supremum():
    for a in ALPHAS:
        even = (1 - a) / (1 + a)
        assert sharp_constant(2, a) == pytest.approx(even) == sharp_constant(6, a)
        for k in (3, 5, 7, 101):
            assert sharp_constant(k, a) < even
        assert sharp_constant(10**6 + 1, a) == pytest.approx(even, rel=1e-5)


@pytest.mark.parametrize("k", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("alpha", ALPHAS)
def test_extremal_net_violates_just_below_the_sharp_constant(k, alpha):
    c = sharp_constant(k, alpha) * (1 - OFFSET)
    W, _ = extremal_net(k, alpha, c=c)
    got = decide(W, alpha=alpha, c=c)
    assert not got.holds
    _assert_witness(W, alpha, c, got.witness)


@pytest.mark.parametrize("k", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("alpha", ALPHAS)
def test_extremal_nets_are_certified_just_above_the_sharp_constant(k, alpha):
    c = sharp_constant(k, alpha) * (1 + OFFSET)
    for c_build in (sharp_constant(k, alpha), sharp_constant(k, alpha) * (1 - OFFSET)):
        W, _ = extremal_net(k, alpha, c=c_build)
        got = decide(W, alpha=alpha, c=c)
        assert got.holds
        summary = recheck(W, alpha, c, got.certificate)
        assert set(summary) == {1, -1}


def test_extremal_net_ties_at_the_sharp_constant():
    for k, a in ((2, 0.5), (3, 0.5)):
        W, x = extremal_net(k, a, c=Fraction(1, 4) and 0.25)
        # c = 1/4 is exact in binary: N(x̂)/v = −m(1−α) + c(m(1−α) + kα)
        m = k // 2
        sN, sD, _, _ = exact_pieces(W, a, x)
        expected = -m * (1 - a) + 0.25 * (m * (1 - a) + k * a)
        assert sD == 1 and sN == np.sign(expected)


def test_width_one_is_certified_at_every_band():
    rng = np.random.default_rng(3)
    W = clustered_weights(1, 4, r=0.0, rng=rng)
    for c in (0.0, 1e-9, 2.0):
        got = decide(W, alpha=0.3, c=c)
        assert got.holds and {s["kind"] for s in got.certificate["sides"]} == {"clustered"}
        recheck(W, 0.3, c, got.certificate)


# -- random nets: certificates at 2 and at the strict sharp form ---------------------------------
@pytest.mark.parametrize("seed", range(4))
def test_random_nets_are_certified_at_two_and_above_their_sharp_constant(seed):
    rng = np.random.default_rng(seed)
    k, d, a = int(rng.integers(2, 8)), int(rng.integers(2, 7)), float(rng.uniform(0.05, 0.95))
    W = clustered_weights(k, d, r=float(rng.uniform(0.05, 0.45)), rng=rng,
                          center_norm=float(rng.uniform(0, 2)))
    for c in (2.0, sharp_constant(k, a) * (1 + OFFSET)):
        got = decide(W, alpha=a, c=c)
        assert got.holds
        recheck(W, a, c, got.certificate)


def test_relu_zero_region_is_a_witness_and_the_leaky_twin_is_certified():
    w, u = np.array([1.0, 0.2, -0.3]), np.array([-0.4, 1.0, 0.5])
    W = np.stack([w, w, u, u])
    got = decide(W, alpha=0.0, c=2.0)
    assert not got.holds and got.witness_info["N_over_v"] == 0.0
    _assert_witness(W, 0.0, 2.0, got.witness)
    leaky = decide(W, alpha=0.2, c=2.0)
    assert leaky.holds
    recheck(W, 0.2, 2.0, leaky.certificate)


# -- the re-check is independent and strict ------------------------------------------------------
@pytest.fixture(scope="module")
def certified():
    W, _ = extremal_net(3, 0.3, c=sharp_constant(3, 0.3))
    c = sharp_constant(3, 0.3) * (1 + OFFSET)
    got = decide(W, alpha=0.3, c=c)
    assert got.holds
    return W, c, got.certificate


def _leaf(tree):
    while "split" in tree:
        tree = tree["children"][0]
    return tree


@pytest.mark.parametrize("tamper", ["multiplier", "interval", "radius", "cover", "constant",
                                    "side"])
def test_recheck_rejects_a_tampered_certificate(certified, tamper):
    W, c, cert = certified
    bad = copy.deepcopy(cert)
    side = bad["sides"][0]
    if tamper == "multiplier":
        leaf = _leaf(side["tree"])
        if leaf["proof"]["kind"] == "interval-empty":
            pytest.skip("first leaf has no multipliers")
        leaf["proof"]["lam"] = [0.0] * len(leaf["proof"]["lam"])
        leaf["proof"]["mu"] = [0.0, 0.0]
    elif tamper == "interval":
        lo, hi = side["Iu"][0]
        side["Iu"][0] = (lo + 0.5 * (hi - lo), hi)
    elif tamper == "radius":
        side["eu"][0] *= 0.5
    elif tamper == "cover":  # claim a subtree is a leaf it never proved
        side["tree"] = {"proof": {"kind": "bound", "lam": [], "mu": [0.0, 0.0], "n_cuts": 0}}
    elif tamper == "constant":
        with pytest.raises(CertificateError):
            recheck(W, 0.3, c * 0.5, cert)
        return
    else:
        bad["sides"] = bad["sides"][:1]
    with pytest.raises(CertificateError):
        recheck(W, 0.3, c, bad)


def test_recheck_refuses_a_certificate_for_a_violating_net(certified):
    W, c, cert = certified
    W2, _ = extremal_net(3, 0.3, c=sharp_constant(3, 0.3) * 0.5)
    with pytest.raises(CertificateError):
        recheck(W2, 0.3, c * 0.5, dict(cert, c=c * 0.5))


# -- scale invariance, input validation ---------------------------------------------------------
@pytest.mark.parametrize("scale", [2.0**-900, 1e-300, 1e-12, 3.7, 1e200, 2.0**900])
def test_same_answer_for_scaled_nets(scale):
    a = 0.3
    for c_build, c in ((sharp_constant(2, a), sharp_constant(2, a) * (1 + OFFSET)),
                       (0.5 * sharp_constant(2, a), 0.5 * sharp_constant(2, a))):
        W, _ = extremal_net(2, a, c=c_build, d=3)
        base = decide(W, alpha=a, c=c)
        got = decide(W * scale, alpha=a, c=c)
        assert got.holds == base.holds
        if got.holds:
            recheck(W * scale, a, c, got.certificate)
        else:
            _assert_witness(W * scale, a, c, got.witness)


def test_float_range_exceeded_is_a_clear_error():
    W = np.array([[1e300, 1.0], [1e300, 0.0], [1e-300, 1.0], [0.0, 1.0]])
    with pytest.raises(ValueError, match="float64's range"):
        decide(W, alpha=0.3, c=2.0)


@pytest.mark.parametrize("kwargs, exc, match", [
    (dict(W=np.ones((3, 2))), ValueError, "2k"),
    (dict(W=np.ones(4)), ValueError, "at least 2 axes"),
    (dict(W=np.array([[np.nan, 1.0], [0.0, 1.0]])), ValueError, "finite"),
    (dict(W=[["a", "b"], ["c", "d"]]), TypeError, "real numbers"),
    (dict(alpha=1.0), ValueError, "`alpha` must be < 1"),
    (dict(alpha=-0.1), ValueError, "`alpha` must be >= 0"),
    (dict(alpha="0.3"), TypeError, "`alpha` must be a real number"),
    (dict(c=-1.0), ValueError, "`c` must be >= 0"),
    (dict(v=0.0), ValueError, "`v` must be > 0"),
    (dict(max_nodes=0), ValueError, "`max_nodes` must be >= 1"),
])
def test_bad_input_names_the_argument(kwargs, exc, match):
    args = dict(W=np.array([[1.0, 0.0], [0.0, 1.0]]), alpha=0.3, c=2.0) | kwargs
    W = args.pop("W")
    with pytest.raises(exc, match=match):
        decide(W, **args)


def test_bad_input_of_the_sharp_constant():
    with pytest.raises(ValueError, match="`k` must be >= 1"):
        sharp_constant(0, 0.3)
    with pytest.raises(ValueError, match="`alpha` must be > 0"):
        sharp_constant(2, 0.0)


def test_band_zero_with_spread_neurons_is_undecided_not_a_pass():
    W, _ = extremal_net(2, 0.3)
    with pytest.raises(Undecided):
        decide(W, alpha=0.3, c=0.0)


# -- a net's own constant ------------------------------------------------------------------------
def _scan_2d(W, alpha, n=200_001):
    """c*(W) for d = 2 by a dense scan of directions (a lower bound of the sup)."""
    t = np.linspace(0, 2 * np.pi, n)
    return max_band_ratio(W, alpha, np.stack([np.cos(t), np.sin(t)], 1))


@pytest.mark.parametrize("seed", [0, 1, pytest.param(2, marks=pytest.mark.slow)])
def test_c_star_brackets_a_dense_scan_in_two_dimensions(seed):
    rng = np.random.default_rng(seed)
    k, a = int(rng.integers(2, 5)), float(rng.uniform(0.1, 0.8))
    W = clustered_weights(k, 2, r=0.4, rng=rng, center_norm=float(rng.uniform(0, 1)))
    got = c_star(W, alpha=a, rtol=1e-3)
    scan = _scan_2d(W, a)
    assert got.hi <= sharp_constant(k, a) * (1 + 2 * OFFSET)
    assert scan <= got.hi * (1 + 1e-9)          # the certificate bounds every direction
    assert got.lo >= scan * (1 - 2e-3) or got.lo >= got.hi * (1 - 1e-3)
    recheck(W, a, got.hi, got.certificate)
    if got.lo > 0:
        _assert_witness(W, a, got.lo, got.witness)


@pytest.mark.slow  # about a second of CPU per width (α = 0.7: make check-dist; the claim
@pytest.mark.parametrize("k", [2, 3, 4, 5, 6])  # searches α = 0.3 at standard, four α thorough)
@pytest.mark.parametrize("a", [0.3, pytest.param(0.7, marks=pytest.mark.long)])
def test_adversarial_search_comes_within_one_percent_and_never_exceeds(k, a):
    """From random nets (seed 1, the budgets' schedule), the search reaches
    c*(W) ≥ 0.99·c_k(α); its best net is certified at c_k(α)(1 + 1e-9), so it is ≤ c_k."""
    from linteach.certify import adversarial_search
    got = adversarial_search(k, a, restarts=3, evals=80, polish=4, rtol=1e-3, rng=1)
    assert not got["exceeded"]
    assert 0.99 <= got["best"] <= 1.0
    assert got["best_hi"] is not None and got["best_hi"] >= got["best"]
    c = sharp_constant(k, a) * (1 + OFFSET)
    dec = decide(got["W"], alpha=a, c=c)
    assert dec.holds
    recheck(got["W"], a, c, dec.certificate)


def test_adversarial_search_parametrisation():
    """θ = (w̄, ū, z): every w neuron at w̄, u deviations along e₁ centred, padded to d."""
    from linteach.certify.adversary import net_of
    W = net_of(np.array([0.0, 0.75, -0.5, 0.5, 50.0, -50.0]), 2, d=3)
    np.testing.assert_allclose(W, [[0, 0.75, 0], [0, 0.75, 0], [0.5, 0.5, 0], [-1.5, 0.5, 0]])


# -- the one-variable certificate of slices too wide for a float LP ----------------------------
def _tight_net(k=4, rel=1e-13):
    return clustered_weights(k, 3, r=rel, gap=1.0, center_norm=500.0,
                             rng=np.random.default_rng(3))


@pytest.mark.parametrize("k", [2, 3, 4, 5])
def test_tight_nets_get_the_vertex_certificate_at_the_sharp_band(k):
    W, a = _tight_net(k), 0.4
    c = sharp_constant(k, a) * (1 + OFFSET)
    got = decide(W, alpha=a, c=c)
    assert got.holds and {s["kind"] for s in got.certificate["sides"]} == {"vertex"}
    summary = recheck(W, a, c, got.certificate)
    assert all(s["min_bound"] > 0 for s in summary.values())


def test_vertex_certificate_is_not_issued_below_the_sharp_constant():
    W, a = _tight_net(2), 0.4
    with pytest.raises(Undecided, match="float64"):
        decide(W, alpha=a, c=sharp_constant(2, a) * (1 - 1e-6))


@pytest.mark.parametrize("tamper", ["radius", "constant"])
def test_recheck_rejects_a_tampered_vertex_certificate(tamper):
    W, a = _tight_net(3), 0.4
    c = sharp_constant(3, a) * (1 + OFFSET)
    cert = decide(W, alpha=a, c=c).certificate
    bad = copy.deepcopy(cert)
    if tamper == "radius":  # a radius below max_j ‖u_j − ū‖·ρ would make h look positive
        bad["sides"][0]["e"] *= 1 - 1e-6
        with pytest.raises(CertificateError, match="radius"):
            recheck(W, a, c, bad)
    else:  # claimed at a band below c_k with its radius valid there: h(B) ≤ 0 at a kink
        low = sharp_constant(3, a) * (1 - 1e-3)
        for side in bad["sides"]:
            side["e"] *= c / low * (1 + 1e-9)
        with pytest.raises(CertificateError, match="kink"):
            recheck(W, a, low, dict(bad, c=low))
