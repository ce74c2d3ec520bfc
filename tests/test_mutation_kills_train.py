"""Tests written ahead of the population pass over the mutation target train-wrappers
(``sgd``, ``gd``, ``gradient_flow`` and their shared Euler driver, docs/math.md §3–§5):
every argument rule by name and value, the boundaries they allow, and SGD's error naming
the step when its weights leave float64 (the full-batch trainers carry the norm in logs)."""
import re

import numpy as np
import pytest

import linteach as lt

NET = lt.Net(k=1, alpha=0.3)
X = np.array([[1.0, 0.2], [-0.5, -1.0], [0.3, 1.0]])
Y = np.array([1.0, -1.0, 1.0])
W0 = np.array([[0.3, -0.1], [-0.2, 0.4]])


@pytest.mark.parametrize("kwargs, exc, message", [
    (dict(eta=0.0), ValueError, "`eta` must be > 0"),
    (dict(eta=-1.0), ValueError, "`eta` must be > 0"),
    (dict(n_epochs=-1), ValueError, "`n_epochs` must be >= 0"),
    (dict(eps0=0.0), ValueError, "`eps0` must be > 0"),
    (dict(on_epoch=3), TypeError, "`on_epoch` must be callable or None, got int"),
    (dict(callback=3), TypeError, "`callback`")])
def test_sgd_refuses_bad_arguments_by_name(kwargs, exc, message):
    args = dict(eta=0.1, n_epochs=1, rng=0)
    args.update(kwargs)
    with pytest.raises(exc, match=re.escape(message)):
        lt.sgd(NET, W0, (X, Y), **args)


def test_sgd_accepts_zero_epochs_and_a_positive_eps0():
    """n_epochs = 0 returns W0 (rebuilt from its direction and norm: to the last bits; trace
    entry 0 only); eps0 > 0 counts mistakes (0 at the start)."""
    run = lt.sgd(NET, W0, (X, Y), eta=0.1, n_epochs=0, rng=0, eps0=0.5)
    np.testing.assert_allclose(run.W, W0, rtol=1e-15)
    assert list(run.trace["mistakes"]) == [0]


def test_sgd_names_eta_when_the_weights_overflow():
    with pytest.raises(ValueError, match=re.escape("SGD diverged: the weights overflow float64 "
                                                   "(`eta` = 1e+308")):
        lt.sgd(NET, W0 * 1e10, (X * 1e10, Y), eta=1e308, n_epochs=2, rng=0)


@pytest.mark.parametrize("trainer, kwargs, message", [
    (lt.gd, dict(eta=0.0, n_steps=1), "`eta` must be > 0"),
    (lt.gd, dict(eta=0.1, n_steps=-1), "`n_steps` must be >= 0"),
    (lt.gradient_flow, dict(dt=0.0, n_steps=1), "`dt` must be > 0"),
    (lt.gradient_flow, dict(dt=0.1, n_steps=-1), "`n_steps` must be >= 0"),
    (lt.gradient_flow, dict(dt=0.6, n_steps=1, normalized=True), "`dt` must be <= 0.5"),
    (lt.gradient_flow, dict(dt=0.0, n_steps=1, normalized=True), "`dt` must be > 0"),
    (lt.gradient_flow, dict(dt=0.1, n_steps=-1, normalized=True), "`n_steps` must be >= 0")])
def test_the_full_batch_trainers_refuse_bad_steps_by_name(trainer, kwargs, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        trainer(NET, W0, (X, Y), **kwargs)


def test_the_plain_flow_takes_any_positive_dt_and_the_normalized_one_up_to_a_half():
    """dt = 0.6 is an Euler step of the plain flow; the normalized flow allows dt = 0.5."""
    lt.gradient_flow(NET, W0, (X, Y), dt=0.6, n_steps=1)
    lt.gradient_flow(NET, W0, (X, Y), dt=0.5, n_steps=1, normalized=True)


def test_gd_is_gradient_flow_with_the_same_step_bit_for_bit():
    """Both are W ← W − step·∇L by one Euler driver."""
    a = lt.gd(NET, W0, (X, Y), eta=0.2, n_steps=7, record="all")
    b = lt.gradient_flow(NET, W0, (X, Y), dt=0.2, n_steps=7, record="all")
    np.testing.assert_array_equal(a.W, b.W)
    W = W0.copy()
    for _ in range(7):
        W = W - 0.2 * NET.loss_and_grad(W, X, Y)[1]
    np.testing.assert_allclose(a.W, W, rtol=1e-14)


def test_the_normalized_flow_needs_a_nonzero_w0():
    with pytest.raises(ValueError, match=re.escape("`W0` must be nonzero for normalized=True")):
        lt.gradient_flow(NET, np.zeros((2, 2)), (X, Y), dt=0.1, n_steps=1, normalized=True)


@pytest.mark.parametrize("call", [
    lambda: lt.sgd(NET, W0, (X, Y), 0.1, 1, 0),
    lambda: lt.gd(NET, W0, (X, Y), 0.1, 1),
    lambda: lt.gradient_flow(NET, W0, (X, Y), 0.1, 1)])
def test_the_trainers_take_their_steps_by_keyword_only(call):
    """eta, dt, n_epochs, n_steps and rng are keyword-only: a positional 0.1 cannot be read
    as the wrong one."""
    with pytest.raises(TypeError):
        call()
