"""Hypothesis strategies for property-based tests of the paper's claims.

Two layers, so failures shrink and replay:

* **Generators** (plain NumPy, ``rng`` required) live in :mod:`linteach.generators`
  (:func:`clustered_weights`, :func:`band_points`, :func:`nar_weights`,
  :func:`par_weights`, re-exported here), plus :func:`linteach.make_separable` and
  :meth:`linteach.Net.init`.
* **Strategies** draw only small integers, bounded floats and a ``seed``, then call a
  generator with ``np.random.default_rng(seed)``: hypothesis shrinks sizes and seeds, and a
  printed counterexample replays from its arguments alone.

This is the only linteach module that imports hypothesis (``import linteach`` does not; the
attribute ``linteach.strategies`` loads it on first use).

Examples
--------
>>> from hypothesis import given
>>> import linteach as lt
>>> from linteach.strategies import separable_datasets
>>> @given(separable_datasets(n=(2, 20), d=(1, 4)))
... def test_teacher_certifies(ds):
...     assert (ds.y * (ds.X @ ds.w_star)).min() >= 1 - 1e-12
>>> test_teacher_certifies()
"""
from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from .data import make_separable
from .generators import band_points, clustered_weights, nar_weights, par_weights
from .network import Net

__all__ = ["clustered_weights", "band_points", "nar_weights", "par_weights", "seeds",
           "separable_datasets", "clustered_nets", "band_edge_points", "nar_weight_sets",
           "par_weight_sets"]

#: seeds hypothesis draws (shrinks towards 0)
MAX_SEED = 2**32 - 1


# -- strategies ------------------------------------------------------------------------------
def seeds():
    """Seeds for generators (shrink towards 0)."""
    return st.integers(0, MAX_SEED)


def _ints(bounds):
    return st.integers(*bounds)


def _floats(bounds):
    return st.floats(*bounds, allow_nan=False, allow_infinity=False)


@st.composite
def separable_datasets(draw, n=(2, 40), d=(1, 6), margin=(0.05, 0.5)):
    """Datasets from :func:`linteach.make_separable` whose teacher certifies the margin.

    ``w_star`` satisfies ``y_i⟨w*, x_i⟩ ≥ 1`` (checked), so the max margin is ``≥ 1/‖w*‖``.
    """
    size, dim, gamma = draw(_ints(n)), draw(_ints(d)), draw(_floats(margin))
    ds = make_separable(size, dim, margin=gamma, rng=np.random.default_rng(draw(seeds())))
    if not np.min(ds.y * (ds.X @ ds.w_star)) >= 1.0 - 1e-12:
        raise AssertionError("make_separable returned a teacher that does not certify its margin")
    return ds


@st.composite
def clustered_nets(draw, k=(1, 8), d=(2, 6), r=(0.0, 0.24), alpha=(0.05, 0.95), v=(0.2, 3.0),
                   gap=(0.5, 2.0), center_norm=(0.0, 2.0)):
    """``(net, W)`` with :func:`clustered_weights`: cluster radius ``r`` (0 when k = 1).

    The defaults combine with :func:`band_points` / :func:`band_edge_points`: ``d ≥ 2`` and
    ``2r(1 + 1e-9) < 0.5 ≤ ‖w̄ − ū‖``, so band points at ``c = 2(1 ± δ)`` always exist.
    """
    width = draw(_ints(k))
    radius = 0.0 if width == 1 else draw(_floats(r))
    net = Net(k=width, alpha=draw(_floats(alpha)), v=draw(_floats(v)))
    W = clustered_weights(width, draw(_ints(d)), r=radius, gap=draw(_floats(gap)),
                          center_norm=draw(_floats(center_norm)),
                          rng=np.random.default_rng(draw(seeds())))
    return net, W


@st.composite
def band_edge_points(draw, W, n=(1, 20), c=2.0, rel_offset=(0.0, 1e-9, -1e-9)):
    """Points on (``rel_offset = 0``) and just off Theorem 5.1's band edge for weights ``W``."""
    factor = c * (1.0 + draw(st.sampled_from(rel_offset)))
    return band_points(W, draw(_ints(n)), c=factor, rng=np.random.default_rng(draw(seeds())))


@st.composite
def nar_weight_sets(draw, X, side_w, side_u, k=(1, 6)):
    """Weights inside the NAR with the given sides (see :func:`nar_weights`)."""
    return nar_weights(X, side_w, side_u, k=draw(_ints(k)),
                       rng=np.random.default_rng(draw(seeds())))


@st.composite
def par_weight_sets(draw, data, k=(1, 6)):
    """Weights inside PAR for ``data`` (see :func:`par_weights`)."""
    return par_weights(data, k=draw(_ints(k)), rng=np.random.default_rng(draw(seeds())))
