"""Agreement patterns of the neurons with the points (docs/math.md §6–§7).

The neural agreement region (NAR) a network is in, with its β; whether it is in the
positive agreement region PAR(β); the fraction of neurons in PAR; and ``max n_diff``, the
most points on which two neurons of one type disagree in sign.  ``W`` is ``(..., 2k, d)``
and every function returns one value per run; signs and angles are taken on power-of-two
rescalings of ``W``, its rows and the points (exact), so any scale gives the same answer.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._check import check_real, check_y, float_guard
from ._scale import check_WX, direction, norms, pow2, split_types, unit_rows

__all__ = ["Agreement", "VANISHING", "agreement", "in_par", "max_n_diff", "par_fractions",
           "par_margins"]


@dataclass(frozen=True, repr=False)
class Agreement:
    """A neural agreement pattern (docs/math.md §6) of each run.

    ``side_w[..., i] = +1`` when every w neuron has ``ŵ·x_i ≥ β`` (``c^w_i = 1``) and
    ``-1`` when every one has ``ŵ·x_i ≤ −β`` (``c^w_i = α``); likewise ``side_u``.
    ``beta`` is the largest such β (0 where the run is in no NAR).
    """

    side_w: np.ndarray
    side_u: np.ndarray
    beta: np.ndarray

    @property
    def in_nar(self):
        return self.beta > 0

    def c(self, alpha: float):
        """``(c^w, c^u)`` with entries in ``{α, 1}``."""
        return np.where(self.side_w > 0, 1.0, alpha), np.where(self.side_u > 0, 1.0, alpha)

    def __repr__(self):
        runs = self.beta.shape
        if runs:
            return (f"Agreement(runs={runs}, n={self.side_w.shape[-1]}, "
                    f"in_nar={int(np.count_nonzero(self.in_nar))}/{self.beta.size})")
        return f"Agreement(n={self.side_w.shape[-1]}, beta={float(self.beta):.3g})"


#: a neuron shorter than this fraction of ‖W‖ has no direction, hence no side of any point
VANISHING = 1e-9


def _products(Vh, X, what):
    with float_guard(f"{what}: unit neurons times `X` overflow float64"):
        return Vh @ np.swapaxes(X, -1, -2)


def agreement(W, X):
    """The NAR that ``W`` is in, with its β; ``None`` (unbatched) if it is in none.

    With run axes, returns an :class:`Agreement` whose ``beta`` is 0 for runs in no NAR.
    A neuron of norm ``≤ VANISHING·‖W‖`` has no direction: its type agrees on no point.
    """
    W, X = check_WX(W, X)
    W = direction(W)[0]
    W_norm = norms(W.reshape(W.shape[:-2] + (-1,)))[..., None]
    sides, betas = [], []
    for V in split_types(W):
        P = _products(unit_rows(V), X, "agreement")  # (..., k, n): ŵ_l · x_i
        live = (norms(V) > VANISHING * W_norm).all(axis=-1)[..., None]
        side = np.where(P.min(axis=-2) > 0, 1, np.where(P.max(axis=-2) < 0, -1, 0))
        side = np.where(live, side, 0)
        sides.append(side.astype(np.int8))
        betas.append(np.where(side != 0, np.abs(P).min(axis=-2), 0.0).min(axis=-1))
    beta = np.where((sides[0] != 0).all(-1) & (sides[1] != 0).all(-1),
                    np.minimum(*betas), 0.0)
    result = Agreement(sides[0], sides[1], beta)
    if beta.ndim == 0 and not beta > 0:
        return None
    return result


def par_margins(W, X, y):
    """``y_i ŵ_l·x_i`` and ``−y_i û_l·x_i``, each ``(..., k, n)``."""
    W, X = check_WX(W, X)
    y = check_y(y, X)
    w, u = split_types(W)
    yb = y[..., None, :]
    return (yb * _products(unit_rows(w), X, "PAR margins"),
            -yb * _products(unit_rows(u), X, "PAR margins"))


def in_par(W, X, y, *, beta: float = 0.0):
    """Whether ``W`` is in PAR(β): ``y_i ŵ_l·x_i ≥ β`` and ``−y_i û_l·x_i ≥ β`` for all i, l.

    ``beta = 0`` (the default) asks whether ``W`` is in PAR(β) for **some** β > 0, i.e.
    every margin is ``> 0`` (docs/math.md §7: PAR is an NAR, whose β is positive).
    """
    beta = check_real("beta", beta, ge=0.0)
    mw, mu = par_margins(W, X, y)
    worst = np.minimum(mw.min(axis=(-2, -1)), mu.min(axis=(-2, -1)))
    return worst > 0 if beta == 0 else worst >= beta


def par_fractions(W, X, y):
    """Fractions of w neurons and of u neurons that are in PAR on their own (Figs. 8, 9)."""
    mw, mu = par_margins(W, X, y)
    return (mw.min(axis=-1) > 0).mean(axis=-1), (mu.min(axis=-1) > 0).mean(axis=-1)


def max_n_diff(W, X):
    """``max n_diff`` per type: most points on which two same-type neurons disagree in sign.

    Returns ``(w_max, u_max)``, integer arrays of shape ``(...)``.  Signs are taken on
    neurons and points each rescaled by a power of two (exact), so no product underflows.
    """
    W, X = check_WX(W, X)
    Xt = np.swapaxes(pow2(X, -1)[0], -1, -2)
    out = []
    for V in split_types(W):
        S = (pow2(V, -1)[0] @ Xt > 0).astype(np.float64)  # (..., k, n)
        # disagreements between rows a and b: S_a·(1−S_b) + (1−S_a)·S_b
        D = S @ np.swapaxes(1 - S, -1, -2)
        out.append(np.rint((D + np.swapaxes(D, -1, -2)).max(axis=(-2, -1))).astype(np.int64))
    return out[0], out[1]
