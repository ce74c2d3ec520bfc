"""The two-layer leaky-ReLU network with a fixed ±v second layer (docs/math.md §1).

Conventions, stated once (``docs/conventions.md`` repeats them, tests pin them):

* ``W`` has shape ``(..., 2k, d)``: rows ``0..k-1`` are the w neurons (second-layer weight
  ``+v``), rows ``k..2k-1`` the u neurons (weight ``-v``).  Leading axes are independent runs.
* ``X`` has shape ``(n, d)`` (shared by every run) or ``(..., n, d)`` (one set per run).
* ``σ(z) = max(z, αz)`` and ``σ'(z) = 1`` for ``z > 0``, ``α`` for ``z ≤ 0``: **σ'(0) = α**
  (any value in [α, 1] is a valid Clarke subgradient; α makes ReLU's σ'(0) = 0).
  Then ``σ(z) = σ'(z) z`` exactly, and ``N`` is 1-homogeneous: ``⟨W, ∇N⟩ = N``.
  The sign of ``z = w·x`` is decided at the scale of ``w`` and ``x``: a pre-activation
  whose float64 value underflows (to 0 or to a few subnormals) is re-decided on rows scaled
  by powers of two, so only an exact kink takes the slope ``α``.
* Losses are means over points (``linteach.loss``).

The trainers evaluate the same network through the fused kernels of ``linteach._kernels``
(one documented seam; its docstring says what is bit-identical to what).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from . import loss as _loss
from ._check import (check_alpha, check_array, check_batch, check_int, check_real, check_rng,
                     check_W, check_X, check_y, float_guard)
from ._kernels import Fused, active, loss_and_grad

#: marks a call without labels (``None`` passed as labels is an error, not "no labels")
_NO_LABELS = object()
#: most weights ``Net.init`` draws in one call (2**31 float64 = 16 GiB: beyond that a typo in
#: ``k`` or ``batch`` would exhaust memory instead of raising)
MAX_INIT_ENTRIES = 2**31
#: widest net (2**24 neurons per type: its second layer alone is 256 MiB)
MAX_WIDTH = 2**24
_OVERFLOW = "`W` and `X` are finite but the network's output overflows float64"


@dataclass(frozen=True)
class Net:
    """Frozen constants of the network: width ``k`` per type, leaky slope ``alpha``, ``v``.

    Parameters
    ----------
    k : int
        Neurons of each type (2k in all), ``k >= 1``.
    alpha : float
        Leaky slope, ``0 <= alpha < 1`` (``alpha = 0`` is ReLU, for negative controls).
    v : float
        Second-layer magnitude, ``v > 0``.

    Examples
    --------
    >>> import numpy as np, linteach as lt
    >>> net = lt.Net(k=2, alpha=0.5, v=1.0)
    >>> W = np.array([[1.0], [1.0], [-1.0], [-1.0]])
    >>> net.forward(W, np.array([[1.0], [-1.0]]))
    array([ 3., -3.])
    """

    k: int
    alpha: float = 0.3
    v: float = 1.0

    def __post_init__(self):
        object.__setattr__(self, "k", check_int("k", self.k, ge=1, le=MAX_WIDTH))
        object.__setattr__(self, "alpha", check_alpha(self.alpha))
        object.__setattr__(self, "v", check_real("v", self.v, gt=0.0))
        a = np.repeat([self.v, -self.v], self.k)  # read thousands of times: built once
        a.flags.writeable = False
        object.__setattr__(self, "_a", a)
        object.__setattr__(self, "_kernel", Fused(self))

    @property
    def a(self) -> np.ndarray:
        """Second-layer weights, shape ``(2k,)``: ``+v`` then ``-v``."""
        return np.repeat([self.v, -self.v], self.k)

    def init(self, d: int, *, scale: float, rng: np.random.Generator, batch=()) -> np.ndarray:
        """I.i.d. ``N(0, scale²)`` first-layer weights, shape ``(*batch, 2k, d)``."""
        d = check_int("d", d, ge=1)
        scale = check_real("scale", scale, ge=0.0)
        rng = check_rng(rng)
        shape = (*check_batch(batch), 2 * self.k, d)
        if math.prod(shape) > MAX_INIT_ENTRIES:
            raise ValueError(f"`k`, `d` and `batch` ask for {math.prod(shape)} weights "
                             f"(shape {shape}); at most {MAX_INIT_ENTRIES} are drawn at once")
        draws = rng.standard_normal(shape)
        with float_guard(f"`scale` = {scale:g} times N(0, 1) draws overflows float64"):
            return scale * draws

    def _inputs(self, W, X, *per_point):
        """Validated ``W, X`` and any per-point arrays (labels, coefficients) of shape (..., n)."""
        X = check_X(X)
        W = check_W(W, k=self.k, d=X.shape[-1])
        extra = [check_y(p, X) if name == "y" else check_array(name, p) for name, p in per_point]
        for (name, _), arr in zip(per_point, extra):
            if arr.shape[-1] != X.shape[-2]:
                raise ValueError(f"`{name}` must have {X.shape[-2]} entries (one per row of "
                                 f"`X`), got shape {arr.shape}")
        try:
            np.broadcast_shapes(W.shape[:-2], X.shape[:-2], *(e.shape[:-1] for e in extra))
        except ValueError:
            raise ValueError(f"run axes of `W` {W.shape[:-2]} and `X` {X.shape[:-2]}"
                             + "".join(f" and `{n}` {e.shape[:-1]}"
                                       for (n, _), e in zip(per_point, extra))
                             + " do not broadcast") from None
        return (W, X, *extra)

    def slope(self, Z: np.ndarray) -> np.ndarray:
        """``σ'(Z)`` with ``σ'(0) = α``; branch-free (measured ~7× faster than ``np.where``)."""
        return self.alpha + (1.0 - self.alpha) * (Z > 0)

    # -- Eq. 1 and Eq. 3, side by side ---------------------------------------------------
    def forward(self, W, X) -> np.ndarray:
        """Network output, Eq. 1 (docs/math.md §1).

        Parameters
        ----------
        W : ndarray, shape ``(..., 2k, d)``
        X : ndarray, shape ``(..., n, d)``

        Returns
        -------
        ndarray, shape ``(..., n)``
            ``N_W(x_i) = Σ_j v σ(w_j·x_i) − Σ_j v σ(u_j·x_i) = Σ_j a_j σ(z_ij)``.
        """
        W, X = self._inputs(W, X)
        with float_guard(_OVERFLOW):
            Z = X @ np.swapaxes(W, -1, -2)  # z_ij = w_j·x_i, shape (..., n, 2k)
            return np.maximum(Z, self.alpha * Z) @ self._a  # σ(z) = max(z, αz) for α < 1

    def backward(self, W, X, coef) -> np.ndarray:
        """``Σ_i coef_i ∇_W N_W(x_i)``, the gradient of Eq. 3 (docs/math.md §1, §3).

        Parameters
        ----------
        W : ndarray, shape ``(..., 2k, d)``
        X : ndarray, shape ``(..., n, d)``
        coef : ndarray, shape ``(..., n)``
            E.g. ``dL/dN_i = −y_i g(q_i)/n`` gives ``∇L`` (Eq. 2).

        Returns
        -------
        ndarray, shape ``(..., 2k, d)``
            Row ``j`` is ``a_j Σ_i coef_i σ'(z_ij) x_i`` (``∇_{w_j} N = v σ'(w_j·x) x``,
            ``∇_{u_j} N = −v σ'(u_j·x) x``), with ``σ' = α + (1−α)·[z > 0]`` summed as
            ``α Σ_i coef_i x_i + (1−α) Σ_{i: z_ij > 0} coef_i x_i``.
        """
        W, X, coef = self._inputs(W, X, ("coef", coef))
        with float_guard(_OVERFLOW):
            Z = X @ np.swapaxes(W, -1, -2)  # the pre-activations, formed once
            m = active(W, X, Z).astype(np.float64)  # [z_ij > 0]
            cX = coef[..., :, None] * X  # coef_i x_i, shape (..., n, d)
            G = np.swapaxes(m, -1, -2) @ cX  # Σ_{i: z_ij > 0} coef_i x_i
            if self.alpha:
                G *= 1.0 - self.alpha
                G += self.alpha * cX.sum(axis=-2)[..., None, :]
            G *= self._a[:, None]
            return G

    # -- built on them ---------------------------------------------------------------------
    def margins(self, W, X, y) -> np.ndarray:
        """Margins ``q_i = y_i N_W(x_i)``, shape ``(..., n)``."""
        W, X, y = self._inputs(W, X, ("y", y))
        return y * self.forward(W, X)

    def loss(self, W, X, y) -> np.ndarray:
        """Mean logistic loss ``L(W)`` (Eq. 2), shape ``W.shape[:-2]`` (broadcast with X)."""
        return _loss.mean_loss(self.margins(W, X, y))

    def loss_and_grad(self, W, X, y):
        """Mean loss and its gradient with respect to ``W`` (docs/math.md §2, §3).

        Returns
        -------
        L : ndarray, shape ``(...)``
        G : ndarray, shape ``(..., 2k, d)``
            ``G = −(1/n) Σ_i g(q_i) y_i ∇_W N_W(x_i)``: :meth:`backward` with
            ``coef = −y g(q)/n``.  Evaluated by the trainers' fused kernel, so this is
            bit for bit the gradient ``gd`` steps with; it differs from
            :meth:`forward`/:meth:`backward` only by the regrouping of Eq. 1 (≤ 1e-12 of the
            summed terms, ``tests/test_perf_equivalence.py``).
        """
        W, X, y = self._inputs(W, X, ("y", y))
        with float_guard(_OVERFLOW):
            return loss_and_grad(self._kernel, W, X, y)

    def grad_output(self, W, X) -> np.ndarray:
        """Per-point gradients ``∇_W N_W(x_i)``, shape ``(..., n, 2k, d)`` (App. F)."""
        W, X = self._inputs(W, X)
        with float_guard(_OVERFLOW):
            Z = X @ np.swapaxes(W, -1, -2)
            slope = self.alpha + (1.0 - self.alpha) * active(W, X, Z)
            return (slope * self._a)[..., :, :, None] * X[..., :, None, :]
