"""The one seam between the trainers and the network: a :class:`Kernel` (docs/math.md §1, §3).

A trainer evaluates the network only through the kernel :func:`kernel_for` hands it; it
has no other way to form an output or a gradient, so whatever the kernel does (the fast
path, or a negative control's broken gradient) is what every step of every trainer does.

The protocol, three calls (``W (..., 2k, d)``, ``X (..., n, d)``, ``coef (..., n)``):

``forward(W, X, out=None) -> (N, pre)``
    ``N = N_W(X)`` of Eq. 1, shape ``(..., n)``, and an opaque ``pre`` holding the
    pre-activations for :meth:`backward` (``out``, a scratch of shape ``(..., n, 2k)``, may
    hold it).  ``pre`` is valid until the next ``forward`` into the same ``out``.
``backward(pre, X, coef) -> G``
    ``G = Σ_i coef_i ∇_W N_W(x_i)``, shape ``(..., 2k, d)`` (Eq. 3); may consume ``pre``.
``sgd_update(W, x, y, ex, *, eta, out=None, checked=True) -> (q, g)``
    One Eq. 3 update in place, ``W ← W − η ∇_W ℓ(y N_W(x))``, returning the margin ``q``
    and ``g(q)`` *before* it.  Either one run, ``W (2k, d)``, ``x (d,)``, ``y`` a float,
    ``ex = η y x (d,)``; or R runs, ``W (R, 2k, d)``, ``x (R, d, 1)``, ``y (R,)``,
    ``ex (R, 1, d)``.  ``out`` is a scratch like ``W``.  ``checked=False`` skips the
    per-update underflow check of the pre-activations; pass it only while
    :func:`underflow_free` holds (``sgd`` re-establishes it every epoch).

What is bit-identical to what (each statement is a test in ``tests/test_perf_equivalence.py``
or ``tests/test_batched.py``):

* :class:`Fused` on a batch of runs equals :class:`Fused` on each run alone, bit for bit:
  every product is per run, never one product across runs.
* ``Fused.sgd_update`` for one run ``(2k, d)`` equals the same run inside a batch
  ``(R, 2k, d)``, with or without ``out``, bit for bit.
* ``Fused.backward`` performs the operations of :meth:`linteach.Net.backward` on the same
  mask, so it equals it bit for bit; ``Fused.forward`` regroups Eq. 1
  (``σ(z) = αz + (1−α) relu(z)``) and differs from :meth:`linteach.Net.forward` by at most
  ``1e-12 × Σ_j |a_j σ(z_ij)|``.  ``Net.loss_and_grad`` is :func:`loss_and_grad` on
  :class:`Fused`, i.e. the very gradient ``gd`` steps with.
* :class:`Controlled` with ``grad`` the identity equals ``Net.forward`` / ``Net.backward``
  bit for bit (it calls them).
* :class:`~linteach._per_run.PerRun` (one net per run) equals :class:`Fused` with each
  run's own net, bit for bit (``tests/test_sgd_per_run.py``).
"""
from __future__ import annotations

from typing import Callable, Protocol

import numpy as np

from scipy.special import expit

from . import loss as _loss

#: above this many weights in all runs, the SGD update forms its outer product in ``out``
#: (einsum's loop beats broadcasting over short rows); the result is the same bits
SGD_SCRATCH_FROM = 4096


#: a sum of squares in this range lost nothing to underflow and did not overflow
_SQUARES_SAFE = (2.0 ** -800, 2.0 ** 800)
#: below this log weight ``log(g_i/L_sum)`` the normalized step rescales the weights to a
#: largest weight of 1 (only the step's direction is used), so ∇L/L cannot underflow
_LOG_WEIGHT_FLOOR = -300.0


def _trusted(Z, d: int) -> bool:
    """No ``z`` of ``Z`` is within underflow's reach of 0 (cheap: one scaling, one ``all``).

    A sum of ``d`` products moves by at most ``d·2^-1075`` when products underflow, so a
    computed ``z`` with ``|z| > 2d·2^-1074`` has the sign of the exact one.  Multiplying by
    ``2^-p`` with ``2^(p-1) > 2d`` sends every ``|z| ≤ 2d·2^-1074`` to 0 and keeps every
    normal ``z`` nonzero (it over-flags a few more subnormals, which only costs a recheck).
    """
    return bool(np.multiply(Z, 2.0 ** -(d.bit_length() + 2)).all())


def underflow_free(W, X) -> bool:
    """No product ``w_jl x_il`` of nonzero entries can underflow: all are ``≥ 2^-900``.

    Then a pre-activation's float64 sign is its true sign up to ordinary rounding, and SGD
    may skip the per-update check for an epoch: an update shrinks a nonzero weight by at
    most ``2^53`` unless it cancels it to the last bit, so leaving this regime within one
    epoch takes three such cancellations of the same weight.
    """
    lows = [np.abs(A[A != 0]).min(initial=np.inf) for A in (W, X)]
    return bool(lows[0] * lows[1] >= 2.0 ** -900)


def _row_scaled(A):
    """``A`` with each row (last axis) divided by a power of two near its largest entry."""
    top = np.abs(A).max(axis=-1, keepdims=True)
    return A / np.ldexp(1.0, np.frexp(top)[1] - 1)  # exact where no entry underflows


def active(W, X, Z) -> np.ndarray:
    """``[z_ij > 0]`` for ``Z = X Wᵀ``, the sign decided at the scale of ``w_j`` and ``x_i``.

    Where some ``z`` underflowed, the signs are recomputed from rows scaled by powers of two
    (exact scaling: the same products, none underflowing), so a positive ``w_j·x_i`` far
    below float64's smallest normal still gets the slope 1 and only an exact kink gets
    ``σ'(0) = α`` (docs/math.md §1).
    """
    if _trusted(Z, W.shape[-1]):
        return Z > 0.0
    return _row_scaled(X) @ np.swapaxes(_row_scaled(W), -1, -2) > 0.0


def relu_products(W, X, out=None):
    """``(Wᵀ, relu(Z), mask)`` of ``Z = X Wᵀ`` (built in ``out`` if given): ``mask`` is
    ``[z > 0]`` from :func:`active` where some z underflowed (rare), else None."""
    WT = np.swapaxes(W, -1, -2)
    Z = np.matmul(X, WT, out=out)
    rescued = None if _trusted(Z, W.shape[-1]) else active(W, X, Z)
    np.maximum(Z, 0.0, out=Z)
    return WT, Z, rescued


class Kernel(Protocol):
    """What a trainer calls to evaluate the network (see the module docstring)."""

    def forward(self, W, X, out=None): ...

    def backward(self, pre, X, coef): ...

    def sgd_update(self, W, x, y, ex, *, eta, out=None, checked=True): ...


def kernel_for(net, grad: Callable | None = None) -> Kernel:
    """The kernel a trainer uses: :class:`Fused`, :class:`PerRun` for a sequence of nets (one
    per run: ``sgd`` only), or :class:`Controlled` when ``grad`` is set."""
    if isinstance(net, (list, tuple)):
        if grad is not None:
            raise ValueError("`grad` (a negative control) needs one `net`, not one per run")
        from ._per_run import PerRun  # a Fused subclass: imported here, not at the top
        return PerRun(net)
    return Fused(net) if grad is None else Controlled(net, grad)


def loss_and_grad(kernel: Kernel, W, X, y, out=None):
    """Mean loss (Eq. 2) and its gradient ``−(1/n) Σ_i g(q_i) y_i ∇_W N_W(x_i)`` via ``kernel``."""
    N, pre = kernel.forward(W, X, out)
    q = y * N
    coef = -y * _loss.g(q) / q.shape[-1]  # dL/dN_i for the mean loss
    return _loss.ell(q).mean(axis=-1), kernel.backward(pre, X, coef)


def flow_state(kernel: Kernel, direction, X, y, log_norm, out=None):
    """``(q̂, (lead, rest, log_w), pre)`` at ``W = e^{log_norm}·direction`` (docs/math.md §4).

    One forward pass: the margins of the direction, the loss terms of
    :func:`linteach.loss.scaled_loss_terms` (valid for every ``‖W‖``, also past float64) and
    ``pre`` for :func:`grad_over_loss`.  For the trainers' loops only (their arrays, under
    ``float_guard``): the loss terms skip their argument checks.
    """
    N, pre = kernel.forward(direction, X, out)
    q_hat = y * N
    return q_hat, _loss.scaled_loss_terms(q_hat, log_norm, checked=False), pre


def grad_over_loss(kernel: Kernel, pre, X, y, log_w):
    """``(c ∇L/L, ‖c ∇L/L‖, log ‖∇L/L‖)`` per run from :func:`flow_state`; consumes ``pre``.

    ``∇L/L = Σ_i (g_i/L_sum)(−y_i) ∇N(x_i)`` at the direction (1-homogeneity: the same at
    every scale).  ``c = 1`` unless every weight ``g_i/L_sum`` is below ``e^-300`` (a
    misclassified point at ``‖W‖ ≳ e^300``); then ``c`` rescales the largest weight to 1, so
    no entry underflows, and the log norm is corrected for it.
    """
    top = log_w.max(axis=-1)
    tiny = np.isfinite(top) & (top < _LOG_WEIGHT_FLOOR)
    if tiny.any():
        shift = np.where(tiny, top, 0.0)
        G = kernel.backward(pre, X, -y * np.exp(log_w - shift[..., None]))
    else:
        shift = 0.0
        G = kernel.backward(pre, X, -y * np.exp(log_w))  # (dL_sum/dN_i) / L_sum
    gnorm = frobenius(G)
    with np.errstate(divide="ignore"):
        return G, gnorm, np.log(gnorm) + shift


def frobenius(A):
    """``‖A‖`` over the last two axes, for entries of any size; a run rounds alike alone or batched.

    The plain sum of squares (its reduction order fixed per run, unlike
    ``np.linalg.norm(A, axis=(-2, -1))``) wherever it is safe; where squares would underflow
    (entries ~1/‖W‖ of a far-out flow) or overflow, each run is scaled by a power of two
    near its largest entry first, which changes nothing where the plain sum was safe.
    """
    flat = A.reshape(A.shape[:-2] + (-1,))
    with np.errstate(over="ignore"):
        s = np.add.reduce(flat * flat, axis=-1)
    safe = (s >= _SQUARES_SAFE[0]) & (s <= _SQUARES_SAFE[1])
    if safe.all():
        return np.sqrt(s)
    scale = np.ldexp(1.0, np.frexp(np.abs(flat).max(axis=-1))[1] - 1)[..., None]
    u = flat / scale
    return np.where(safe, np.sqrt(s), scale[..., 0] * np.sqrt(np.add.reduce(u * u, axis=-1)))



class Fused:
    """The stock kernel: Eq. 1 and Eq. 3 in the fewest passes over ``(..., n, 2k)``.

    Memory traffic over ``Z = X Wᵀ`` dominates large problems and call count small ones.
    With ``relu(z) = max(z, 0)`` and ``m = [z > 0]`` (so ``σ'(0) = α``):
    ``N = α X (Wᵀa) + (1−α) relu(Z) a`` (``Z a = X Wᵀa`` costs O(nd)) and
    ``Σ_i c_i ∇N(x_i) = a ⊙ (α Σ_i c_i x_i + (1−α) mᵀ(c X))``; one buffer holds ``Z``, then
    ``relu(Z)`` in place, then ``m`` in place.
    """

    def __init__(self, net):
        self.alpha = net.alpha
        self.a = net.a
        self.a.flags.writeable = False
        # a_j σ'(z) for z > 0 (row 0) and z ≤ 0 (row 1), as columns for the SGD update
        self.a_col = np.stack([self.a, self.alpha * self.a])[:, :, None]

    def forward(self, W, X, out=None):
        """``(N_W(X), relu(Z))``, the latter built in ``out`` if given."""
        WT, Z, rescued = relu_products(W, X, out)
        # per-run products only (never one product across runs): each run then rounds
        # exactly as it would alone, so batched runs equal looped runs bit for bit
        N = Z @ self.a
        if self.alpha:
            lin = np.matmul(X, (WT @ self.a)[..., None])[..., 0]  # Z a, shape (..., n)
            N = self.alpha * lin + (1.0 - self.alpha) * N
        if rescued is not None:  # the mask itself: backward's `> 0` leaves it as it is
            Z[...] = rescued
        return N, Z

    def backward(self, pre, X, coef):
        """``Σ_i coef_i ∇_W N_W(x_i)`` from ``pre = relu(Z)`` (turned into the mask in place)."""
        mask = np.greater(pre, 0.0, out=pre)  # relu(z) > 0 exactly where z > 0
        cX = coef[..., :, None] * X  # (..., n, d)
        if cX.shape[-2] == 1:  # one point: an outer product, no matmul loop (same bits)
            G = mask[..., 0, :, None] * cX
        else:
            G = np.swapaxes(mask, -1, -2) @ cX
        if self.alpha:
            G *= 1.0 - self.alpha
            G += self.alpha * cX.sum(axis=-2)[..., None, :]
        G *= self.a[:, None]
        return G

    def sgd_update(self, W, x, y, ex, *, eta, out=None, checked=True):
        """One Eq. 3 update in place (``eta`` is already in ``ex = η y x``)."""
        if out is not None and W.size < SGD_SCRATCH_FROM:
            out = None
        d = W.shape[-1]
        if W.ndim == 2:  # one run: plain 1-D examples, the fewest numpy calls per update
            z = W @ x
            on = z > 0.0 if not checked or _trusted(z, d) else active(W, x[None], z[None])[0]
            sa = np.where(on, self.a_col[0, :, 0], self.a_col[1, :, 0])  # a_j σ'(z_j)
            q = y * (z @ sa)
            gq = _loss.g(q)
            sa *= gq
            W += np.multiply(sa[:, None], ex, out=out)
            return q, gq
        z = np.matmul(W, x)  # (R, 2k, 1): one gemv per run
        on = z > 0.0 if not checked or _trusted(z, d) else np.swapaxes(active(
            W, np.swapaxes(x, -1, -2), np.swapaxes(z, -1, -2)), -1, -2)
        sa = np.where(on, self.a_col[0], self.a_col[1])
        q = y * np.matmul(np.swapaxes(z, -1, -2), sa)[:, 0, 0]  # one dot per run
        # loss.g without its NaN scan (one pass per update): a trainer runs under
        # float_guard, where no operation can make a NaN without raising
        gq = expit(-q)
        sa *= gq[:, None, None]
        if out is None:
            W += sa * ex
        else:
            W += np.einsum("rjo,rod->rjd", sa, ex, out=out)
        return q, gq


class Controlled:
    """A negative control: the paper's own ``Net.forward`` / ``Net.backward``, then ``grad``.

    Every gradient the trainer forms (``∇ℓ`` of an SGD update, ``∇L`` of a gd/flow step,
    ``∇L/L`` of a normalized step) is replaced by ``grad(G)``: an array of the same shape,
    e.g. ``np.zeros_like`` (a frozen trainer) or a sign flip of the u rows.  Slower than
    :class:`Fused` (validated calls); controls are small.
    """

    def __init__(self, net, grad: Callable):
        if not callable(grad):
            raise TypeError(f"`grad` must be callable or None, got {type(grad).__name__}")
        self.net, self.grad = net, grad

    def _transformed(self, G):
        H = self.grad(G)
        if not isinstance(H, np.ndarray) or H.shape != G.shape:
            raise ValueError(f"`grad` must return an array of shape {G.shape}, got "
                             f"{getattr(H, 'shape', type(H).__name__)}")
        return np.array(H, dtype=np.float64)  # the trainer's own copy: it scales in place

    def forward(self, W, X, out=None):
        """``(Net.forward(W, X), W)``: ``backward`` re-forms the same pre-activations."""
        return self.net.forward(W, X), W

    def backward(self, pre, X, coef):
        """``grad(Net.backward(W, X, coef))`` with ``W = pre``."""
        return self._transformed(self.net.backward(pre, X, coef))

    def sgd_update(self, W, x, y, ex, *, eta, out=None, checked=True):
        """``W ← W − η grad(∇ℓ)``, the runs as R single-point problems ``(R, 1, d)``."""
        runs = W if W.ndim == 3 else W[None]
        xs = np.swapaxes(x, -1, -2) if W.ndim == 3 else x[None, None, :]
        ys = np.reshape(y, (-1, 1))
        q = ys * self.net.forward(runs, xs)
        gq = _loss.g(q)
        runs -= eta * self._transformed(self.net.backward(runs, xs, -ys * gq))
        return (q[:, 0], gq[:, 0]) if W.ndim == 3 else (q[0, 0], gq[0, 0])
