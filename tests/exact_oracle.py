"""The tests' own exact oracle for the band claims: Eq. 1 in ``fractions`` (a second
implementation, sharing no code with ``linteach.certify``)."""
from fractions import Fraction


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
