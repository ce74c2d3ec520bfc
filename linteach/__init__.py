"""linteach: auditing "Towards Understanding Learning in Neural Networks with Linear Teachers".

Sarussi, Brutzkus & Globerson (ICML 2021).  Pure NumPy: importing this package never
imports cvxpy or matplotlib (``linteach.convex`` and ``linteach.figures`` load them).
Notation and every convention: ``docs/conventions.md`` and ``docs/math.md``.
"""
from . import loss
from .data import (Dataset, augment_bias, load_digit_pair, make_blobs_2d, make_outlier_set,
                   make_separable, make_symmetric_gaussians, max_margin_teacher, stack)
from .errors import NotSeparableError, SolverError, UndecidedError
from .metrics import (Agreement, agreement, cluster_radius, fraction_outside_linear_regime,
                      in_par, linear_regime, max_n_diff, max_within_type_angle, neuron_means,
                      normalized_margin, par_fractions, relative_cluster_radius, smoothed_margin)
from .network import Net
from .train import Run, Trace, gd, gradient_flow, sgd

__version__ = "0.1.0"


def __getattr__(name):
    # submodules with heavy imports (cvxpy, matplotlib) load on first use only
    if name in {"assumption4", "bounds", "convex", "figures", "generators", "kkt", "separable",
                "strategies", "testing"}:
        import importlib

        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'linteach' has no attribute {name!r}")
