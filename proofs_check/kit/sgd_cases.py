"""The SGD audit engine behind the Theorem 4.1 checks (``thm4.1``, and ``appK`` on lifted data).

One *configuration* (a dataset, a net, a step, a list of targets ε, and R initialisations)
is trained as one batch of R runs with :func:`linteach.sgd`; a :class:`Monitor` receives
every update (each epoch's updates filed by sgd itself, ``on_epoch``) and keeps, per run,
everything the theorem's clauses need.  Nothing here records into a ``Context``: results
are plain dicts, so batches can run in worker processes (``ctx.map``).  Configurations of
one shape train together (:func:`train_configurations`), each with its own monitor.

Per run and per target ε (``E`` targets), with ``ε0 = ε/(1 + 2v²R_x²ηkn)``:

* the proof's per-step invariants, as normalised slacks (≥ 0 holds), minimised over steps:
  ``F`` gain ``≥ 2kηvα·g_t`` and ``G²`` gain ``≤ 2η + 2kη²v²R_x²`` (docs/math.md §3);
* the number of leading ε0-mistake epochs (censored when no mistake-free epoch came);
* the largest per-example loss over the iterates of the first mistake-free epoch (its start
  iterate and the iterate after each of its n updates);
* the first update ``t`` with mean loss ``L(W_t) ≤ ε``.
"""
from __future__ import annotations

import numpy as np

import linteach as lt
from linteach import loss as _loss
from linteach.bounds import teacher_weights
from linteach.train import EpochUpdates

from .items import repeat_per_run

#: floats of the pre-activations (runs, n + 1, n, 2k) of one pass over an epoch's iterates
ITERATE_BLOCK = 1 << 22
#: float64 unit roundoff; rounding allowances below are multiples of it
_U = np.finfo(np.float64).eps / 2
#: safety factor on the first-order rounding bounds of the invariant audit
_ROUND_FACTOR = 8.0
#: the SVM teacher is scaled up by this so rounding cannot leave a point at y⟨w*,x⟩ < 1
TEACHER_PAD = 1e-12


def theorem_teacher(X, y) -> np.ndarray:
    """The tightest teacher ``w* = argmin ‖w‖ s.t. y_i⟨w, x_i⟩ ≥ 1``, rescaled so it holds in floats.

    Raises :class:`linteach.NotSeparableError` on non-separable data.
    """
    w = lt.max_margin_teacher(X, y)
    low = float(np.min(y * (X @ w)))
    w = w / min(low, 1.0) * (1.0 + TEACHER_PAD)
    if not np.min(y * (X @ w)) >= 1.0:
        raise AssertionError("teacher rescaling failed to certify y<w*, x> >= 1")
    return w


def flip_u_update(G: np.ndarray) -> np.ndarray:
    """Negative control, passed to ``lt.sgd(..., grad=flip_u_update)``: the u rows' gradient
    negated, so the update is ``u ← u + η v g σ'(u·x) y x`` (a corrupted Eq. 3) while the w
    rows and the forward pass stay true."""
    k = G.shape[-2] // 2
    flipped = G.copy()
    flipped[..., k:, :] *= -1.0
    return flipped


class Monitor:
    """sgd callback auditing R runs at once against E targets ε (see module docstring).

    Per update it only files ``W_t``, ``g_t`` and the example's loss before the update in
    an epoch buffer; at each epoch's end the clauses are evaluated for the whole epoch in a
    few array operations (the per-iterate losses on all n points only when a clause needs
    them: while some target is unmet, and in a first mistake-free epoch).
    """

    def __init__(self, net, X, y, w_star, eps, *, eta, W0):
        self.net, self.X, self.y, self.eta = net, X, y, eta
        self.n = X.shape[0]
        self.eps = np.asarray(eps, dtype=np.float64)                       # (E,)
        self.R_x = float(np.linalg.norm(X, axis=1).max())
        A = 1.0 + 2.0 * net.v**2 * self.R_x**2 * eta * net.k * self.n
        self.eps0 = self.eps / A                                           # (E,)
        self.Wstar = teacher_weights(w_star, net.k)                        # (2k, d)
        W0 = np.asarray(W0, dtype=np.float64)
        R, E = W0.shape[0], len(self.eps)
        self.buf = np.empty((R, self.n + 1) + W0.shape[1:])                # iterates of an epoch
        self.buf[:, 0] = W0
        self.g = np.empty((R, self.n))
        self.loss_before = np.empty((R, self.n))
        self.F_gain = 2.0 * net.k * eta * net.v * net.alpha                # × g_t
        self.G2_cap = 2.0 * eta + 2.0 * net.k * eta**2 * net.v**2 * self.R_x**2
        self.m = W0.shape[-2] * W0.shape[-1]
        self.t = 0
        self.F_slack = np.full(R, np.inf)
        self.G_slack = np.full(R, np.inf)
        self.F_worst_t = np.zeros(R, dtype=np.int64)
        self.G_worst_t = np.zeros(R, dtype=np.int64)
        self.lead_epochs = np.zeros((R, E), dtype=np.int64)               # leading mistake epochs
        self.free_found = np.zeros((R, E), dtype=bool)
        self.free_max_loss = np.full((R, E), np.nan)
        self.t_eps = np.full((R, E), -1, dtype=np.int64)
        self.mistakes_log = []                                             # per epoch, (R, E)
        self.min_g = np.full(R, np.inf)

    @property
    def done(self) -> bool:
        """Every run has met every target ε and finished its first mistake-free epoch."""
        return bool(self.free_found.all() and (self.t_eps >= 0).all())

    def __call__(self, t, W, info):
        i = self.t % self.n
        self.t += 1
        self.buf[:, i + 1] = W
        self.g[:, i] = np.asarray(info["g"]).reshape(-1)
        self.loss_before[:, i] = np.asarray(info["loss_before"]).reshape(-1)
        if i == self.n - 1:
            self._end_epoch()

    def epoch(self, updates):
        """``lt.sgd(..., on_epoch=monitor.epoch)``: a whole epoch filed by the trainer (no
        Python call per update), the same numbers as calling the monitor after each update.
        The epoch's start stays the monitor's own (the last iterate it filed), as with the
        callback: a later ``lt.sgd`` call starts from ``Run.W``, rebuilt from direction and
        norm, which may differ from that iterate in the last bit."""
        self.buf[:, 1:] = updates.W[:, 1:]
        self.g[:] = updates.g
        self.loss_before[:] = updates.loss_before
        self.t += self.n
        self._end_epoch()

    def _invariants(self):
        """Normalised slacks of the F and G² invariants at every update of the epoch."""
        before, after = self.buf[:, :-1], self.buf[:, 1:]                  # (R, n, 2k, d)
        dW = after - before
        absWs = np.abs(self.Wstar)
        # F: realised gain <ΔW, W*> vs 2kηvα g_t; the allowance covers the rounding of
        # W_t + δ to W_{t+1} and of the dot products (first-order, times a safety factor)
        F_bound = self.F_gain * self.g
        gain_F = np.einsum("rtij,ij->rt", dW, self.Wstar)
        tol_F = _ROUND_FACTOR * _U * (
            np.einsum("rtij,ij->rt", np.abs(after) + np.abs(before), absWs)
            + self.m * np.einsum("rtij,ij->rt", np.abs(dW), absWs))
        s_F = (gain_F - F_bound + tol_F) / (F_bound + tol_F)
        # G²: ‖W_{t+1}‖² − ‖W_t‖² = <W_{t+1} + W_t, ΔW> vs 2η + 2kη²v²R_x²
        gain_G = np.einsum("rtij,rtij->rt", after + before, dW)
        tol_G = _ROUND_FACTOR * _U * self.m * (np.einsum("rtij,rtij->rt", after, after)
                                               + np.einsum("rtij,rtij->rt", before, before))
        s_G = (self.G2_cap - gain_G + tol_G) / self.G2_cap
        first_t = self.t - self.n + 1
        for s, slack, worst_t in ((s_F, self.F_slack, self.F_worst_t),
                                  (s_G, self.G_slack, self.G_worst_t)):
            j = s.argmin(axis=1)
            low = s[np.arange(len(j)), j]
            worse = low < slack
            slack[worse], worst_t[worse] = low[worse], first_t + j[worse]
        self.min_g = np.minimum(self.min_g, self.g.min(axis=1))

    def _iterate_losses(self):
        """Largest and mean per-example loss at each of the epoch's n + 1 iterates, (R, n+1)."""
        out = np.empty((2,) + self.buf.shape[:2])
        R, iterates, width = self.buf.shape[0], self.buf.shape[1], self.buf.shape[2]
        # as many runs at a time as keep (runs, n + 1, n, 2k) under ITERATE_BLOCK floats
        step = max(1, ITERATE_BLOCK // (iterates * self.X.shape[0] * width))
        for lo in range(0, R, step):  # each (run, iterate) its own product: the same bits
            ell = _loss.ell(self.y * self.net.forward(self.buf[lo:lo + step], self.X))
            out[0, lo:lo + step], out[1, lo:lo + step] = ell.max(axis=-1), ell.mean(axis=-1)
        return out

    def _end_epoch(self):
        self._invariants()
        mistakes = (self.loss_before[:, :, None] >= self.eps0).sum(axis=1)  # (R, E)
        self.mistakes_log.append(mistakes)
        still_leading = ~self.free_found
        self.lead_epochs += still_leading & (mistakes > 0)
        first_free = still_leading & (mistakes == 0)
        if first_free.any() or (self.t_eps < 0).any():
            max_loss, mean_loss = self._iterate_losses()
            epoch_max = np.broadcast_to(max_loss.max(axis=1)[:, None], first_free.shape)
            self.free_max_loss[first_free] = epoch_max[first_free]
            reached = mean_loss[:, :, None] <= self.eps                    # (R, n+1, E)
            hit = reached.any(axis=1) & (self.t_eps < 0)
            first = np.argmax(reached, axis=1) + self.t - self.n           # iterate 0 = t - n
            self.t_eps[hit] = first[hit]
        self.free_found |= first_free
        self.buf[:, 0] = self.buf[:, -1]


def train_configuration(net, X, y, w_star, W0, *, eta, eps, max_epochs, rng, until="all",
                        chunk=4, grad=None):
    """Train R runs (``W0 (R, 2k, d)``) on one dataset under a :class:`Monitor`.

    Stops at ``max_epochs``, or earlier once every run met every target ε (``until=
    "targets"``) and also finished its first mistake-free epoch (``until="all"``).  Returns
    ``(monitor, W_final, epochs)``.  The library's own ε0-mistake count for the first target
    is cross-checked against the monitor's, epoch by epoch.  ``grad`` is passed to
    ``lt.sgd`` (a negative control such as :func:`flip_u_update`).
    """
    job = dict(net=net, X=X, y=y, w_star=w_star, W0=W0, eta=eta, eps=eps, rng=rng)
    return train_configurations([job], max_epochs=max_epochs, until=until, chunk=chunk,
                                grad=grad)[0]


def train_configurations(jobs, *, max_epochs, until="all", chunk=4, grad=None):
    """:func:`train_configuration` for several configurations of one shape (n, d, k) at once.

    ``jobs[c]`` holds ``net, X, y, w_star, W0 (R_c, 2k, d), eta, eps, rng``.  Their runs
    train as one ``lt.sgd`` batch (per-run nets, steps and ε0), ``chunk`` epochs per call;
    a configuration leaves the batch at the first chunk's end at which it is finished, as it
    would alone.  Each run's bits do not depend on its batch-mates: the update is formed
    per run, each configuration draws its visiting orders from its own ``rng`` (one
    ``spawn`` child per run and call, as ``lt.sgd`` draws them alone) and has its own
    monitor.  Returns ``[(monitor, W_final, epochs), ...]`` in the order of ``jobs``.
    """
    mons = [Monitor(j["net"], j["X"], j["y"], j["w_star"], j["eps"], eta=j["eta"], W0=j["W0"])
            for j in jobs]
    W = [np.array(j["W0"], dtype=np.float64) for j in jobs]
    epochs = [0] * len(jobs)

    def finished(c):
        return mons[c].done if until == "all" else bool((mons[c].t_eps >= 0).all())

    live = [c for c in range(len(jobs)) if max_epochs > 0 and not finished(c)]
    while live:
        step = min(chunk, max_epochs - epochs[live[0]])
        sizes = [len(W[c]) for c in live]
        edges = np.cumsum([0] + sizes)
        spans = [slice(lo, hi) for lo, hi in zip(edges[:-1], edges[1:])]

        def on_epoch(updates):
            for c, part in zip(live, spans):
                mons[c].epoch(EpochUpdates(updates.epoch, updates.t0, updates.W[part],
                                           updates.index[part], updates.g[part],
                                           updates.loss_before[part]))
        if len(live) == 1:  # one configuration: its own net (the same bits, see PerRun)
            j = jobs[live[0]]
            run = lt.sgd(j["net"], W[live[0]], (j["X"], j["y"]), eta=j["eta"], n_epochs=step,
                         rng=j["rng"], eps0=float(mons[live[0]].eps0[0]),
                         on_epoch=mons[live[0]].epoch, grad=grad)
        else:
            X = repeat_per_run([jobs[c]["X"] for c in live], sizes)
            y = repeat_per_run([jobs[c]["y"] for c in live], sizes)
            per_run = (lambda f: np.concatenate([np.full(r, f(c)) for c, r in zip(live, sizes)]))
            run = lt.sgd([jobs[c]["net"] for c, r in zip(live, sizes) for _ in range(r)],
                         np.concatenate([W[c] for c in live]), (X, y),
                         eta=per_run(lambda c: jobs[c]["eta"]), n_epochs=step,
                         rng=[g for c, r in zip(live, sizes) for g in jobs[c]["rng"].spawn(r)],
                         eps0=per_run(lambda c: mons[c].eps0[0]), on_epoch=on_epoch, grad=grad)
        lib = np.asarray(run.trace["mistakes"])[1:]                       # (step, runs)
        for c, part in zip(live, spans):
            ours = np.stack([m[:, 0] for m in mons[c].mistakes_log[-step:]])
            if not np.array_equal(lib[:, part], ours):
                raise AssertionError("monitor and linteach.sgd disagree on the ε0-mistake count")
            W[c], epochs[c] = run.W[part], epochs[c] + step
        live = [c for c in live if epochs[c] < max_epochs and not finished(c)]
    return [(mons[c], W[c], epochs[c]) for c in range(len(jobs))]
