"""``lt.sgd`` with one net, step and ε0 per run: each run equals its own net's run, bit for bit.

Configurations of one shape (n, d, k) but their own ``α``, ``v`` and ``η`` train as one
batch (``proofs_check.kit.sgd_configs``).  What an audit or a check reads of a run (its
iterates, the filed epochs' ``g`` and losses, the ε0-mistakes, the final ``W``) must not
depend on the batch it ran in.
"""
import numpy as np
import pytest

import linteach as lt
from linteach._kernels import Fused, PerRun

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
    (dict(net=[]), "non-empty sequence"),
    (dict(net=[NETS[0], "net"]), "non-empty sequence"),
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
