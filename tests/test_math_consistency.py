"""docs/math.md's statements against independent recomputations from their definitions.

Each test recomputes a stated formula or inequality a second way (mpmath at 60 digits, a
root of the defining equation, or exact rationals) and checks the library, or the page's
own derivation, against it; no expected number here comes from running the code under test.
Every test that checks an inequality also checks that a wrong version of it is caught.
"""
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.optimize import brentq

import linteach as lt
from linteach import loss
from linteach.bounds import ROUND_UP, sgd_update_bound

mp = pytest.importorskip("mpmath")
from mp_reference import thm41_constants  # noqa: E402  (needs mpmath)


# -- §3.4, §3.6: T_exact, and the chain T_exact ≤ B² + B√C + C < M ---------------------------
SETTINGS = dict(n=st.integers(1, 10**6), eps=st.floats(1e-9, 5.0), R_x=st.floats(1e-3, 1e3),
                R_0=st.floats(0.0, 1e3), alpha=st.floats(1e-3, 0.999), k=st.integers(1, 10**4),
                eta=st.floats(1e-5, 10.0), v=st.floats(1e-2, 1e2), w=st.floats(1e-2, 1e4))


@given(**SETTINGS)
def test_T_exact_and_M_are_never_below_the_exact_root(n, eps, R_x, R_0, alpha, k, eta, v, w):
    bd = sgd_update_bound(n, eps, R_x=R_x, R_0=R_0, alpha=alpha, k=k, eta=eta, v=v,
                          w_star_norm=w)
    ref = thm41_constants(n, eps, R_x, R_0, alpha, k, eta, v, w)
    with mp.workdps(60):
        assert ref["T"] <= mp.mpf(bd.T_exact) <= ref["T"] * (1 + 2 * mp.mpf(ROUND_UP))
        assert ref["T"] <= mp.mpf(bd.M)
        assert mp.mpf(bd.M) >= ref["M"] * (1 - mp.mpf(10) ** -12)


@given(**SETTINGS)
def test_the_page_derivation_of_M_holds_step_by_step(n, eps, R_x, R_0, alpha, k, eta, v, w):
    """§3.6: T ≤ B² + B√C + C (middle coefficient 1), B < P·F_ε, C ≤ S·F_ε (= 0 iff R_0 = 0)."""
    ref = thm41_constants(n, eps, R_x, R_0, alpha, k, eta, v, w)
    B, C, F = ref["B"], ref["C"], ref["F"]
    with mp.workdps(60):
        assert ref["T"] <= B**2 + B * mp.sqrt(C) + C
        assert B < ref["P"] * F
        assert C < ref["S"] * F if R_0 > 0 else C == 0
        # the middle coefficient cannot be dropped (a wrong chain is caught): T − (B² + C) ≈ C
        # for C ≪ B², so this is decidable at 60 digits only while C is not far below B²
        if C > B**2 * mp.mpf(10) ** -40:
            assert ref["T"] > B**2 + C


# -- §3.5: one SGD update moves every margin by at most 2kηv²R_x²·g_t ------------------------
@pytest.mark.parametrize("seed", range(4))
def test_one_update_moves_every_margin_by_at_most_the_page_bound(seed):
    rng = np.random.default_rng(seed)
    n, d, k = 12, 3, int(rng.integers(1, 5))
    net = lt.Net(k=k, alpha=float(rng.uniform(0.05, 0.95)), v=float(rng.uniform(0.3, 3.0)))
    ds = lt.make_separable(n, d, margin=0.3, rng=rng)
    eta = float(rng.uniform(0.05, 1.0))
    R_x = float(np.linalg.norm(ds.X, axis=1).max())
    W0 = net.init(d, scale=float(rng.uniform(1e-3, 1.0)), rng=rng)
    seen = {"W": W0.copy(), "ratio": []}

    def watch(t, W, info):
        moved = np.abs(net.margins(W, ds.X, ds.y) - net.margins(seen["W"], ds.X, ds.y))
        bound = 2 * k * eta * net.v**2 * R_x**2 * float(info["g"])
        seen["ratio"].append(float(moved.max() / bound))
        seen["W"] = np.array(W)

    lt.sgd(net, W0, ds, eta=eta, n_epochs=5, rng=rng, callback=watch)
    worst = max(seen["ratio"])
    assert worst <= 1 + 1e-9
    # not vacuous: on the visited example every pre-activation moves by ≥ ηvgα‖x‖² the right
    # way and σ has slope ≥ α, so its margin moves by ≥ α²‖x‖²/R_x² of the bound; the
    # longest example is visited every epoch, so a bound smaller by more than α² would fail
    assert worst >= net.alpha**2 * (1 - 1e-9)


# -- §2: g(q)·q ≤ 1, with its maximum e^{−q*} at the root q* of 1 + e^q(1 − q) = 0 -----------
def test_g_times_q_maximum_is_the_stated_root():
    q_star = brentq(lambda q: 1 + np.exp(q) * (1 - q), 0.5, 3.0)
    top = np.exp(-q_star)
    q = np.linspace(-50.0, 50.0, 2_000_001)
    gq = loss.g(q) * q
    assert gq.max() <= top * (1 + 1e-12)
    assert gq.max() >= top * (1 - 1e-9)
    assert 1.27 < q_star < 1.29 and top < 0.28         # the page's "≈ 1.28" and "< 0.28"
    assert q[np.argmax(gq)] == pytest.approx(q_star, abs=1e-4)
    assert np.all(gq[q < 0] < 0)


# -- §4.2: γ̃ ≤ γ̄ for every W ≠ 0 (not only in the late phase); the mean loss breaks it --------
@pytest.mark.parametrize("seed", range(3))
def test_smoothed_margin_is_below_normalized_margin_for_every_W(seed):
    rng = np.random.default_rng(seed)
    net = lt.Net(k=3, alpha=0.3, v=1.7)
    X = rng.standard_normal((15, 4))
    y = np.where(X[:, 0] + 0.5 * rng.standard_normal(15) > 0, 1.0, -1.0)
    early, mean_breaks = 0, 0
    for scale in np.geomspace(1e-3, 1e2, 40):
        W = rng.standard_normal((6, 4)) * scale
        q = net.margins(W, X, y)
        gamma_bar = lt.normalized_margin(net, W, X, y)
        assert lt.smoothed_margin(net, W, X, y) <= gamma_bar + 1e-12 * abs(gamma_bar)
        early += np.logaddexp(0.0, -q).sum() >= np.log(2.0)      # not in the late phase
        # slip 6: with the mean loss the "smoothed margin" exceeds γ̄ unless all q_i are equal
        mean_gamma = loss.smoothed_margin_from(loss.log_sum_loss(q) - np.log(len(q)),
                                               np.log(np.linalg.norm(W)))
        mean_breaks += mean_gamma > gamma_bar
    assert early > 0 and mean_breaks == 40


# -- docs/claims/thm5.1.md, proof step 2: kσ(A) − Σσ(A − D + δ_j) = αkD − (1−α)·g(A) -----------
def _sigma(z, a):
    return z if z > 0 else a * z


@given(k=st.integers(1, 8), alpha=st.fractions(Fraction(1, 100), Fraction(99, 100)),
       A=st.fractions(-5, 5), D=st.fractions(-5, 5),
       deltas=st.lists(st.fractions(-3, 3), min_size=8, max_size=8))
def test_sharp_constant_proof_step_two_is_an_identity(k, alpha, A, D, deltas):
    dev = deltas[:k]
    mean = sum(dev, Fraction(0)) / k
    dev = [t - mean for t in dev]                       # Σ δ_j = 0, exactly
    B = A - D
    lhs = k * _sigma(A, alpha) - sum(_sigma(B + t, alpha) for t in dev)
    g_of_A = sum(max(A - D + t, 0) for t in dev) - k * max(A, 0)
    assert lhs == alpha * k * D - (1 - alpha) * g_of_A
    # the sign the page used to print (−αkD) is an identity only when D = 0
    assert (lhs == -alpha * k * D - (1 - alpha) * g_of_A) == (D == 0)


def test_sharp_constant_is_the_vertex_bound_of_the_proof():
    """Step 4: N ≤ 0 is possible iff (1−α)·⌊k/2⌋·(ρ₀ − D)⁺ ≥ αkD; its largest D is c_k·ρ₀."""
    from linteach.certify import sharp_constant
    for k in range(1, 12):
        for alpha in (Fraction(1, 20), Fraction(3, 10), Fraction(7, 10)):
            m = k // 2
            c = m * (1 - alpha) / (m * (1 - alpha) + k * alpha)   # root of the step-4 equation
            assert (1 - alpha) * m * (1 - c) == alpha * k * c
            assert sharp_constant(k, float(alpha)) == pytest.approx(float(c), rel=1e-15)
            if k % 2 == 0:
                assert c == (1 - alpha) / (1 + alpha)
            elif k > 1:
                assert c < (1 - alpha) / (1 + alpha)


# -- regression: c = 4kR_0‖w*‖ below float64's normal range (R_0 → 0) ---------------------------
@pytest.mark.parametrize("R_0", [2.2250738585072014e-308, 1e-310, 5e-324])
def test_a_tiny_initial_norm_gives_the_bound_of_R0_zero_instead_of_an_error(R_0):
    """``c`` underflowed for R_0 ≈ 1e-308 and the bound raised, although R_0 = 0 (c = 0) is
    accepted and the theorem holds for every R_0 ≥ 0; T_exact is continuous in R_0."""
    kw = dict(n=1, eps=1.0, R_x=1.0, alpha=0.5, k=1, eta=1.0, v=1.25, w_star_norm=0.25)
    bd, zero = sgd_update_bound(R_0=R_0, **kw), sgd_update_bound(R_0=0.0, **kw)
    ref = thm41_constants(kw["n"], kw["eps"], kw["R_x"], R_0, kw["alpha"], kw["k"], kw["eta"],
                        kw["v"], kw["w_star_norm"])
    with mp.workdps(60):
        assert ref["T"] <= mp.mpf(bd.T_exact) and ref["T"] <= mp.mpf(bd.M)
    assert bd.T_exact == pytest.approx(zero.T_exact, rel=1e-12)
    assert 0.0 <= bd.c < 1e-300 and zero.c == 0.0
