"""Rows 1–4: full-batch kernel vs its matmul floor, per-sample SGD vs the baselines users
would write, batched runs vs sequential runs, full-batch step vs torch autograd."""
from __future__ import annotations

import numpy as np

import linteach as lt
from linteach._kernels import Fused, loss_and_grad

from .baselines import direct_loss_and_grad, numpy_sgd, torch, torch_gd, torch_sgd
from .timing import compare, ratio

#: baselines must reach linteach's weights to this relative accuracy before being timed
AGREE_RTOL = 1e-9


def _row(row_id, title, *, value, target_op, target, unit="×", **extra):
    met = None if value is None else (value <= target if target_op == "<=" else value >= target)
    return {"id": row_id, "title": title, "value": value, "unit": unit,
            "target": f"{target_op} {target:g}{unit}", "met": met, **extra}


def _agree(a, b) -> bool:
    return bool(np.allclose(a, b, rtol=AGREE_RTOL, atol=AGREE_RTOL * np.abs(b).max()))


def _net_and_data(n, d, k, seed, *, scale):
    rng = np.random.default_rng(seed)
    net = lt.Net(k=k, alpha=0.3)
    data = lt.make_separable(n, d, margin=0.05, rng=rng)
    return net, data, net.init(d, scale=scale, rng=rng)


def full_batch_vs_floor(n, d, k, *, repeats, seed=1):
    """Row 1: ``net.loss_and_grad`` vs the two matmuls it cannot avoid."""
    rng = np.random.default_rng(seed)
    net = lt.Net(k=k, alpha=0.3)
    X = rng.standard_normal((n, d))
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    W = net.init(d, scale=1.0, rng=rng)  # about half of the pre-activations positive
    G = rng.standard_normal((n, 2 * k))
    WT, kernel = W.T, Fused(net)
    t = compare({"loss_and_grad": lambda: net.loss_and_grad(W, X, y),
                 "floor": lambda: (X @ WT, G.T @ X),
                 "kernel": lambda: loss_and_grad(kernel, W, X, y),
                 "direct": lambda: direct_loss_and_grad(net, W, X, y)}, repeats=repeats)
    return _row(f"1 (n={n}, d={d}, k={k})", "full-batch loss_and_grad / two-matmul floor",
                value=ratio(t, "loss_and_grad", "floor"), target_op="<=", target=2.0,
                seconds={key: v["median"] for key, v in t.items()},
                detail={"kernel without input checks / floor": ratio(t, "kernel", "floor"),
                        "unfused formula / floor": ratio(t, "direct", "floor"), "seed": seed})


def sgd_vs_baselines(n, d, k, *, epochs, repeats, seed=2):
    """Row 2: one run of per-sample SGD, linteach vs straightforward NumPy vs torch autograd."""
    net, data, W0 = _net_and_data(n, d, k, seed, scale=1e-2)
    X, y, eta = data.X, data.y, 0.1

    def ours(s=seed):
        return lt.sgd(net, W0, data, eta=eta, n_epochs=epochs, rng=np.random.default_rng(s)).W

    contenders = {"linteach": ours,
                  "numpy": lambda: numpy_sgd(net, W0, X, y, eta=eta, n_epochs=epochs,
                                             rng=np.random.default_rng(seed))}
    if torch is not None:
        contenders["torch"] = lambda: torch_sgd(net, W0, X, y, eta=eta, n_epochs=epochs,
                                                rng=np.random.default_rng(seed))
    agree = {name: _agree(fn(), ours()) for name, fn in contenders.items() if name != "linteach"}
    t = compare(contenders, repeats=repeats)
    size = f"n={n}, d={d}, k={k}"
    seconds = {key: v["median"] for key, v in t.items()}
    rows = [_row(f"2a ({size})", "per-sample SGD: straightforward NumPy time / linteach time",
                 value=ratio(t, "numpy", "linteach"), target_op=">=", target=1.5,
                 seconds=seconds, detail={"agrees": agree["numpy"], "epochs": epochs,
                                          "updates/s linteach": epochs * n / seconds["linteach"],
                                          "seed": seed})]
    torch_value = ratio(t, "torch", "linteach") if torch is not None else None
    rows.append(_row(f"2b ({size})", "per-sample SGD: torch autograd time / linteach time",
                     value=torch_value, target_op=">=", target=5.0, seconds=seconds,
                     detail={"agrees": agree.get("torch"), "seed": seed},
                     missing=None if torch is not None else "torch not installed"))
    return rows


BATCHED = {
    "sgd": (lambda net, W, data: lt.sgd(net, W, data, eta=0.1, n_epochs=2,
                                        rng=np.random.default_rng(0)), lambda n: 2 * n),
    "gd": (lambda net, W, data: lt.gd(net, W, data, eta=0.1, n_steps=40, record=1),
           lambda n: 40),
    "flow (normalized)": (lambda net, W, data: lt.gradient_flow(
        net, W, data, dt=0.01, n_steps=40, normalized=True, record=1), lambda n: 40),
}


def batched_vs_sequential(n, d, k, *, runs=(16, 256), repeats, seed=3):
    """Row 3: R runs in one call vs R calls of one run (aggregate updates per second)."""
    net, data, _ = _net_and_data(n, d, k, seed, scale=1e-2)
    W0 = net.init(d, scale=1e-2, rng=np.random.default_rng(seed), batch=max(runs))
    rows = []
    for name, (train, updates) in BATCHED.items():
        contenders = {"R=1": lambda: train(net, W0[0], data)}
        contenders.update({f"R={R}": (lambda R=R: train(net, W0[:R], data)) for R in runs})
        t = compare(contenders, repeats=repeats, min_seconds=0.05)
        per_s = {key: int(key[2:]) * updates(n) / v["median"] for key, v in t.items()}
        # R sequential runs take R × (one run): the speed-up is R·t(1)/t(R), per repeat
        speedup = {f"R={R}": R / ratio(t, f"R={R}", "R=1") for R in runs}
        top = f"R={max(runs)}"
        rows.append(_row(f"3 {name} ({top})", f"batched {name}: R runs in one call vs R "
                         "sequential calls", value=speedup[top], target_op=">=", target=20.0,
                         detail={"speedup": speedup, "updates/s": per_s, "seed": seed,
                                 "updates per run": updates(n)}))
    return rows


def full_batch_vs_torch(n, d, k, *, steps, repeats, seed=4):
    """Row 4: a full-batch gradient step, linteach.gd vs torch autograd."""
    net, data, W0 = _net_and_data(n, d, k, seed, scale=1e-1)
    size = f"n={n}, d={d}, k={k}"
    if torch is None:
        return _row(f"4 ({size})", "full-batch step: linteach time / torch autograd time",
                    value=None, target_op="<=", target=1.0, missing="torch not installed")

    def ours():
        return lt.gd(net, W0, data, eta=0.5, n_steps=steps, record=1).W

    def theirs():
        return torch_gd(net, W0, data.X, data.y, eta=0.5, n_steps=steps)

    agree = _agree(theirs(), ours())
    t = compare({"linteach": ours, "torch": theirs}, repeats=repeats)
    return _row(f"4 ({size})", "full-batch step: linteach time / torch autograd time",
                value=ratio(t, "linteach", "torch"), target_op="<=", target=1.0,
                seconds={key: v["median"] / steps for key, v in t.items()},
                detail={"agrees": agree, "steps": steps, "seed": seed})
