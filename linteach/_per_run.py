"""The kernel of :func:`linteach.sgd` with one net per run (behind the seam of
:mod:`linteach._kernels`, whose docstring states the protocol and what is bit-identical to
what): configurations of one shape, each its own α, v and η, share one array program."""
from __future__ import annotations

import numpy as np

from ._kernels import Fused, relu_products

__all__ = ["PerRun"]


class PerRun(Fused):
    """:class:`Fused` with its own ``α`` and ``v`` per run: ``nets[r]`` is run ``r``'s (one
    width k), so configurations of one shape share an array program (``sgd``).

    ``sgd_update`` performs Fused's operations on per-run columns ``a_j σ'(z)`` (the same
    elementwise products, one call for all runs), ``forward`` Fused's products per run with
    a column ``a`` per run, and ``backward`` (not on SGD's path) runs Fused on each span of
    consecutive runs with one net.  So every run gets the bits it gets under :class:`Fused`
    with its own net, alone or in any batch (``tests/test_sgd_per_run.py``).
    """

    def __init__(self, nets):
        k = nets[0].k
        self.alpha = np.array([net.alpha for net in nets])[:, None]        # (R, 1)
        v = np.array([net.v for net in nets])[:, None]
        self.a = np.repeat(np.hstack([v, -v]), k, axis=1)                  # (R, 2k): Net.a
        self.a.flags.writeable = False
        self.a_col = np.stack([self.a, self.alpha * self.a])[..., None]     # (2, R, 2k, 1)
        starts = [r for r in range(len(nets))
                  if r == 0 or (nets[r] is not nets[r - 1] and nets[r] != nets[r - 1])]
        self.spans = [(lo, hi, Fused(nets[lo])) for lo, hi in
                      zip(starts, starts[1:] + [len(nets)])]

    def forward(self, W, X, out=None):
        """``(N_W(X), relu(Z))`` for ``W (R, 2k, d)``, ``X (R, n, d)``: Fused's products with
        ``a`` as a column per run, laid out as NumPy lays out Fused's vector ``a`` (so the
        same loop forms them: the same bits), its α-mix where ``α > 0``."""
        WT, Z, rescued = relu_products(W, X, out)
        a = self.a[..., None]  # (R, 2k, 1), stride 0 on its last axis like Fused's vector a
        N = np.matmul(Z, a)[..., 0]
        # Fused forms X (Wᵀa) from the vector Wᵀa made a column, a stride-0 axis that takes
        # NumPy's own loop rather than BLAS: the same layout here gives the same bits
        lin = np.matmul(X, np.matmul(WT, a)[..., 0][..., None])[..., 0]
        N = np.where(self.alpha > 0, self.alpha * lin + (1.0 - self.alpha) * N, N)
        if rescued is not None:
            Z[...] = rescued
        return N, Z

    def backward(self, pre, X, coef):
        """``Σ_i coef_i ∇_W N_W(x_i)`` per run: Fused per span."""
        return np.concatenate([fused.backward(pre[lo:hi], X[lo:hi], coef[lo:hi])
                               for lo, hi, fused in self.spans])
