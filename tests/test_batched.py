"""Batched training equals the same runs done one by one, bit for bit.

Each run of a batch does exactly the floating-point operations it would do alone (the
engine never forms a product across runs), so the comparison is exact: a replayed case
reproduces its batched run to the last bit.  Exactness matters beyond tidiness: the
loss-normalised flow amplifies a one-ulp difference to ~1e-3 within a few hundred steps
(kink crossings), so a tolerance would not bound long runs.
"""
import numpy as np
import pytest

import linteach as lt

R = 4


def _problem(rng, *, stacked, n=12, d=3, k=3, alpha=0.3, batch=(R,)):
    rng = np.random.default_rng(rng)
    net = lt.Net(k=k, alpha=alpha)
    size = int(np.prod(batch))
    if stacked:
        data = lt.stack([lt.make_separable(n, d, margin=0.1, rng=r) for r in rng.spawn(size)])
        data = lt.Dataset(data.X.reshape(batch + (n, d)), data.y.reshape(batch + (n,)))
    else:
        data = lt.make_separable(n, d, margin=0.1, rng=rng)
    return net, net.init(d, scale=0.3, rng=rng, batch=batch), data


def _run_data(data, index):
    """Run ``index``'s own dataset (the shared one, or its slice of the stack)."""
    if data.X.ndim == 2:
        return data
    return data.X[index], data.y[index]


def _assert_runs_equal(batched, alone, index):
    np.testing.assert_array_equal(batched.direction[index], alone.direction)
    np.testing.assert_array_equal(batched.log_norm[index], alone.log_norm)
    np.testing.assert_array_equal(batched.W[index], alone.W)
    if alone.log_time is not None:
        np.testing.assert_array_equal(batched.log_time[index], alone.log_time)
    assert set(batched.trace.keys()) == set(alone.trace.keys())
    for key in alone.trace.keys():
        column = batched.trace[key]
        got = column if column.ndim == 1 else column[(slice(None),) + index]
        np.testing.assert_array_equal(got, alone.trace[key], err_msg=key)


@pytest.mark.parametrize("stacked", [False, True], ids=["shared", "stacked"])
@pytest.mark.parametrize("draw", [0, 1])  # two independent draws: the seed follows the node id
def test_sgd_batched_equals_looped_with_per_run_permutations(draw, stacked, rng_seed):
    net, W0, data = _problem(rng_seed, stacked=stacked)
    batched = lt.sgd(net, W0, data, eta=0.3, n_epochs=4, rng=np.random.default_rng(rng_seed),
                     eps0=0.1)
    children = np.random.default_rng(rng_seed).spawn(R)  # what the batched call spawned
    for r in range(R):
        alone = lt.sgd(net, W0[r], _run_data(data, (r,)), eta=0.3, n_epochs=4,
                       rng=children[r], eps0=0.1)
        _assert_runs_equal(batched, alone, (r,))
    # the runs really did see different orders (the permutations are per run)
    assert len({tuple(W.ravel()) for W in batched.W}) == R


def test_sgd_batched_equals_looped_for_nets_large_enough_for_update_buffers(rng_seed):
    """Past ``_SGD_BUFFER_FROM`` weights the update goes through a reused buffer (einsum for
    a batch, ``out=`` for one run): still the same bits."""
    net, W0, data = _problem(rng_seed, stacked=False, n=6, d=60, k=40, batch=(2,))
    assert W0[0].size >= 4096
    batched = lt.sgd(net, W0, data, eta=0.2, n_epochs=2, rng=np.random.default_rng(rng_seed))
    children = np.random.default_rng(rng_seed).spawn(2)
    for r in range(2):
        alone = lt.sgd(net, W0[r], data, eta=0.2, n_epochs=2, rng=children[r])
        _assert_runs_equal(batched, alone, (r,))


def test_sgd_two_run_axes_follow_c_order_of_spawned_generators(rng_seed):
    net, W0, data = _problem(rng_seed, stacked=True, batch=(2, 3))
    batched = lt.sgd(net, W0, data, eta=0.2, n_epochs=3, rng=np.random.default_rng(rng_seed))
    children = np.random.default_rng(rng_seed).spawn(6)
    for flat, index in enumerate(np.ndindex(2, 3)):
        alone = lt.sgd(net, W0[index], _run_data(data, index), eta=0.2, n_epochs=3,
                       rng=children[flat])
        _assert_runs_equal(batched, alone, index)


def test_sgd_callback_sees_every_run_at_every_update(rng):
    net, W0, data = _problem(rng, stacked=False)
    seen = []
    lt.sgd(net, W0, data, eta=0.2, n_epochs=2, rng=rng,
           callback=lambda t, W, info: seen.append((t, W.copy(), info)))
    assert [t for t, _, _ in seen] == list(range(1, 2 * data.n + 1))
    t, W, info = seen[-1]
    assert W.shape == W0.shape and info["g"].shape == (R,) and info["index"].shape == (R,)
    assert np.all((info["g"] > 0) & (info["g"] < 1))


FULL_BATCH = {
    "gd": lambda net, W, data, **kw: lt.gd(net, W, data, eta=0.4, n_steps=400, **kw),
    "flow": lambda net, W, data, **kw: lt.gradient_flow(net, W, data, dt=0.2, n_steps=400, **kw),
    "flow-normalized": lambda net, W, data, **kw: lt.gradient_flow(
        net, W, data, dt=0.05, n_steps=600, normalized=True, **kw),
}


@pytest.mark.parametrize("stacked", [False, True], ids=["shared", "stacked"])
@pytest.mark.parametrize("trainer", sorted(FULL_BATCH))
def test_full_batch_batched_equals_looped(trainer, stacked, rng):
    net, W0, data = _problem(rng, stacked=stacked, n=20)
    train = FULL_BATCH[trainer]
    batched = train(net, W0, data)
    for r in range(R):
        _assert_runs_equal(batched, train(net, W0[r], _run_data(data, (r,))), (r,))


@pytest.mark.parametrize("stacked", [False, True], ids=["shared", "stacked"])
@pytest.mark.parametrize("trainer", ["gd", "flow"])
def test_a_step_per_run_equals_each_run_alone_with_its_step(trainer, stacked, rng):
    """``eta``/``dt`` of the run axes' shape: run r steps with entry r, as it would alone."""
    net, W0, data = _problem(rng, stacked=stacked, n=20, batch=(2, 2))
    steps = np.array([[0.05, 0.4], [1.0, 3.0]])
    train = {"gd": lambda W, d, h: lt.gd(net, W, d, eta=h, n_steps=300),
             "flow": lambda W, d, h: lt.gradient_flow(net, W, d, dt=h, n_steps=300)}[trainer]
    batched = train(W0, data, steps)
    for index in np.ndindex(2, 2):
        _assert_runs_equal(batched, train(W0[index], _run_data(data, index), steps[index]), index)
    assert len(set(batched.log_norm.ravel().tolist())) == 4  # the steps made four runs


def test_a_step_per_run_is_checked_and_the_normalized_flow_takes_one():
    net, W0, data = _problem(0, stacked=False)
    with pytest.raises(ValueError, match=r"`dt\[2\]` must be > 0"):
        lt.gradient_flow(net, W0, data, dt=np.array([0.1, 0.1, 0.0, 0.1]), n_steps=3)
    with pytest.raises(ValueError, match=r"`eta` must be a number or an array of the run "
                                         r"axes' shape \(4,\), got shape \(3,\)"):
        lt.gd(net, W0, data, eta=np.ones(3), n_steps=3)
    with pytest.raises(TypeError, match="`dt` must be one number with normalized=True"):
        lt.gradient_flow(net, W0, data, dt=np.full(4, 0.01), n_steps=3, normalized=True)
    ragged = [[0.1], [0.1, 0.2]]
    with pytest.raises(TypeError, match="with normalized=True .* got a ragged sequence"):
        lt.gradient_flow(net, W0, data, dt=ragged, n_steps=3, normalized=True)
    with pytest.raises(ValueError, match="`dt` must be a number or an array of the run axes' "
                                         "shape .*, got a ragged list"):
        lt.gradient_flow(net, W0, data, dt=ragged, n_steps=3)


@pytest.mark.parametrize("trainer", sorted(FULL_BATCH))
def test_one_start_broadcast_over_stacked_datasets(trainer, rng):
    net, W0, data = _problem(rng, stacked=True, alpha=0.0)  # ReLU takes the same engine
    train = FULL_BATCH[trainer]
    batched = train(net, W0[0], data)
    assert batched.direction.shape == W0.shape
    for r in range(R):
        _assert_runs_equal(batched, train(net, W0[0], _run_data(data, (r,))), (r,))


@pytest.mark.parametrize("stacked", [False, True], ids=["shared", "stacked"])
def test_batched_trainers_never_mutate_their_inputs(stacked, rng):
    net, W0, data = _problem(rng, stacked=stacked)
    X, y = np.array(data.X), np.array(data.y)
    X.flags.writeable = y.flags.writeable = False  # a write would raise, not just differ
    W0_copy = W0.copy()
    W0.flags.writeable = False
    lt.sgd(net, W0, (X, y), eta=0.2, n_epochs=2, rng=rng)
    for train in FULL_BATCH.values():
        train(net, W0, (X, y))
    np.testing.assert_array_equal(W0, W0_copy)
    np.testing.assert_array_equal(X, data.X)
    np.testing.assert_array_equal(y, data.y)


def _flip_u(G):
    H = G.copy()
    H[..., H.shape[-2] // 2:, :] *= -1.0
    return H


@pytest.mark.parametrize("stacked", [False, True], ids=["shared", "stacked"])
def test_controlled_trainers_batched_equal_looped(stacked, rng_seed):
    """A negative control (``grad=``) keeps the batch contract: proofs_check's corrupted-SGD
    control trains its runs as one batch and must replay them one by one."""
    net, W0, data = _problem(rng_seed, stacked=stacked)
    batched = lt.sgd(net, W0, data, eta=0.3, n_epochs=2, rng=np.random.default_rng(rng_seed),
                     grad=_flip_u)
    children = np.random.default_rng(rng_seed).spawn(R)
    for r in range(R):
        _assert_runs_equal(batched, lt.sgd(net, W0[r], _run_data(data, (r,)), eta=0.3,
                                           n_epochs=2, rng=children[r], grad=_flip_u), (r,))
    for train in (lambda *a, **kw: lt.gd(*a, eta=0.4, n_steps=40, **kw),
                  lambda *a, **kw: lt.gradient_flow(*a, dt=0.05, n_steps=40, normalized=True,
                                                    **kw)):  # the per-call checks are slow
        batched = train(net, W0, data, grad=_flip_u)
        for r in range(R):
            _assert_runs_equal(batched, train(net, W0[r], _run_data(data, (r,)), grad=_flip_u),
                               (r,))


def test_data_layout_does_not_change_a_bit():
    """The same stacked data in any memory layout (C order, a concatenation of broadcasts,
    whose run axis is innermost, Fortran order) give every trainer the same bits: the
    layout would decide which loop forms X Wᵀ."""
    rng = np.random.default_rng(7)
    net = lt.Net(k=3, alpha=0.3)
    sets = [lt.make_symmetric_gaussians(14, 3, rng=r) for r in rng.spawn(3)]
    X_c = np.concatenate([np.repeat(s.X[None], 2, axis=0) for s in sets])
    y = np.concatenate([np.repeat(s.y[None], 2, axis=0) for s in sets])
    layouts = {"C": X_c,
               "concatenated broadcasts": np.concatenate(
                   [np.broadcast_to(s.X, (2,) + s.X.shape) for s in sets]),
               "Fortran": np.asfortranarray(X_c)}
    assert not layouts["concatenated broadcasts"].flags.c_contiguous
    W0 = net.init(3, scale=0.5, rng=rng, batch=6)
    runs = {name: (lt.sgd(net, W0, (X, y), eta=0.2, n_epochs=3, rng=[
                       np.random.default_rng(i) for i in range(6)]),
                   lt.gd(net, W0, (X, y), eta=0.2, n_steps=30),
                   lt.gradient_flow(net, W0, (X, y), dt=0.01, n_steps=30, normalized=True))
            for name, X in layouts.items()}
    for name, got in runs.items():
        for run, ref in zip(got, runs["C"]):
            np.testing.assert_array_equal(run.W, ref.W, err_msg=name)
            for key in ref.trace.keys():
                np.testing.assert_array_equal(run.trace[key], ref.trace[key],
                                              err_msg=f"{name} {key}")
