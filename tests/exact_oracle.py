"""The tests' own oracles for the band claims, sharing no code with ``linteach.certify``:
Eq. 1 in ``fractions`` (exact) and a float scan of directions (a lower bound of c*(W)); and
a net whose float pre-activation signs are wrong (:func:`wrong_sign_case`)."""
from fractions import Fraction

import numpy as np


def exact_pieces(W, alpha, x):
    """``(sign N, sign D, D², r²‖x‖²)`` at ``x`` for ``W = [w; u]`` (``v = 1``, ``D = (w̄ − ū)·x``),
    every piece an exact rational of the float inputs."""
    k = W.shape[0] // 2
    rows = [[Fraction(float(a)) for a in row] for row in W]
    xf = [Fraction(float(a)) for a in x]
    a = Fraction(float(alpha))
    pre = [sum(p * q for p, q in zip(row, xf)) for row in rows]
    sig = [z if z > 0 else a * z for z in pre]
    N = sum(sig[:k]) - sum(sig[k:])
    means = [[sum(col) / k for col in zip(*part)] for part in (rows[:k], rows[k:])]
    D = sum((p - q) * s for p, q, s in zip(*means, xf))
    r2 = max(sum((p - q) ** 2 for p, q in zip(row, mean))
             for part, mean in ((rows[:k], means[0]), (rows[k:], means[1])) for row in part)
    return (N > 0) - (N < 0), (D > 0) - (D < 0), D * D, r2 * sum(s * s for s in xf)


def max_band_ratio(W, alpha, X):
    """The largest ``|D(x)|/(r‖x‖)`` over the rows ``x`` of ``X`` where sign N ≠ sign D, in
    floats (0 if none): a scan's lower bound of the net's own constant c*(W)."""
    k = W.shape[0] // 2
    Z = X @ W.T
    S = np.where(Z > 0, Z, alpha * Z)
    N = S[:, :k].sum(1) - S[:, k:].sum(1)
    g = W[:k].mean(0) - W[k:].mean(0)
    r = max(np.linalg.norm(W[:k] - W[:k].mean(0), axis=1).max(),
            np.linalg.norm(W[k:] - W[k:].mean(0), axis=1).max())
    D = X @ g
    bad = np.sign(N) != np.sign(D)
    return float((np.abs(D[bad]) / (r * np.linalg.norm(X[bad], axis=1))).max()) if bad.any() \
        else 0.0


def wrong_sign_case():
    """k = 1, d = 64: w·x is −5·2^-1074 exactly, but its 64 products underflow and round to
    a computed +20·2^-1074 (u = −w: +5 exact, −20 computed).  Returns ``(W, x, on)`` with
    ``on`` the exact signs' σ' indicator (from Fractions)."""
    w = np.full(64, 2.0 ** -537)
    x = np.full(64, 0.6 * 2.0 ** -537)
    x[-1] = -42.8 * 2.0 ** -537
    W = np.stack([w, -w])
    exact = [sum(Fraction(a) * Fraction(b) for a, b in zip(row, x)) for row in W]
    assert [float(z) < 0 for z in exact] != [z < 0 for z in W @ x]  # rounding flips both
    return W, x, np.array([1.0 if z > 0 else 0.0 for z in exact])
