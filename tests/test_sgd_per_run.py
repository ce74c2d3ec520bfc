"""``lt.sgd`` with one net, step and ε0 per run: each run equals its own net's run, bit for bit.

Configurations of one shape (n, d, k) but their own ``α``, ``v`` and ``η`` train as one
batch (``proofs_check.kit.sgd_configs``).  What an audit or a check reads of a run (its
iterates, the filed epochs' ``g`` and losses, the ε0-mistakes, the final ``W``) must not
depend on the batch it ran in.
"""
import numpy as np
import pytest

import linteach as lt
from linteach._kernels import Fused
from linteach._per_run import PerRun

NETS = (lt.Net(k=3, alpha=0.2, v=0.5), lt.Net(k=3, alpha=0.7, v=2.0),
        lt.Net(k=3, alpha=0.0, v=1.3))
ETAS = (0.3, 0.05, 0.8)
EPS0 = (0.3, 0.1, 0.5)
N, D, PER = 17, 4, 2


def _problem(seed=0):
    rng = np.random.default_rng(seed)
    Xs = [rng.standard_normal((N, D)) for _ in NETS]
    ys = [np.where(X[:, 0] >= 0, 1.0, -1.0) for X in Xs]
    W0s = [net.init(D, scale=0.5, rng=rng, batch=PER) for net in NETS]
    return Xs, ys, W0s


def _filed(store):
    return lambda u: store.append((np.array(u.W), np.array(u.g), np.array(u.loss_before),
                                   np.array(u.index)))


def test_per_run_nets_steps_and_eps0_equal_each_net_alone():
    Xs, ys, W0s = _problem()
    alone, alone_epochs = [], []
    for c, (net, X, y, W0) in enumerate(zip(NETS, Xs, ys, W0s)):
        alone_epochs.append([])
        alone.append(lt.sgd(net, W0, (X, y), eta=ETAS[c], n_epochs=5, eps0=EPS0[c],
                            rng=np.random.default_rng(c), on_epoch=_filed(alone_epochs[c])))
    X = np.concatenate([np.broadcast_to(X, (PER, N, D)) for X in Xs])
    y = np.concatenate([np.broadcast_to(y, (PER, N)) for y in ys])
    gens = [g for c in range(len(NETS)) for g in np.random.default_rng(c).spawn(PER)]
    epochs = []
    batch = lt.sgd([net for net in NETS for _ in range(PER)], np.concatenate(W0s), (X, y),
                   eta=np.repeat(ETAS, PER), n_epochs=5, eps0=np.repeat(EPS0, PER), rng=gens,
                   on_epoch=_filed(epochs))
    for c, run in enumerate(alone):
        part = slice(c * PER, (c + 1) * PER)
        assert np.array_equal(run.W, batch.W[part])
        for key in ("mistakes", "loss", "max_loss", "min_margin"):
            assert np.array_equal(run.trace[key], batch.trace[key][:, part]), key
        assert run.trace["mistakes"][1:].sum() > 0  # the ε0 of each run was in play
        for mine, theirs in zip(alone_epochs[c], epochs):
            for a, b in zip(mine, theirs):
                assert np.array_equal(a, b[part])


def test_per_run_kernel_is_fused_per_span():
    Xs, ys, W0s = _problem(1)
    nets = [net for net in NETS for _ in range(PER)]
    kernel = PerRun(nets)
    assert not kernel.a.flags.writeable  # shared by every update: a write would be silent
    W, X = np.concatenate(W0s), np.concatenate([np.broadcast_to(X, (PER, N, D)) for X in Xs])
    coef = np.random.default_rng(2).standard_normal((len(nets), N))
    N_all, pre = kernel.forward(W, X)
    G_all = kernel.backward(pre, X, coef)
    for c, net in enumerate(NETS):
        part = slice(c * PER, (c + 1) * PER)
        N_one, pre_one = Fused(net).forward(W[part], X[part])
        assert np.array_equal(N_all[part], N_one)
        assert np.array_equal(G_all[part], Fused(net).backward(pre_one, X[part], coef[part]))
    # the per-run SGD update: the bits of each net's own Fused update
    x = X[:, 3, :, None]
    ex = (0.4 * np.ones(len(nets)))[:, None, None] * np.swapaxes(x, -1, -2)
    Wb = W.copy()
    q, g = kernel.sgd_update(Wb, x, np.ones(len(nets)), ex, eta=0.4)
    for c, net in enumerate(NETS):
        part = slice(c * PER, (c + 1) * PER)
        Wc = W[part].copy()
        qc, gc = Fused(net).sgd_update(Wc, x[part], np.ones(PER), ex[part], eta=0.4)
        assert np.array_equal(Wb[part], Wc) and np.array_equal(q[part], qc)
        assert np.array_equal(g[part], gc)


def test_one_net_in_a_sequence_is_the_net_itself():
    Xs, ys, W0s = _problem(3)
    a = lt.sgd(NETS[0], W0s[0][0], (Xs[0], ys[0]), eta=0.2, n_epochs=3, rng=5)
    b = lt.sgd([NETS[0]], W0s[0][0], (Xs[0], ys[0]), eta=np.array(0.2), n_epochs=3, rng=5)
    assert np.array_equal(a.W, b.W)


@pytest.mark.parametrize("kw, match", [
    (dict(net=[NETS[0], lt.Net(k=2)]), "share one width"),
    (dict(net=[NETS[0]] * 3), "one Net or 2 Nets"),
    (dict(net=[]), "non-empty list or tuple"),
    (dict(net=[NETS[0], "net"]), "non-empty list or tuple"),
    (dict(eta=np.array([0.1, 0.2, 0.3])), r"run axes' shape \(2,\)"),
    (dict(eta=np.array([0.1, -0.2])), r"`eta\[1\]` must be > 0"),
    (dict(eta=np.array([0.1, np.nan])), r"`eta\[1\]` must be finite"),
    (dict(eps0=np.array([True, False])), r"`eps0\[0\]` must be a real number"),
    (dict(eps0=[[1.0, 2.0], [3.0]]), "`eps0` must be a number or an array .* ragged list"),
    (dict(net=[NETS[0]] * 2, grad=np.negative), "`grad`"),
])
def test_per_run_arguments_are_checked(kw, match):
    Xs, ys, W0s = _problem(4)
    args = dict(net=NETS[0], eta=0.1, eps0=None, grad=None) | kw
    with pytest.raises((ValueError, TypeError), match=match):
        lt.sgd(args.pop("net"), W0s[0], (Xs[0], ys[0]), n_epochs=1, rng=0, **args)


def test_per_run_kernel_rechecks_underflowed_pre_activations_at_their_length():
    """A w·x summed over d = 100 underflowed products (``tests/test_mutation_kills_kernels``):
    the computed z is negative, the true one positive.  PerRun must flag it as Fused does,
    by d (not by 2k), and rescue the mask, so backward gives the neuron its slope 1."""
    d = 100
    w = np.full(d, 2.0 ** -538)
    w[0] = -16 * 2.0 ** -536
    W = np.stack([np.stack([w, np.ones(d)])] * 2)  # two runs, k = 1; u·x is a normal number
    X = np.full((2, 1, d), 2.0 ** -538)
    nets = [lt.Net(k=1, alpha=0.2), lt.Net(k=1, alpha=0.6)]
    kernel = PerRun(nets)
    N, pre = kernel.forward(W, X)
    G = kernel.backward(pre, X, np.ones((2, 1)))
    for r, net in enumerate(nets):
        N_r, pre_r = Fused(net).forward(W[r:r + 1], X[r:r + 1])
        assert np.array_equal(N[r:r + 1], N_r)
        G_r = Fused(net).backward(pre_r, X[r:r + 1], np.ones((1, 1)))
        assert np.array_equal(G[r:r + 1], G_r)
        assert np.array_equal(G_r[0, 0], net.v * X[r, 0])  # active: slope 1, not α


@pytest.mark.parametrize("pattern", [(0,), (0, 0, 0), (0, 1, 0), (1, 1, 0, 0)])
def test_per_run_spans_cover_every_run(pattern):
    """Runs of one net in any order (one run; one net throughout; a net again after another): the
    spans cover every run, so backward returns every run's gradient."""
    Xs, ys, W0s = _problem(5)
    nets = [NETS[i] for i in pattern]
    W = np.concatenate(W0s)[:len(nets)]
    X = np.concatenate([np.broadcast_to(X, (PER, N, D)) for X in Xs])[:len(nets)]
    coef = np.random.default_rng(6).standard_normal((len(nets), N))
    kernel = PerRun(nets)
    G = kernel.backward(kernel.forward(W, X)[1], X, coef)
    assert G.shape == W.shape
    for r, net in enumerate(nets):
        pre = Fused(net).forward(W[r:r + 1], X[r:r + 1])[1]
        assert np.array_equal(G[r:r + 1], Fused(net).backward(pre, X[r:r + 1], coef[r:r + 1]))


@pytest.mark.parametrize("broken", ["update", "forward"])
def test_a_broken_per_run_kernel_is_caught_by_the_sgd_audit(monkeypatch, broken):
    """thm4.1's engine audit trains each audited case beside another configuration of its
    shape (one net per run): a per-run update or forward that drifts from Fused fails it."""
    import linteach._per_run as per_run
    from proofs_check.kit import audit, sgd_configs
    from test_audit_planted import SGD_CASE, _failing

    if broken == "update":
        real = per_run.PerRun.__init__

        def init(self, nets):
            real(self, nets)
            self.a_col = self.a_col * (1.0 + 1e-9)  # a_j σ'(z) one part in 10⁹ off
        monkeypatch.setattr(per_run.PerRun, "__init__", init)
    else:
        real = per_run.PerRun.forward
        monkeypatch.setattr(per_run.PerRun, "forward", lambda self, W, X, out=None: (
            lambda N, Z: (N * (1.0 + 1e-9), Z))(*real(self, W, X, out)))
    failing = _failing(audit.audit_subject(sgd_configs.audit_subject(SGD_CASE)))
    per_run_quantities = {q for q in failing if "one net per run" in q or "one ε0 per" in q}
    assert per_run_quantities, failing
    assert not any(q.startswith("SGD trajectory") for q in failing)  # the shared path is fine


@pytest.mark.parametrize("falsify", ["data", "W0", "R_0", "gamma", "d"])
def test_a_check_that_trained_another_object_is_caught_by_the_sgd_audit(falsify):
    """thm4.1's audit compares what the check trained and reported with its rebuild of the
    case: a different data set or init (their digests), a wrong R_0, γ or d each fail it,
    and the check's own report passes."""
    from proofs_check.kit import sgd_configs
    from proofs_check.kit.audit_train import trained_findings
    from test_audit_planted import SGD_CASE, _failing

    spec = sgd_configs.FAMILIES[SGD_CASE.family]
    res = sgd_configs.run_sgd_case({"case": SGD_CASE, "spec": spec, "epoch_scale": 0.01})
    subject = sgd_configs.audit_subject(SGD_CASE)
    honest = trained_findings(subject, sgd_configs.trained_report(res)["trained"])
    assert not _failing(honest)
    trained = dict(sgd_configs.trained_report(res)["trained"])
    if falsify in ("data", "W0"):
        trained[falsify] = "0" * len(trained[falsify])
    elif falsify == "R_0":
        trained["R_0"] = trained["R_0"] * (1.0 + 1e-12)
    elif falsify == "gamma":
        trained["gamma"] = np.nextafter(trained["gamma"], 1.0) * (1.0 + 1e-12)
    else:
        trained["d"] = trained["d"] + 1
    assert _failing(trained_findings(subject, trained))
