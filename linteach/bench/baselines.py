"""The implementations a user would otherwise write: the yardsticks of the benchmark.

Each trains exactly the net of Eq. 1 with the loss of Eq. 2 (σ'(0) = α, as linteach), so a
row first checks that the baseline and linteach reach the same weights before timing them.
"""
from __future__ import annotations

import numpy as np

from linteach import loss as lt_loss

try:  # optional: a benchmark baseline only, never a dependency
    import torch
except ImportError:  # the torch rows then say "not installed"
    torch = None


def numpy_sgd(net, W0, X, y, *, eta, n_epochs, rng):
    """Straightforward NumPy SGD: separate w/u matrices, ``np.where`` slopes, Eq. 3 as written."""
    k, v, alpha = net.k, net.v, net.alpha
    w, u = W0[:k].copy(), W0[k:].copy()
    for _ in range(n_epochs):
        for i in rng.permutation(len(X)):
            x, yi = X[i], y[i]
            zw, zu = w @ x, u @ x
            out = v * (np.where(zw > 0, zw, alpha * zw).sum()
                       - np.where(zu > 0, zu, alpha * zu).sum())
            g = 1.0 / (1.0 + np.exp(yi * out))
            w += eta * v * g * yi * np.where(zw > 0, 1.0, alpha)[:, None] * x[None, :]
            u -= eta * v * g * yi * np.where(zu > 0, 1.0, alpha)[:, None] * x[None, :]
    return np.vstack([w, u])


def _torch_net(net, W0, X, y):
    W = torch.tensor(W0, dtype=torch.float64, requires_grad=True)
    a = torch.tensor(net.a, dtype=torch.float64)
    return W, a, torch.tensor(X, dtype=torch.float64), torch.tensor(y, dtype=torch.float64)


def _torch_loss(W, a, X, y, alpha):
    """Mean logistic loss; leaky_relu's derivative at 0 is its slope, i.e. σ'(0) = α."""
    out = torch.nn.functional.leaky_relu(X @ W.T, negative_slope=alpha) @ a
    return torch.nn.functional.softplus(-y * out).mean()


def torch_sgd(net, W0, X, y, *, eta, n_epochs, rng):
    """The same per-sample SGD with torch autograd (CPU, float64)."""
    W, a, Xt, yt = _torch_net(net, W0, X, y)
    for _ in range(n_epochs):
        for i in rng.permutation(len(X)):
            loss = _torch_loss(W, a, Xt[i:i + 1], yt[i:i + 1], net.alpha)
            loss.backward()
            with torch.no_grad():
                W -= eta * W.grad
            W.grad = None
    return W.detach().numpy()


def torch_gd(net, W0, X, y, *, eta, n_steps):
    """Full-batch gradient descent with torch autograd (CPU, float64)."""
    W, a, Xt, yt = _torch_net(net, W0, X, y)
    for _ in range(n_steps):
        loss = _torch_loss(W, a, Xt, yt, net.alpha)
        loss.backward()
        with torch.no_grad():
            W -= eta * W.grad
        W.grad = None
    return W.detach().numpy()


def torch_version() -> str | None:
    return None if torch is None else torch.__version__


def direct_loss_and_grad(net, W, X, y):
    """The unfused formulas linteach used before its kernels were fused (for comparison)."""
    Z = X @ np.swapaxes(W, -1, -2)
    slope = net.alpha + (1.0 - net.alpha) * (Z > 0)
    q = y * ((Z * slope) @ net.a)
    coef = -y * lt_loss.g(q) / q.shape[-1]
    dZ = coef[..., :, None] * slope * net.a
    return lt_loss.ell(q).mean(axis=-1), np.swapaxes(dZ, -1, -2) @ X
