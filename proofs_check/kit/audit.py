"""Engine audits: the engine's numbers on a claim's own cases against naive re-derivations.

A claim calls :func:`audit_cases` with a sample of its cases (:meth:`Context.audit_sample`)
and a module-level ``build(case) -> subject`` that rebuilds the case's objects from its
seed exactly as the check does.  A *subject* is a dict; every key present is audited
against :mod:`proofs_check.kit.audit_ref` (docs/math.md section in brackets):

* ``net``, ``W`` (``(2k, d)`` or runs ``(R, 2k, d)``), ``X`` — Eq. 1 per neuron (§1), r, the
  band mask ``|(w̄ − ū)·x| ≥ 2r‖x‖`` and the agreement pattern (§5, §6); with ``y`` also the
  mean loss, ∇L by the per-example loop of Eq. 3 and by central differences along random
  directions away from kinks (§2, §3), γ̄ and γ̃ (Eq. 5, summed loss, §4);
* ``sgd = {"eta", "epochs", "rng"}`` — ``linteach.sgd`` from ``W`` (the runs) with the
  visited indices recorded: each epoch a permutation, the documented draw (one
  ``rng.spawn`` child per run), and the trajectory replayed by a plain batch-1 loop (§3);
* ``flow = {"dt", "steps"}`` — plain Euler and the late-phase (normalized) flow replayed as
  Euler steps ``h_t = dt‖W‖/‖∇L‖`` with the recorded continuous time against the step
  times (arc length over a speed log-linear along each step), at
  the start and again deep in the late phase, where ∇L/L is checked by central differences
  of ``log L_sum`` and the trace's γ̄, γ̃ against Eq. 5 (§4);
* ``teacher`` (SVM), ``eq8 = (alpha, w, u)``, ``pattern = (alpha, side_w, side_u, k, v, W)``
  and ``a4 = (X as given to the LP, its Assumption4Result)`` — each solver answer re-verified in NumPy by its KKT
  residuals (stationarity, primal and dual feasibility, complementarity) or, for the
  Assumption 4 LPs, by the optimum of the dual LP with its certificate re-checked (§3, §6, §7);
* ``bounds`` — Theorem 4.1's constants (ε0, T_exact, M) the check used, recomputed (§3);
  ``trained`` — what an SGD check trained and reported (its ledger digests of the data and
  inits, R_0, γ, n, d) against the rebuild.
* ``followup`` (with ``T``, ``one_step_eta``) — a follow-up check's recorded result: its
  stable ranks, σ_3/σ_1, margins, cosines and solver answers recomputed
  (:mod:`proofs_check.kit.audit_spectra`, §10–§15).

Workers return plain findings; :func:`record_findings` turns them into ``ctx.audit`` calls.
"""
from __future__ import annotations

import importlib

import numpy as np

from .audit_base import (FD_RTOL, FLOW_STEPS, KKT_TOL, LATE_STEPS, MAX_POINTS, ROUND,
                         TRAJECTORY_RTOL)
from .audit_net import net_findings
from .audit_solvers import bound_findings, constant_findings, solver_findings
from .audit_spectra import followup_findings
from .audit_train import flow_findings, late_flows, sgd_findings, trained_findings

__all__ = ["ROUND", "KKT_TOL", "FD_RTOL", "TRAJECTORY_RTOL", "FLOW_STEPS", "LATE_STEPS",
           "AUDIT_CHUNK", "audit_subject", "audit_item", "audit_items", "audit_cases",
           "record_findings", "bound_findings"]


#: cases per audit item: their late-phase engine flows advance as one batch (each run equals
#: itself alone bit for bit, so the findings do not depend on it); fixed here, never by the
#: executor
AUDIT_CHUNK = 16


def _flow_inputs(subject):
    """``(net, W0, X, y, spec)`` of a subject's flow audit (the points it is audited on), or
    None without one."""
    if "net" not in subject or "flow" not in subject:
        return None
    X = np.asarray(subject["X"], float)
    W = np.asarray(subject["W"], float)
    pick = slice(None, None, max(1, -(-len(X) // MAX_POINTS)))  # spread over the set
    y = subject.get("y")
    return (subject["net"], (W if W.ndim == 3 else W[None])[0], X[pick],
            None if y is None else np.asarray(y, float)[pick], subject["flow"])


def audit_subject(subject: dict, late=None) -> list:
    """Every finding on one subject (see the module docstring); ``late`` as in
    :func:`~proofs_check.kit.audit_train.flow_findings`."""
    out = []
    if "net" in subject:
        net, X = subject["net"], np.asarray(subject["X"], float)
        y = subject.get("y")
        W = np.asarray(subject["W"], float)
        runs = W if W.ndim == 3 else W[None]
        pick = slice(None, None, max(1, -(-len(X) // MAX_POINTS)))  # spread over the set
        Xs, ys = X[pick], None if y is None else np.asarray(y, float)[pick]
        for Wr in runs[:2]:
            out += net_findings(net, Wr, Xs, ys)
        if "sgd" in subject:
            out += sgd_findings(net, runs, X, np.asarray(y, float), subject["sgd"])
        if "trained" in subject:
            out += trained_findings(subject, subject["trained"])
        if "flow" in subject:
            out += flow_findings(net, runs[0], Xs, ys, subject["flow"], late=late)
        if "followup" in subject:
            out += followup_findings(net, X, np.asarray(y, float), runs, subject["followup"],
                                     T=subject.get("T"),
                                     eta_one_step=subject.get("one_step_eta", 1.0))
    if any(key in subject for key in ("teacher", "eq8", "pattern", "a4")):
        out += solver_findings(subject)
    for inputs, engine in subject.get("bounds", ()):
        out += constant_findings(inputs, engine)
    return out


def audit_item(item) -> list:
    """``ctx.map`` worker: ``item = (build name, case, extra)``; returns plain findings.

    ``build`` travels as ``"module:qualname"`` (items are plain data: they are checkpointed
    and cross process boundaries) and is imported here.
    """
    name, case, extra = item
    return audit_items((name, [case], [extra]))[0]


def _builder(name: str):
    module, _, qualname = name.partition(":")
    build = importlib.import_module(module)
    for part in qualname.split("."):
        build = getattr(build, part)
    return build


def audit_items(item) -> list:
    """``ctx.map`` worker: ``item = (build name, cases, extras)``; per case its findings.

    The cases' late-phase flows run as batches (:func:`~proofs_check.kit.audit_train.
    late_flows`); everything else is audited case by case, as :func:`audit_item` does.
    """
    name, cases, extras = item
    build = _builder(name)
    subjects = []
    for case, extra in zip(cases, extras):
        subject = build(case)
        if subject is not None:  # None: a family the audit does not rebuild (e.g. a stream)
            subject.update(extra or {})
        subjects.append(subject)
    lates = late_flows([None if s is None else _flow_inputs(s) for s in subjects])
    return [[] if s is None else audit_subject(s, late=late) for s, late in zip(subjects, lates)]


def record_findings(ctx, case, findings) -> None:
    for f in findings:
        ctx.audit(f["quantity"], f["engine"], f["reference"], case, rtol=f["rtol"],
                  atol=f["atol"], evidence=f["evidence"])


def audit_cases(ctx, cases, build, *, extra=None, findings=None) -> None:
    """Audit the engine on ``ctx.audit_sample(cases)``: ``build(case)`` rebuilds a subject
    (module-level, picklable); ``extra[case]`` adds keys to it; ``findings[case]`` are
    findings made by the check itself (e.g. :func:`bound_findings`)."""
    sample = ctx.audit_sample(cases)
    extra, findings = extra or {}, findings or {}
    name = f"{build.__module__}:{build.__qualname__}"
    chunks = [sample[i:i + AUDIT_CHUNK] for i in range(0, len(sample), AUDIT_CHUNK)]
    items = [(name, chunk, [extra.get(case) for case in chunk]) for chunk in chunks]
    for chunk, found in zip(chunks, ctx.map(audit_items, items)):
        for case, case_found in zip(chunk, found):
            record_findings(ctx, case, case_found + findings.get(case, []))
