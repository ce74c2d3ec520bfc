"""The references of the robustness census (``tests/_fuzz_census.py``, docs/robustness.md):
high-precision mpmath values, scale laws ``f(2^k W) = f(W)`` or ``2^k f(W)``, and the
functions' own guarantees.  A reference returns when a call's answer is right and raises
:class:`Wrong` when it is not.
"""
from __future__ import annotations

import re

import mpmath as mp
import numpy as np

import linteach as lt
from linteach import loss, separable

#: an error message names an argument in backticks
NAMED = re.compile(r"`[A-Za-z_]\w*`")
mp.mp.dps = 50


class Wrong(AssertionError):
    """The reference check of a returned value failed."""


def close(got, want, rtol, atol=0.0):
    got, want = np.asarray(got, dtype=np.float64), np.asarray(want, dtype=np.float64)
    if got.shape != want.shape or not np.allclose(got, want, rtol=rtol, atol=atol, equal_nan=True):
        raise Wrong(f"got {got!r}, want {want!r}")


def same(got, want):
    if isinstance(got, tuple):
        for g, w in zip(got, want):
            same(g, w)
        return
    if not np.array_equal(np.asarray(got), np.asarray(want)):
        raise Wrong(f"got {got!r}, want {want!r}")


def _pow2_range(A):
    """``(hi, lo)``: ``A·2^k`` is exact for ``lo <= k <= hi``."""
    nz = np.abs(A[A != 0])
    if not nz.size:
        return 0, 0
    return 1020 - int(np.frexp(nz.max())[1]), -1020 - int(np.frexp(nz.min())[1])


def scale_exp(rng, A):
    """A random k with ``A·2^k`` exact (no overflow, no subnormal entries)."""
    hi, lo = _pow2_range(A)
    return int(rng.integers(max(lo, -1000), min(hi, 1000) + 1))


# -- high-precision references ----------------------------------------------------------------
def mpf_array(A):
    return [[mp.mpf(float(v)) for v in row] for row in np.atleast_2d(A)]


def mp_margins(net, W, X, y):
    k = net.k
    out = []
    for x, lab in zip(mpf_array(X), y):
        total = mp.mpf(0)
        for j, w in enumerate(mpf_array(W)):
            z = mp.fsum(a * b for a, b in zip(w, x))
            s = z if z > 0 else net.alpha * z
            total += net.v * s if j < k else -net.v * s
        out.append(lab * total)
    return out


def mp_norm(A):
    return mp.sqrt(mp.fsum(v * v for row in mpf_array(A) for v in row))


def q_error(net, W, X):
    """A bound on the rounding error of every margin: 1e-14 of its summed absolute terms."""
    return 1e-14 * net.v * float(np.abs(X).sum(axis=1).max()) * float(np.abs(W).sum()) + 1e-300


def ref_normalized_margin(kw, out):
    net, W, X, y = kw["net"], kw["W"], kw["X"], kw["y"]
    want = min(mp_margins(net, W, X, y)) / mp_norm(W)
    close(out, float(want), rtol=1e-12, atol=4 * q_error(net, W, X) / float(mp_norm(W)))


def ref_smoothed_margin(kw, out):
    net, W, X, y = kw["net"], kw["W"], kw["X"], kw["y"]
    q = mp_margins(net, W, X, y)
    L = mp.fsum(mp.log1p(mp.exp(-qi)) for qi in q)
    want = -mp.log(mp.expm1(L)) / mp_norm(W)
    close(out, float(want), rtol=1e-9, atol=8 * q_error(net, W, X) / float(mp_norm(W)))


def mp_unit(v):
    n = mp.sqrt(mp.fsum(a * a for a in v))
    return [a / n for a in v] if n else None


def ref_angle(kw, out):
    W = kw["W"]
    k = W.shape[0] // 2
    worst = mp.mpf(0)
    for block in (W[:k], W[k:]):
        units = [u for u in (mp_unit(r) for r in mpf_array(block)) if u is not None]
        for a in units:
            for b in units:
                c = max(-1, min(1, mp.fsum(x * y for x, y in zip(a, b))))
                worst = max(worst, mp.acos(c))
    close(out, float(worst), rtol=0, atol=1e-12)


def ref_relative_radius(kw, out):
    W = kw["W"]
    k = W.shape[0] // 2
    rows = mpf_array(W)
    means = [[mp.fsum(r[c] for r in rows[s]) / k for c in range(W.shape[1])]
             for s in (slice(0, k), slice(k, 2 * k))]
    r = max(mp.sqrt(mp.fsum((a - m) ** 2 for a, m in zip(row, means[j // k])))
            for j, row in enumerate(rows))
    gap = mp.sqrt(mp.fsum((a - b) ** 2 for a, b in zip(*means)))
    top = float(np.abs(W).max())
    if float(gap) < 1e-6 * top:  # ill-conditioned: the ratio's digits are rounding
        return
    close(out, float(r / gap), rtol=1e-12 + 1e-13 * top / float(gap))


def ref_kink(kw, out):
    W, X = kw["W"], kw["X"]
    best = mp.inf
    for w in (mp_unit(r) for r in mpf_array(W)):
        for x in (mp_unit(r) for r in mpf_array(X)):
            if w is not None and x is not None:
                best = min(best, abs(mp.fsum(a * b for a, b in zip(w, x))))
    close(out, float(best), rtol=0, atol=1e-14)


def mp_q(q):
    return [mp.mpf(float(v)) for v in np.ravel(q)]


def ref_elementwise(f):
    def check(kw, out):
        q = np.asarray(kw["q"], dtype=np.float64)
        want = [f(v) for v in mp_q(q)]
        close(np.ravel(out), [float(w) for w in want], rtol=1e-12, atol=0)
    return check


def mp_ell(q):
    return mp.log1p(mp.exp(-q))


def ref_logsumexp(kw, out):
    a = np.asarray(kw["a"], dtype=np.float64)
    want = [mp.log(mp.fsum(mp.exp(mp.mpf(float(v))) for v in row)) for row in np.atleast_2d(a)]
    close(np.ravel(out), [float(w) for w in want], rtol=1e-13, atol=1e-300)


def ref_log_sum_loss(kw, out):
    q = np.atleast_2d(np.asarray(kw["q"], dtype=np.float64))
    want = [mp.log(mp.fsum(mp_ell(mp.mpf(float(v))) for v in row)) for row in q]
    close(np.ravel(out), [float(w) for w in want], rtol=1e-12)


def ref_mean_loss(kw, out):
    q = np.atleast_2d(np.asarray(kw["q"], dtype=np.float64))
    want = [mp.fsum(mp_ell(mp.mpf(float(v))) for v in row) / len(row) for row in q]
    close(np.ravel(out), [float(w) for w in want], rtol=1e-12)


def ref_log_expm1_exp(kw, out):
    want = [mp.log(mp.expm1(mp.exp(v))) for v in mp_q(kw["log_x"])]
    close(np.ravel(out), [float(w) for w in want], rtol=1e-12)


def ref_scaled_terms(kw, out):
    lead, rest, log_w = out
    q_hat, ln = np.asarray(kw["q_hat"]), float(kw["log_norm"])
    scale = mp.exp(mp.mpf(ln))
    q = [scale * mp.mpf(float(v)) for v in q_hat]
    L = mp.fsum(mp_ell(v) for v in q)
    got = float(loss.log_sum_loss_scaled(lead, rest, ln))
    # margins of size e^{log_norm}·q̂ carry a relative rounding of the product
    tol = 1e-12 * (1 + float(abs(scale) * max(abs(v) for v in q_hat)))
    close(got, float(mp.log(L)), rtol=1e-12, atol=tol)


def ref_bound(kw, out):
    p = {key: mp.mpf(kw[key]) for key in ("n", "eps", "R_x", "R_0", "alpha", "k", "eta", "v",
                                           "w_star_norm")}
    A = 1 + 2 * p["k"] * p["eta"] * p["v"]**2 * p["R_x"]**2 * p["n"]
    e0 = p["eps"] / A
    a = 2 * p["k"] * p["eta"] * p["v"] * p["alpha"] * -mp.expm1(-e0) / p["n"]
    b = p["w_star_norm"] * mp.sqrt(4 * p["k"]**2 * p["eta"]**2 * p["v"]**2 * p["R_x"]**2
                                   + 4 * p["k"] * p["eta"])
    c = 4 * p["k"] * p["R_0"] * p["w_star_norm"]
    T = ((b + mp.sqrt(b**2 + 4 * a * c)) / (2 * a))**2
    if not out.T_exact >= T:
        raise Wrong(f"T_exact = {out.T_exact!r} below the exact root {mp.nstr(T, 20)}")
    if not out.M >= out.T_exact:
        raise Wrong(f"M = {out.M!r} < T_exact = {out.T_exact!r}")
    close([out.eps0, out.a, out.b, out.c, out.T_exact],
          [float(e0), float(a), float(b), float(c), float(T)], rtol=1e-11)


# -- scale laws: f at 2^k times an argument, against f at the argument --------------------------
def law(arg, power, per_row=False, compare=same):
    """``f(.., arg·2^k, ..) = 2^{power·k} f(..)`` exactly (``per_row``: one k per row)."""
    def scaled(rng, kw, out):
        A = np.asarray(kw[arg], dtype=np.float64)
        if per_row:
            ks = np.array([scale_exp(rng, r) for r in A])[:, None]
            k = 0
        else:
            k = ks = scale_exp(rng, A)
        args = {a: v for a, v in kw.items() if not a.startswith("__")}
        try:
            out2 = kw["__fn"](**{**args, arg: np.ldexp(A, ks)})
        except ValueError as exc:  # the scaled value leaves float64: a clear error is right
            if NAMED.search(str(exc)):
                return
            raise
        expect = out if power == 0 else _ldexp_tree(out, power * k)
        compare(out2, expect)
    return scaled


def _ldexp_tree(out, k):
    if isinstance(out, tuple):
        return tuple(_ldexp_tree(o, k) for o in out)
    return np.ldexp(np.asarray(out, dtype=np.float64), k)


def rel_compare(rtol):
    return lambda got, want: close(got, want, rtol=rtol, atol=1e-300)


# -- guarantees of the generators and solvers ----------------------------------------------------
def teacher_certifies(kw, ds):
    top = np.abs(ds.X).max()
    if not (np.all(np.isfinite(ds.X)) and set(np.unique(ds.y)) <= {-1.0, 1.0}):
        raise Wrong("non-finite points or labels outside {-1, +1}")
    if ds.w_star is not None and not np.all(ds.y * ((ds.X / top) @ ds.w_star) >= (1 - 1e-9) / top):
        raise Wrong("the teacher does not certify y_i <w*, x_i> >= 1")


def svm_optimal(kw, w):
    X, y = np.asarray(kw["X"], dtype=np.float64), np.asarray(kw["y"], dtype=np.float64)
    sep = separable.separability(X, y)
    if sep.verdict == "not separable":
        raise Wrong("returned a teacher for data proved non-separable")
    if sep.verdict == "separable" and sep.w is not None:
        close(w, sep.w, rtol=1e-6, atol=1e-6 * float(np.abs(sep.w).max()))


def dataset_owns_copies(kw, ds):
    X, y = kw["X"], kw["y"]
    before = ds.X.copy(), ds.y.copy()
    for arr in (X, y):
        if isinstance(arr, np.ndarray) and arr.flags.writeable and arr.dtype == np.float64:
            arr.flat[0] = np.nan  # aliasing after construction
    same((ds.X, ds.y), before)
    if ds.X.flags.writeable or ds.y.flags.writeable:
        raise Wrong("the Dataset's arrays are writeable")


def in_band(kw, X):
    W, c = kw["W"], kw["c"]
    w_bar, u_bar = lt.neuron_means(W)
    lin = np.abs(X @ (w_bar - u_bar))
    want = c * lt.cluster_radius(W) * np.linalg.norm(X, axis=1)
    close(lin, want, rtol=1e-9, atol=1e-12 * np.linalg.norm(X, axis=1).max() * np.abs(W).max())


def radius_is(kw, W):
    """``r`` and the gap, up to the rounding of the means (the generator's stated contract)."""
    floor = 1e-12 * (1.0 + abs(kw.get("center_norm", 1.0)) + abs(kw["gap"]) + abs(kw["r"]))
    close(lt.cluster_radius(W), kw["r"], rtol=1e-9, atol=floor)
    w_bar, u_bar = lt.neuron_means(W)
    close(np.linalg.norm(w_bar - u_bar), kw["gap"], rtol=1e-9, atol=floor)


def separable_verdict(kw, sep):
    if sep.verdict == "not separable" and kw.get("__valid"):
        raise Wrong("a separable set was called not separable")
    if sep.verdict == "separable":
        X, y = np.asarray(kw["X"], float), np.asarray(kw["y"], float)
        top = np.abs(X).max()
        if sep.w is not None and not np.all(y * ((X / top) @ sep.w) >= (1 - 1e-9) / top):
            raise Wrong("the exact teacher does not certify the margin")
