"""A net's own sharp constant c*(W): closed brackets, their witnesses and certificates."""
import copy
from fractions import Fraction

import numpy as np
import pytest

from linteach.certify import CertificateError, c_star, decide, recheck, sharp_constant
from linteach.certify.exact import ExactNet
from linteach.certify.recheck import leaf_bound
from linteach.generators import clustered_weights

from exact_oracle import exact_pieces, max_band_ratio

RTOL = 1e-2


def _net(seed):
    rng = np.random.default_rng(seed)
    k, d, a = int(rng.integers(2, 6)), int(rng.integers(3, 7)), float(rng.uniform(0.1, 0.8))
    W = clustered_weights(k, d, r=0.4, rng=rng, center_norm=float(rng.uniform(0, 1)))
    return W, a


def _replay(W, alpha, x):
    """sign N ≠ sign D at x, and |D|/(r‖x‖)² as exact pieces: Eq. 1 in Fractions."""
    sN, sD, D2, r2x2 = exact_pieces(W, alpha, x)
    return sN != sD, D2, r2x2


def _sampled_max_ratio(W, alpha, n=200_000, seed=0):
    """The largest band ratio among disagreeing random directions (a lower bound of c*)."""
    return max_band_ratio(W, alpha, np.random.default_rng(seed).standard_normal((n, W.shape[1])))


@pytest.mark.parametrize("seed", [0, 1, 3])
def test_c_star_closes_its_bracket_with_an_exact_witness_and_a_rechecked_certificate(seed):
    W, a = _net(seed)
    got = c_star(W, alpha=a, rtol=RTOL, max_nodes=400)
    assert got.notes == ()
    assert 0 < got.lo <= got.hi <= got.lo * (1 + RTOL) * (1 + 1e-12)
    assert got.hi <= sharp_constant(W.shape[0] // 2, a) * (1 + 1e-9)
    disagree, D2, r2x2 = _replay(W, a, got.witness)
    assert disagree and D2 >= Fraction(got.lo) ** 2 * r2x2  # the witness, at band lo
    summary = recheck(W, a, got.hi, got.certificate)
    assert set(summary) == {1, -1}
    # no sampled direction disagrees above the certified upper end
    assert _sampled_max_ratio(W, a) <= got.hi


def test_a_norm_certificate_is_rejected_below_its_witness_and_when_tampered():
    W, a = _net(1)
    got = c_star(W, alpha=a, rtol=RTOL, max_nodes=400)
    with pytest.raises(CertificateError):  # a band with a witness in it cannot be certified
        recheck(W, a, got.lo * (1 - 1e-3), dict(got.certificate, c=got.lo * (1 - 1e-3)))
    bad = copy.deepcopy(got.certificate)
    leaves = []

    def walk(t):
        if "split" in t:
            for child in t["children"]:
                walk(child)
        elif t["proof"]["kind"] == "norm":
            leaves.append(t["proof"])
    for side in bad["sides"]:
        walk(side["tree"])
    assert leaves, "the certificate has norm leaves"
    for proof in leaves:  # without the row N ≤ 0 a norm leaf proves nothing
        proof["lam_f"] = 0.0
    with pytest.raises(CertificateError, match="leaf bound"):
        recheck(W, a, got.hi, bad)
    for proof in leaves:
        proof["lam_f"] = -1.0
    with pytest.raises(CertificateError, match="negative"):
        recheck(W, a, got.hi, bad)


def test_a_net_without_any_disagreement_keeps_its_bracket_open_and_says_so():
    """Every neuron positive on the hyperplane D = 0 near it: N agrees in sign everywhere."""
    W = np.array([[2.0, 1.0], [2.0, 1.2], [0.0, 1.0], [0.0, 1.2]])
    got = c_star(W, alpha=0.3, rtol=RTOL, max_nodes=400)
    assert got.lo == 0 and got.witness is None
    assert any("open" in n for n in got.notes)
    if np.isfinite(got.hi):
        recheck(W, 0.3, got.hi, got.certificate)


# -- the search accepts only what the exact re-check proves -------------------------------------
def _thorough_case_net():
    """The net of thm5.1's case ``random/4914619423154320803`` (thorough budget): its
    sharp-band certificate once had a leaf accepted at 9.5e-12 of its float scale whose
    exact bound is −1.41e-10 (the rows carry s·(rounding of u − ū), s = 3.6e5)."""
    from proofs_check.claims import thm5_1
    from proofs_check.engine.contract import Case
    from proofs_check.kit.linear_regime import draw_net
    net, W = draw_net(Case("random", 4914619423154320803).rng, thm5_1.FAMILIES["random"])
    return W, net.alpha, sharp_constant(net.k, net.alpha) * (1 + thm5_1.STRICT)


def test_the_sharp_band_certificate_of_the_thorough_case_rechecks():
    W, a, c = _thorough_case_net()
    got = decide(W, alpha=a, c=c, max_nodes=400)
    assert got.holds and got.stats["confirmed"] >= 1  # the marginal leaf went to rationals
    recheck(W, a, c, got.certificate)


def test_without_the_exact_confirmation_that_certificate_fails_its_recheck(monkeypatch):
    """The negative control of the fix: float acceptance alone is what failed."""
    import linteach.certify.search as search
    W, a, c = _thorough_case_net()
    monkeypatch.setattr(search, "CONFIRM", 0.0)
    monkeypatch.setattr(search, "ROW_ERROR", 0.0)
    got = decide(W, alpha=a, c=c, max_nodes=400)
    assert got.holds and got.stats["confirmed"] == 0
    with pytest.raises(CertificateError, match="leaf bound"):
        recheck(W, a, c, got.certificate)


def test_leaf_bound_is_the_recheck_of_one_leaf():
    W, a = _net(1)
    c = sharp_constant(W.shape[0] // 2, a) * (1 + 1e-9)
    cert = decide(W, alpha=a, c=c).certificate
    side = cert["sides"][0]
    tree = side["tree"]
    bl, bh, signs = side["B"][0], side["B"][1], {}
    while "split" in tree:  # the first leaf, its description derived as the re-check does
        what, at = tree["split"]
        if what == "B":
            bh = at
        else:
            signs = {**signs, int(at): -1}
        tree = tree["children"][0]
    from linteach.certify.inputs import check_net
    Ws, _, _, exp = check_net(W, a, c)
    net = ExactNet(W, a, side=side["side"], scale_exp=exp)
    if tree["proof"]["kind"] == "interval-empty":
        assert leaf_bound(net, side, bl, bh, signs, {"kind": "bound"}) is None
    else:
        assert leaf_bound(net, side, bl, bh, signs, tree["proof"]) > 0
        broken = dict(tree["proof"], lam=[0.0] * len(tree["proof"]["lam"]), mu=[0.0, 0.0])
        assert not leaf_bound(net, side, bl, bh, signs, broken) > 0


@pytest.mark.parametrize("start, match", [((0.1,), "pair"), ((0.1, [1.0]), "length"),
                                          ((0.1, [np.nan, 0.0, 0.0]), "finite")])
def test_c_star_bad_start_names_the_argument(start, match):
    W, a = _net(1)
    W = W[:, :3] if W.shape[1] >= 3 else W
    with pytest.raises(ValueError, match=match):
        c_star(W, alpha=a, start=start)


def test_exact_net_keeps_a_points_values_without_changing_any_verdict(monkeypatch):
    """ExactNet.witness keeps N, D and ‖x‖² per float point: the same point at another band,
    a point one ulp away, and a net whose memory was cleared all answer as a fresh net."""
    from linteach.certify import exact as exact_module
    rng = np.random.default_rng(4)
    W = clustered_weights(3, 4, r=0.3, rng=rng)
    x = rng.standard_normal(4)
    net = ExactNet(W, 0.4)
    for c in (0.0, 0.1, 0.5, 2.0):
        assert net.witness(x, c) == ExactNet(W, 0.4).witness(x, c)
    y = np.nextafter(x, np.inf)
    assert net.witness(y, 0.1) == ExactNet(W, 0.4).witness(y, 0.1)
    monkeypatch.setattr(exact_module, "POINTS", 2)
    small = ExactNet(W, 0.4)
    points = rng.standard_normal((5, 4))
    for p in points:
        small.witness(p, 0.1)
    assert len(small.points) <= 2
    assert all(small.witness(p, 0.3) == ExactNet(W, 0.4).witness(p, 0.3) for p in points)
