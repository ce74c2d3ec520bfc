"""The tests' mpmath reference for Theorem 4.1's constants (docs/math.md §3.4, §3.6), written
from the page term by term and sharing no code with ``linteach.bounds``."""
import mpmath as mp

#: working precision of the reference (far beyond float64's 16 digits)
DPS = 60


def thm41_constants(n, eps, R_x, R_0, alpha, k, eta, v, w_star_norm) -> dict:
    """ε0, a, b, c, T (the exact root), B = b/a, C = c/a, F_ε, P, S and M, as mpmath numbers."""
    with mp.workdps(DPS):
        n, eps, R_x, R_0, al, k, eta, v, w = map(mp.mpf, (n, eps, R_x, R_0, alpha, k, eta, v,
                                                        w_star_norm))
        A = 1 + 2 * k * eta * v**2 * R_x**2 * n
        eps0 = eps / A
        a = 2 * k * eta * v * al * -mp.expm1(-eps0) / n
        b = w * mp.sqrt(4 * k**2 * eta**2 * v**2 * R_x**2 + 4 * k * eta)
        c = 4 * k * R_0 * w
        T = ((b + mp.sqrt(b**2 + 4 * a * c)) / (2 * a)) ** 2
        F = (eps + A) / eps
        P = n * w * mp.sqrt(R_x**2 / al**2 + 1 / (k * eta * v**2 * al**2))
        S = 2 * n * R_0 * w / (eta * v * al)
        M = P**2 * F**2 + P * mp.sqrt(S) * F ** mp.mpf(1.5) + S * F
        return dict(eps0=eps0, a=a, b=b, c=c, T=T, B=b / a, C=c / a, F=F, P=P, S=S, M=M)
