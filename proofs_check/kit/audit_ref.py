"""Deliberately naive second implementations of what the engine computes (engine audits).

Each function is written from the definition in ``docs/math.md`` (section cited), with
plain Python loops over neurons, points and steps, and never calls the ``linteach``
function it audits (only ``math``/NumPy elementwise operations and, for solver answers,
SciPy's NNLS and LP as *independent* formulations whose answers are re-checked here).
Speed is irrelevant; obviousness is the point.  This module gathers them by topic:
:mod:`~proofs_check.kit.audit_ref_net` (network, loss, gradient),
:mod:`~proofs_check.kit.audit_ref_metrics` (r, band, agreement, PAR, margins),
:mod:`~proofs_check.kit.audit_ref_train` (SGD, Euler and late-phase replays, Thm 4.1's
constants), :mod:`~proofs_check.kit.audit_ref_solvers` (KKT and dual-LP certificates) and
:mod:`~proofs_check.kit.audit_ref_spectra` (singular values, stable ranks, the follow-up
papers' quantities).  :mod:`proofs_check.kit.audit` compares
these with the engine on each claim's own cases.
"""
from __future__ import annotations

from .audit_ref_metrics import (agreement, band_mask, cluster_radius, normalized_margin, par,
                                smoothed_margin)
from .audit_ref_net import (forward, g_loss, grad_mean_loss, grad_over_loss, grad_terms,
                            log_loss_terms, log_sum_loss, logsumexp, mean_loss, sigma,
                            sigma_prime)
from .audit_ref_solvers import (a4_slack, eq8_rows, kkt_residuals, pattern_rows, qp_kkt,
                                qp_multipliers, svm_rows)
from .audit_ref_spectra import (cosine, lifted_svm_margin, margin_ratio, orthogonality_constant,
                                rank_ratio, singular_values, stable_rank, type_stable_ranks)
from .audit_ref_train import euler_replay, normalized_replay, sgd_constants, sgd_replay

__all__ = ["sigma", "sigma_prime", "forward", "log_loss_terms", "logsumexp", "log_sum_loss",
           "mean_loss", "g_loss", "grad_terms", "grad_mean_loss", "grad_over_loss",
           "cluster_radius", "band_mask", "agreement", "par", "normalized_margin",
           "smoothed_margin", "sgd_replay", "euler_replay", "normalized_replay", "sgd_constants",
           "qp_multipliers", "kkt_residuals", "qp_kkt", "svm_rows", "eq8_rows", "pattern_rows", "a4_slack", "singular_values",
           "stable_rank", "type_stable_ranks", "rank_ratio", "margin_ratio", "cosine",
           "orthogonality_constant", "lifted_svm_margin"]
