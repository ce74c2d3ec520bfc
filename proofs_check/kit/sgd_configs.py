"""Thm 4.1's case families and one audited SGD case (shared by ``thm4.1`` and ``appK``).

Every case is one *configuration* drawn from its seed (a separable dataset, a net, a step,
targets ε, and four initialisations of different scale), trained as one batch with
:func:`linteach.sgd` and audited at every update by :mod:`proofs_check.kit.sgd_cases`.
"""
from __future__ import annotations

import numpy as np

import linteach as lt
from linteach.bounds import sgd_update_bound

from ..engine.contract import Case, digest
from .items import RUNS_PER_BATCH
from .sgd_cases import flip_u_update, theorem_teacher, train_configurations

__all__ = ["INVARIANTS", "CLAUSES", "SLACK_UNITS", "EPOCH_SCALE", "FAMILIES", "SCALING_N",
           "SCALING_EPS", "CONTROL_FAMILIES", "RUNS_PER_BATCH", "draw_configuration",
           "run_sgd_case", "run_sgd_cases", "sgd_items", "map_sgd_cases", "audit_subject",
           "trained_report", "AUDIT_EPOCHS"]

INVARIANTS = ("F_gain_per_step", "G2_gain_per_step")
CLAUSES = INVARIANTS + ("mistake_epochs_le_T_exact_over_n",
                        "max_loss_le_eps_in_first_mistake_free_epoch",
                        "updates_to_eps_le_T_exact", "updates_to_eps_le_M")
#: what each clause's slack measures (the report's "slack unit")
SLACK_UNITS = {
    "F_gain_per_step": "relative to the guaranteed gain 2kηvα·g_t",
    "G2_gain_per_step": "relative to the bound 2η + 2kη²v²R_x²",
    "mistake_epochs_le_T_exact_over_n": "fraction of the bound T_exact/n",
    "max_loss_le_eps_in_first_mistake_free_epoch": "relative to ε",
    "updates_to_eps_le_T_exact": "fraction of the bound T_exact",
    "updates_to_eps_le_M": "fraction of the bound M",
}

#: epoch caps scale with the budget; a run's trajectory up to a cap does not depend on it
EPOCH_SCALE = {"quick": 0.5, "standard": 1.0, "thorough": 2.0}

#: R_x = max‖x_i‖ is drawn log-uniform from ``R_x`` (the data rescaled to it), so that a
#: constant with the wrong power of R_x cannot hide behind R_x = 1; the scaling families keep
#: make_separable's R_x = 1 (their exponents are fits in n and ε alone)
_COMMON = dict(alpha=(0.1, 0.9), v=(0.3, 3.0), eta=(0.05, 1.0), eps=(0.2, 0.5),
               R0=(1e-4, 1e-2, 1.0, 10.0), R_x=(0.5, 2.0), until="all")
#: case families: ranges drawn from the case seed (n, d inclusive), fixed values otherwise
FAMILIES = {
    "small-n": dict(_COMMON, count=6, n=(10, 60), d=(2, 8), margin=(0.4, 0.8),
                    k=(1, 2, 3, 5, 10), epochs=300),
    "large-n": dict(_COMMON, count=2, n=(150, 300), d=(3, 10), margin=(0.6, 0.8),
                    k=(1, 2, 4), epochs=80),
    "large-init": dict(_COMMON, count=3, n=(10, 30), d=(2, 5), margin=(0.5, 0.8),
                       k=(1, 2, 5), v=(1.0, 3.0), eta=(0.3, 1.0), R0=(2.0, 5.0, 10.0, 10.0),
                       epochs=400),
}
#: the (n, ε) grid of the empirical exponents; one family per n, everything else fixed
SCALING_N = (16, 32, 64, 128)
SCALING_EPS = (0.4, 0.2, 0.1, 0.05)
for _n in SCALING_N:
    FAMILIES[f"scaling-n{_n}"] = dict(count=2, n=(_n, _n), d=(5, 5), margin=(0.5, 0.5), k=(4,),
                                      alpha=(0.3, 0.3), v=(1.0, 1.0), eta=(0.1, 0.1),
                                      targets=SCALING_EPS, R0=(1e-3,) * 4, epochs=100,
                                      until="targets")
#: negative controls (not part of the verdict's case count)
CONTROL_FAMILIES = {
    "corrupted-sgd": dict(FAMILIES["small-n"], count=2, epochs=3),
    "nonseparable": dict(FAMILIES["small-n"], count=1, nonseparable=True),
}


def _log_uniform(rng, lo_hi):
    lo, hi = np.log(lo_hi[0]), np.log(lo_hi[1])
    return float(np.exp(rng.uniform(lo, hi)))


def draw_configuration(case: Case, spec: dict):
    """The configuration of ``case`` under family ``spec``: ``(config, (data, init, order) rngs)``.

    Everything is drawn from ``case.rng`` (or fixed by the family), so family + seed replay it.
    """
    rng = case.rng
    cfg = {"n": int(rng.integers(spec["n"][0], spec["n"][1] + 1)),
           "d": int(rng.integers(spec["d"][0], spec["d"][1] + 1)),
           "margin": float(rng.uniform(*spec["margin"])),
           "k": int(rng.choice(spec["k"])),
           "alpha": float(rng.uniform(*spec["alpha"])),
           "v": _log_uniform(rng, spec["v"]),
           "eta": _log_uniform(rng, spec["eta"])}
    if "targets" in spec:
        cfg["eps"] = [float(e) for e in spec["targets"]]
    else:
        eps = float(rng.uniform(*spec["eps"]))
        cfg["eps"] = [eps, eps / 2]
    if "R_x" in spec:  # drawn last: the spawned children do not depend on the draws
        cfg["R_x_drawn"] = _log_uniform(rng, spec["R_x"])
    return cfg, tuple(rng.spawn(3))


def _dataset(cfg, spec, data_rng, *, augment, offset):
    ds = lt.make_separable(cfg["n"], cfg["d"], margin=cfg["margin"], rng=data_rng)
    X, y = ds.X, ds.y
    if "R_x_drawn" in cfg and not augment:  # App. K's lifted sets keep their own scale
        X = X * (cfg["R_x_drawn"] / np.linalg.norm(X, axis=1).max())
    if spec.get("nonseparable"):  # the first point again with the opposite label
        X, y = np.vstack([X, X[:1]]), np.append(y, -y[0])
    if augment:  # App. K: shift off the origin (separable only with a bias), then lift
        shift = data_rng.standard_normal(X.shape[1])
        X = lt.augment_bias(X + offset * shift / np.linalg.norm(shift))
    return X, y


def _build(case, spec, item) -> dict:
    """The objects ``case`` trains (as :func:`audit_subject` rebuilds them), or its
    ``assumption_not_met`` result."""
    cfg, (data_rng, init_rng, order_rng) = draw_configuration(case, spec)
    X, y = _dataset(cfg, spec, data_rng, augment=item.get("augment", False),
                    offset=item.get("offset", 0.5))
    try:
        w_star = theorem_teacher(X, y)
    except lt.NotSeparableError as exc:
        return {"result": {"config": cfg,
                           "assumption_not_met": f"not separable through the origin: {exc}"}}
    net = lt.Net(k=cfg["k"], alpha=cfg["alpha"], v=cfg["v"])
    d = X.shape[1]
    R0 = np.asarray(spec["R0"], dtype=np.float64)
    W0 = net.init(d, scale=1.0, rng=init_rng, batch=len(R0)) * (R0 / np.sqrt(d))[:, None, None]
    return {"cfg": cfg, "job": dict(net=net, X=X, y=y, w_star=w_star, W0=W0, eta=cfg["eta"],
                                    eps=cfg["eps"], rng=order_rng)}


def _result(cfg, job, max_epochs, mon, W, epochs) -> dict:
    """The plain result of one trained configuration (see :func:`record_sgd_result`)."""
    X, y, W0, w_star = job["X"], job["y"], job["W0"], job["w_star"]
    R_0 = np.linalg.norm(W0, axis=-1).max(axis=-1)
    w_norm = float(np.linalg.norm(w_star))
    bounds = [[sgd_update_bound(len(y), e, R_x=mon.R_x, R_0=float(r0), alpha=cfg["alpha"],
                                k=cfg["k"], eta=cfg["eta"], v=cfg["v"], w_star_norm=w_norm)
               for e in cfg["eps"]] for r0 in R_0]
    return {"config": {**cfg, "n": len(y), "d": X.shape[1], "R_x": mon.R_x,
                       "w_star_norm": w_norm, "gamma": 1.0 / w_norm, "epochs": epochs,
                       "max_epochs": max_epochs},
            "R_0": R_0, "eps0": mon.eps0,
            "T_exact": np.array([[b.T_exact for b in row] for row in bounds]),
            "M": np.array([[b.M for b in row] for row in bounds]),
            "lead_epochs": mon.lead_epochs, "free_found": mon.free_found,
            "free_max_loss": mon.free_max_loss, "t_eps": mon.t_eps,
            "F_slack": mon.F_slack, "G_slack": mon.G_slack, "F_worst_t": mon.F_worst_t,
            "G_worst_t": mon.G_worst_t,
            "digests": {"data": digest(X), "W0": digest(W0), "W": digest(W)}}


def run_sgd_cases(item: dict) -> list:
    """Train and audit the cases of one batch (``ctx.map`` worker): ``item`` =
    ``{"cases", "spec", "augment", "offset", "corrupt", "epoch_scale"}`` (plain data), the
    cases of one shape (:func:`sgd_items`).  Returns one plain result per case (see
    :func:`record_sgd_result`), each the bits the case gets alone."""
    spec = item["spec"]
    built = [_build(case, spec, item) for case in item["cases"]]
    trained = [b for b in built if "job" in b]
    max_epochs = max(1, int(round(spec["epochs"] * item.get("epoch_scale", 1.0))))
    outs = train_configurations([b["job"] for b in trained], max_epochs=max_epochs,
                                until=spec["until"],
                                grad=flip_u_update if item.get("corrupt") else None)
    for b, out in zip(trained, outs):
        b["result"] = _result(b["cfg"], b["job"], max_epochs, *out)
    return [b["result"] for b in built]


def trained_report(res: dict) -> dict | None:
    """The ``trained`` key of a case's audit subject (:mod:`proofs_check.kit.audit`): what
    :func:`run_sgd_cases` trained and reported, for the audit to compare with its rebuild."""
    if "digests" not in res:  # not separable: nothing was trained
        return None
    cfg = res["config"]
    return {"trained": {"data": res["digests"]["data"], "W0": res["digests"]["W0"],
                        "R_0": np.asarray(res["R_0"]), "gamma": cfg["gamma"], "n": cfg["n"],
                        "d": cfg["d"]}}


def run_sgd_case(item: dict) -> dict:
    """One case alone: ``item`` as :func:`run_sgd_cases` takes it with ``"case"`` in place
    of ``"cases"``."""
    return run_sgd_cases({**item, "cases": [item["case"]]})[0]


#: epochs of each audited case that the engine audit replays step by step
AUDIT_EPOCHS = 2


def audit_subject(case: Case, *, augment: bool = False, offset: float = 0.5) -> dict:
    """The objects of ``case`` as :func:`run_sgd_case` builds them, for the engine audit
    (:mod:`proofs_check.kit.audit`): data, net, the R initialisations, its first
    :data:`AUDIT_EPOCHS` epochs of SGD (two identical order generators) and its teacher."""
    spec = FAMILIES.get(case.family) or CONTROL_FAMILIES[case.family]
    cfg, (data_rng, init_rng, order_rng) = draw_configuration(case, spec)
    again = draw_configuration(case, spec)[1][2]
    X, y = _dataset(cfg, spec, data_rng, augment=augment, offset=offset)
    net = lt.Net(k=cfg["k"], alpha=cfg["alpha"], v=cfg["v"])
    R0 = np.asarray(spec["R0"], dtype=np.float64)
    d = X.shape[1]
    W0 = net.init(d, scale=1.0, rng=init_rng, batch=len(R0)) * (R0 / np.sqrt(d))[:, None, None]
    subject = {"net": net, "W": W0, "X": X, "y": y,
               "sgd": {"eta": cfg["eta"], "epochs": AUDIT_EPOCHS, "rng": order_rng,
                       "rng_again": again}}
    try:
        w_star = subject["teacher"] = theorem_teacher(X, y)
    except lt.NotSeparableError:
        return subject
    R_x, w_norm = float(np.linalg.norm(X, axis=1).max()), float(np.linalg.norm(w_star))
    subject["bounds"] = []
    for r0 in np.linalg.norm(W0, axis=-1).max(axis=-1):  # the constants run_sgd_case uses
        for eps in cfg["eps"]:
            inputs = dict(n=len(y), eps=eps, R_x=R_x, R_0=float(r0), alpha=cfg["alpha"],
                          k=cfg["k"], eta=cfg["eta"], v=cfg["v"], w_star_norm=w_norm)
            bound = sgd_update_bound(**inputs)
            subject["bounds"].append((inputs, {"T_exact": bound.T_exact, "M": bound.M,
                                               "eps0": bound.eps0}))
    return subject


def sgd_items(cases, spec, *, augment=False, corrupt=False, budget="standard", offset=0.5,
              chunk=None) -> list:
    """The ``ctx.map`` items of ``cases`` (one family): cases of one shape (n, d, k) grouped
    in draw order, at most ``chunk`` per item (default:
    :data:`~proofs_check.kit.items.RUNS_PER_BATCH` runs);
    a negative control (``corrupt``) trains each case alone.  ``[(positions in cases,
    item), ...]``."""
    if chunk is None:
        chunk = max(1, RUNS_PER_BATCH // len(spec["R0"]))
    groups: dict = {}
    for i, case in enumerate(cases):
        cfg = draw_configuration(case, spec)[0]
        key = i if corrupt else (cfg["n"], cfg["d"], cfg["k"])
        groups.setdefault(key, []).append(i)
    common = {"spec": spec, "augment": augment, "corrupt": corrupt, "offset": offset,
              "epoch_scale": EPOCH_SCALE[budget]}
    return [(part, {**common, "cases": [cases[i] for i in part]})
            for group in groups.values()
            for part in (group[j:j + chunk] for j in range(0, len(group), chunk))]


def map_sgd_cases(mapper, cases, spec, **kw) -> list:
    """``[(case, result), ...]`` in draw order: :func:`run_sgd_cases` over
    :func:`sgd_items` through ``mapper`` (``ctx.map``)."""
    items = sgd_items(cases, spec, **kw)
    results = [None] * len(cases)
    for (part, _), res in zip(items, mapper(run_sgd_cases, [item for _, item in items])):
        for i, r in zip(part, res):
            results[i] = r
    return list(zip(cases, results))
