"""The two-layer leaky-ReLU network with a fixed ±v second layer (EQUATIONS §1, Eq. 1).

Conventions, stated once (``docs/conventions.md`` repeats them, tests pin them):

* ``W`` has shape ``(..., 2k, d)``: rows ``0..k-1`` are the w neurons (second-layer weight
  ``+v``), rows ``k..2k-1`` the u neurons (weight ``-v``).  Leading axes are independent runs.
* ``X`` has shape ``(n, d)`` (shared by every run) or ``(..., n, d)`` (one set per run).
* ``σ(z) = max(z, αz)`` and ``σ'(z) = 1`` for ``z > 0``, ``α`` for ``z ≤ 0``: **σ'(0) = α**
  (any value in [α, 1] is a valid Clarke subgradient; α makes ReLU's σ'(0) = 0).
  Then ``σ(z) = σ'(z) z`` exactly, and ``N`` is 1-homogeneous: ``⟨W, ∇N⟩ = N``.
* Losses are means over points (``linteach.loss``).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import loss as _loss
from ._check import (check_alpha, check_batch, check_int, check_real, check_rng, check_W,
                     check_X, check_y, float_guard)

#: marks a call without labels (``None`` passed as labels is an error, not "no labels")
_NO_LABELS = object()
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
        object.__setattr__(self, "k", check_int("k", self.k, ge=1))
        object.__setattr__(self, "alpha", check_alpha(self.alpha))
        object.__setattr__(self, "v", check_real("v", self.v, gt=0.0))
        # hot loops read the second layer thousands of times: build it once, read-only
        a = np.repeat([self.v, -self.v], self.k)
        a.flags.writeable = False
        object.__setattr__(self, "_a", a)
        a_col = np.stack([a, self.alpha * a])[:, :, None]  # a_j σ'(z) for z > 0, z ≤ 0
        a_col.flags.writeable = False
        object.__setattr__(self, "_a_col", a_col)
        # the fused kernels below are only valid for the stock forward/backward pair; a
        # subclass overriding any of them (negative controls) keeps the generic path
        object.__setattr__(self, "_fused_ok", all(
            getattr(type(self), name) is getattr(Net, name) for name in _KERNEL_METHODS))

    @property
    def a(self) -> np.ndarray:
        """Second-layer weights, shape ``(2k,)``: ``+v`` then ``-v``."""
        return np.repeat([self.v, -self.v], self.k)

    def init(self, d: int, *, scale: float, rng: np.random.Generator, batch=()) -> np.ndarray:
        """I.i.d. ``N(0, scale²)`` first-layer weights, shape ``(*batch, 2k, d)``."""
        d = check_int("d", d, ge=1)
        scale = check_real("scale", scale, ge=0.0)
        rng = check_rng(rng)
        draws = rng.standard_normal((*check_batch(batch), 2 * self.k, d))
        with float_guard(f"`scale` = {scale:g} times N(0, 1) draws overflows float64"):
            return scale * draws

    # -- validation shared by the public methods ---------------------------------------
    def _inputs(self, W, X, y=_NO_LABELS):
        X = check_X(X)
        W = check_W(W, k=self.k, d=X.shape[-1])
        labels = () if y is _NO_LABELS else (check_y(y, X),)
        try:
            np.broadcast_shapes(W.shape[:-2], X.shape[:-2], *(lab.shape[:-1] for lab in labels))
        except ValueError:
            raise ValueError(f"run axes of `W` {W.shape[:-2]} and `X` {X.shape[:-2]}"
                             + (f" and `y` {labels[0].shape[:-1]}" if labels else "")
                             + " do not broadcast") from None
        return (W, X, *labels)

    # -- forward and its backward, side by side ----------------------------------------
    def slope(self, Z: np.ndarray) -> np.ndarray:
        """``σ'(Z)`` with ``σ'(0) = α``; branch-free (measured ~7× faster than ``np.where``)."""
        return self.alpha + (1.0 - self.alpha) * (Z > 0)

    def _preact(self, W, X):
        return X @ np.swapaxes(W, -1, -2)  # (..., n, 2k)

    def _forward(self, W, X):
        Z = self._preact(W, X)
        return np.maximum(Z, self.alpha * Z) @ self._a, Z  # σ(z) = max(z, αz) for α < 1

    def _backward(self, Z, X, coef):
        """``Σ_i coef_i ∇_W N_W(x_i)``, shape ``(..., 2k, d)``, reusing pre-activations ``Z``."""
        mask = np.greater(Z, 0.0, out=np.empty(Z.shape))  # σ' = α + (1 - α)·mask
        return self._mask_backward(mask, X, coef)

    def _loss_and_grad(self, W, X, y):
        return self._loss_and_grad_into(W, X, y, None)

    def _loss_and_grad_into(self, W, X, y, work):
        """:meth:`_loss_and_grad`, reusing ``work`` (shape of ``Z``, or ``None``) when fused."""
        if self._fused_ok:
            out, mask = self._fused_forward(W, X, work)
            np.greater(mask, 0.0, out=mask)  # relu(Z) > 0 exactly where Z > 0
        else:
            out, Z = self._forward(W, X)
        q = y * out
        coef = -y * _loss.g(q) / q.shape[-1]  # dL/dN_i for the mean loss
        G = self._mask_backward(mask, X, coef) if self._fused_ok else self._backward(Z, X, coef)
        return _loss.ell(q).mean(axis=-1), G

    def _normalized_grad(self, direction, X, y, log_norm):
        """``(log L_sum, ∇L/L)`` at ``W = e^{log_norm}·direction``, entirely in log space.

        ``log L_sum`` is ``−inf`` once ``L_sum`` is below every float (‖W‖ past e^600 with
        every point classified); ``∇L/L`` stays finite there.

        ``N`` is 1-homogeneous, so the margins are ``e^{log_norm} q(direction)`` and the
        gradient of ``q`` does not depend on the scale: nothing here overflows.
        """
        return self._flow_grad(self._flow_state(direction, X, y, log_norm, None), X, y, log_norm)

    def _flow_state(self, direction, X, y, log_norm, work):
        """``(q̂, (lead, rest, log_w), pre)`` at one flow state, for :meth:`_flow_grad`.

        A trace record and the step after it share this one forward pass and one set of
        loss terms.  ``pre`` is ``relu(Z)`` built in ``work`` (fused) or ``Z``.
        """
        if self._fused_ok:
            out, pre = self._fused_forward(direction, X, work)
        else:
            out, pre = self._forward(direction, X)
        q_hat = y * out
        return q_hat, _loss.scaled_loss_terms(q_hat, log_norm), pre

    def _flow_grad(self, state, X, y, log_norm):
        """``(log L_sum, ∇L/L)`` from :meth:`_flow_state` (overwrites its ``pre``)."""
        _, (lead, rest, log_w), pre = state
        coef = -y * np.exp(log_w)  # (dL_sum/dN_i) / L_sum
        if self._fused_ok:  # relu(Z) > 0 exactly where Z > 0: the mask, in place
            G = self._mask_backward(np.greater(pre, 0.0, out=pre), X, coef)
        else:
            G = self._backward(pre, X, coef)
        return _loss.log_sum_loss_scaled(lead, rest, log_norm), G

    # -- fused kernels: the same quantities in the fewest passes over (..., n, 2k) ----------
    # Memory traffic over Z dominates large problems and call count dominates small ones.
    # With relu(z) = max(z, 0) and m = [z > 0] (so σ(z) = αz + (1-α) relu(z) and
    # σ'(z) = α + (1-α) m, σ'(0) = α):
    #   N = α X (Wᵀa) + (1-α) relu(Z) a                      (Z a = X Wᵀ a costs O(nd))
    #   Σ_i c_i ∇N(x_i) = a ⊙ (α 1ᵀ(cX) + (1-α) mᵀ(cX))   (cX = c_i x_i, O(nd))
    # so one buffer holds Z, then relu(Z) in place, then m in place.  Both are sums of the
    # same terms as the direct formulas, regrouped: tests/test_perf_equivalence.py bounds
    # the difference by 1e-12 of the summed absolute terms.
    def _fused_forward(self, W, X, work=None):
        """``(N_W(X), relu(Z))``, the latter built in ``work`` if given."""
        WT = np.swapaxes(W, -1, -2)
        Z = np.matmul(X, WT, out=work)
        np.maximum(Z, 0.0, out=Z)
        # per-run products only (never one product across runs): each run then rounds
        # exactly as it would alone, so batched runs equal looped runs bit for bit
        relu_a = Z @ self._a
        if self.alpha:
            lin = np.matmul(X, (WT @ self._a)[..., None])[..., 0]  # Z a, shape (..., n)
            out = self.alpha * lin + (1.0 - self.alpha) * relu_a
        else:
            out = relu_a
        return out, Z

    def _sgd_stepper(self, Wf, eta):
        """``step(W, x, y, ex) -> (q, g)``: one Eq. 3 update of the runs ``Wf (R, 2k, d)``.

        The stock net uses its fused updates (one run: :meth:`_sgd_step_one`); a subclass
        goes through its own ``_forward`` / ``_backward``, so an override is honoured.
        """
        if not self._fused_ok:
            def step(W, x, y, ex):
                x, y = np.swapaxes(x, -1, -2), y[:, None]  # one point per run: (R, 1, d)
                out, Z = self._forward(W, x)
                q = y * out
                gq = _loss.g(q)
                W -= eta * self._backward(Z, x, -y * gq)
                return q[:, 0], gq[:, 0]
            return step
        work = np.empty_like(Wf) if Wf.size >= _SGD_BUFFER_FROM else None
        if len(Wf) == 1:
            W_one, work_one = Wf[0], None if work is None else work[0]
            return lambda W, x, y, ex: self._sgd_step_one(W_one, x, y, ex, work_one)
        return lambda W, x, y, ex: self._sgd_step(W, x, y, ex, work)

    def _sgd_step(self, W, x, y, ex, work):
        """One Eq. 3 update of R runs in place; returns margins and ``g`` before it, ``(R,)``.

        ``W (R, 2k, d)``, ``x (R, d, 1)`` the runs' examples, ``y (R,)``, ``ex = η y x`` as
        ``(R, 1, d)``; ``work`` is ``None`` or a buffer like ``W`` (large R: the outer
        product is formed there by einsum, whose loop beats broadcasting over short rows).
        Every reduction is the per-run BLAS call :meth:`_sgd_step_one` makes, so a run
        rounds exactly as it does alone.
        """
        z = np.matmul(W, x)  # (R, 2k, 1): one gemv per run
        sa = np.where(z > 0.0, self._a_col[0], self._a_col[1])  # a_j σ'(z_j)
        q = y * np.matmul(np.swapaxes(z, -1, -2), sa)[:, 0, 0]  # one dot per run
        gq = _loss.g(q)
        sa *= gq[:, None, None]
        if work is None:
            W += sa * ex
        else:
            W += np.einsum("rjo,rod->rjd", sa, ex, out=work)
        return q, gq

    def _sgd_step_one(self, W, x, y, ex, work=None):
        """:meth:`_sgd_step` for a single run: ``W (2k, d)``, ``x (d,)``, ``y``, ``ex (d,)``."""
        z = W @ x
        sa = np.where(z > 0.0, self._a_col[0, :, 0], self._a_col[1, :, 0])
        q = y * (z @ sa)
        gq = _loss.g(q)
        sa *= gq
        W += np.multiply(sa[:, None], ex, out=work)
        return q, gq

    def _mask_backward(self, mask, X, coef):
        """``Σ_i coef_i ∇_W N_W(x_i)`` from the float mask ``m = [Z > 0]``."""
        cX = coef[..., :, None] * X  # (..., n, d)
        if cX.shape[-2] == 1:  # one point (SGD): an outer product, no matmul loop
            G = mask[..., 0, :, None] * cX
        else:
            G = np.swapaxes(mask, -1, -2) @ cX
        if self.alpha:
            G *= 1.0 - self.alpha
            G += self.alpha * cX.sum(axis=-2)[..., None, :]
        G *= self._a[:, None]
        return G

    # -- public, validated ---------------------------------------------------------------
    def forward(self, W, X) -> np.ndarray:
        """Network output ``N_W(x_i)`` (Eq. 1), shape ``(..., n)``."""
        W, X = self._inputs(W, X)
        with float_guard(_OVERFLOW):
            return self._forward(W, X)[0]

    def margins(self, W, X, y) -> np.ndarray:
        """Margins ``q_i = y_i N_W(x_i)``, shape ``(..., n)``."""
        W, X, y = self._inputs(W, X, y)
        with float_guard(_OVERFLOW):
            return y * self._forward(W, X)[0]

    def loss(self, W, X, y) -> np.ndarray:
        """Mean logistic loss ``L(W)`` (Eq. 2), shape ``W.shape[:-2]`` (broadcast with X)."""
        W, X, y = self._inputs(W, X, y)
        with float_guard(_OVERFLOW):
            return _loss.mean_loss(y * self._forward(W, X)[0])

    def loss_and_grad(self, W, X, y):
        """Mean loss and its gradient with respect to ``W``.

        Returns
        -------
        L : ndarray, shape ``(...)``
        G : ndarray, shape ``(..., 2k, d)``
            ``G = -(1/n) Σ_i g(q_i) y_i ∇_W N_W(x_i)``, with
            ``∇_{w_j} N = v σ'(w_j·x) x`` and ``∇_{u_j} N = -v σ'(u_j·x) x`` (cf. Eq. 3).
        """
        W, X, y = self._inputs(W, X, y)
        with float_guard(_OVERFLOW):
            return self._loss_and_grad(W, X, y)

    def grad_output(self, W, X) -> np.ndarray:
        """Per-point gradients ``∇_W N_W(x_i)``, shape ``(..., n, 2k, d)`` (App. F)."""
        W, X = self._inputs(W, X)
        with float_guard(_OVERFLOW):
            Z = self._preact(W, X)
            return (self.slope(Z) * self._a)[..., :, :, None] * X[..., :, None, :]


#: above this many weights in all runs, the SGD update forms its outer product in a buffer
_SGD_BUFFER_FROM = 4096

#: the methods whose stock versions the fused kernels reproduce (see Net.__post_init__)
_KERNEL_METHODS = ("slope", "_preact", "_forward", "_backward", "_loss_and_grad",
                   "_normalized_grad", "a")
