"""The ``linteach`` command: ``figure``, ``train`` and ``bench``.

::

    linteach --version
    linteach figure ID|all [--out DIR] [--seed S] [--size small|full] [--quiet]
    linteach train [--data NAME] [--pair A B] [--n N] [--d D] [--k K] [--alpha A] ...
    linteach bench [--md PATH] [--json PATH] [--quick] [--skip-verify] ...

Also ``python -m linteach.cli``.  Seeds become generators here and nowhere else.
Matplotlib is imported only by ``figure`` (through :mod:`linteach.figures`); ``bench`` runs
the benchmark shipped inside the installed package (:mod:`linteach.bench`), never a file of
the current folder.  Exit status: 0 on success, 1 when an optional dependency is missing,
2 on a usage error.
"""
from __future__ import annotations

import argparse
import sys
import time

import numpy as np

import linteach as lt

from ._check import check_int

DATASETS = ("separable", "symmetric", "outlier", "blobs", "digits")
#: ``train`` refuses sizes whose float64 arrays would pass this many bytes (a clear error
#: instead of a MemoryError or a swapping machine): data n×d, weights 2k×d, outputs n×2k
TRAIN_MEMORY_LIMIT = 4 * 1024**3
_FMT = argparse.ArgumentDefaultsHelpFormatter


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="linteach", description=__doc__.split("\n")[0],
                                formatter_class=_FMT, allow_abbrev=False)
    p.add_argument("--version", action="version", version=f"linteach {lt.__version__}")
    sub = p.add_subparsers(dest="command", required=True)

    f = sub.add_parser("figure", help="regenerate one of the paper's figures (PNG + JSON)",
                       formatter_class=_FMT)
    f.add_argument("id", help="figure id (fig1 … fig9, thm4.1, thm5.1, or a number) or 'all'")
    f.add_argument("--out", default="docs/figures", help="output folder")
    f.add_argument("--seed", type=int, default=0, help="root seed")
    f.add_argument("--size", choices=("small", "full"), default="full",
                   help="'small' is the smoke-test size; 'full' what `make figures` runs")
    f.add_argument("--quiet", action="store_true", help="no progress lines")

    t = sub.add_parser("train", help="train a net with SGD and print r, the linear regime, loss",
                       formatter_class=_FMT)
    t.add_argument("--data", choices=DATASETS, default="separable", help="data set")
    t.add_argument("--pair", type=int, nargs=2, default=(3, 5), metavar=("A", "B"),
                   help="digits A (+1) vs B (-1) for --data digits")
    t.add_argument("--bias", action="store_true", help="append a constant 1 (App. K)")
    t.add_argument("--n", type=int, default=100, help="points (synthetic data)")
    t.add_argument("--d", type=int, default=10, help="dimension (synthetic data)")
    t.add_argument("--margin", type=float, default=0.1, help="margin (--data separable)")
    t.add_argument("--test-fraction", type=float, default=0.25, help="digits test split")
    t.add_argument("--k", type=int, default=50, help="neurons per type")
    t.add_argument("--alpha", type=float, default=0.3, help="leaky slope")
    t.add_argument("--v", type=float, default=1.0, help="second-layer magnitude")
    t.add_argument("--eta", type=float, default=0.1, help="SGD step")
    t.add_argument("--epochs", type=int, default=100, help="SGD epochs")
    t.add_argument("--scale", type=float, default=1e-3, help="init scale (std)")
    t.add_argument("--seed", type=int, default=0, help="root seed")

    sub.add_parser("bench", add_help=False,
                       help="speed against baselines measured in one run (the installed "
                       "linteach.bench); `linteach bench --help` lists its options")
    return p


def _figure(args) -> int:
    try:
        from . import figures  # matplotlib is imported from here on only
    except ModuleNotFoundError as exc:
        print(f"linteach figure: needs {exc.name}, which is not installed: "
              "pip install 'linteach[figures]'", file=sys.stderr)
        return 1

    from ._progress import Steps

    ids = figures.figure_ids() if args.id == "all" else [figures.normalize_id(args.id)]
    figures.check_out(args.out)  # before minutes of computing, not after
    start = time.perf_counter()
    steps = Steps("figures", len(ids), quiet=args.quiet)
    for fid in ids:
        steps.start(f"{fid} ({args.size} size)")
        figures.render(fid, args.out, seed=args.seed, size=args.size, quiet=args.quiet,
                       emit=lambda line: steps.write(line, file=sys.stderr))
    steps.done()
    if not args.quiet:
        print(f"{len(ids)} figure(s) written to {args.out} in "
              f"{time.perf_counter() - start:.0f} s", file=sys.stderr)
    return 0


def _dataset(args, rng):
    """(train, test or None) for ``--data``."""
    if args.data == "digits":
        return lt.load_digit_pair(*args.pair, test_fraction=args.test_fraction, rng=rng,
                                  bias=args.bias)
    if args.data == "separable":
        data = lt.make_separable(args.n, args.d, margin=args.margin, rng=rng)
    elif args.data == "symmetric":
        data = lt.make_symmetric_gaussians(args.n, args.d, rng=rng)
    elif args.data == "outlier":
        data = lt.make_outlier_set(args.n, args.d, rng=rng)
    else:
        data = lt.make_blobs_2d(args.n, rng=rng)
    return (lt.augment_bias(data) if args.bias else data), None


def _check_train_size(args) -> None:
    """Refuse sizes whose arrays cannot fit (``--k 10**9`` would otherwise exhaust memory)."""
    for name in ("n", "d", "k", "epochs"):
        check_int(f"--{name}", getattr(args, name), ge=0 if name == "epochs" else 1)
    n, d = (1797, 65) if args.data == "digits" else (args.n, args.d + 1)
    need = 8 * (n * d + 2 * args.k * d + 2 * args.k * n)
    if need > TRAIN_MEMORY_LIMIT:
        raise ValueError(f"`--k` {args.k} with n = {n}, d = {d} needs about "
                         f"{need / 1024**3:.3g} GiB of float64 arrays (data n×d, weights 2k×d, "
                         f"outputs n×2k); the limit is {TRAIN_MEMORY_LIMIT / 1024**3:g} GiB: "
                         "use a smaller --k, --n or --d")


def _train(args) -> int:
    seed = check_int("seed", args.seed, ge=0)
    _check_train_size(args)
    data_rng, init_rng, sgd_rng = np.random.default_rng(seed).spawn(3)
    train, test = _dataset(args, data_rng)
    net = lt.Net(k=args.k, alpha=args.alpha, v=args.v)
    W0 = net.init(train.d, scale=args.scale, rng=init_rng)
    print(f"data {train.name}: n = {train.n}, d = {train.d}"
          + (f", {test.n} test points" if test is not None else ""))
    print(f"net k = {net.k}, alpha = {net.alpha}, v = {net.v}; SGD eta = {args.eta}, "
          f"{args.epochs} epochs, init scale {args.scale:g}, seed {seed}")
    start = time.perf_counter()
    run = lt.sgd(net, W0, train, eta=args.eta, n_epochs=args.epochs, rng=sgd_rng)
    W = run.W
    rows = [("loss (mean)", f"{run.trace['loss'][-1]:.6g}"),
            ("max per-point loss", f"{run.trace['max_loss'][-1]:.6g}"),
            ("train accuracy", f"{np.mean(np.sign(net.forward(W, train.X)) == train.y):.4f}"),
            ("r (cluster radius)", f"{lt.cluster_radius(W):.6g}"),
            ("r / |w_bar - u_bar|", f"{lt.relative_cluster_radius(W):.6g}"),
            ("outside linear regime (train)",
             f"{lt.fraction_outside_linear_regime(W, train.X):.4f}"),
            ("in PAR", str(bool(lt.in_par(W, train.X, train.y)))),
            ("in an NAR", str(lt.agreement(W, train.X) is not None))]
    if test is not None:
        rows[3:3] = [("test accuracy", f"{np.mean(np.sign(net.forward(W, test.X)) == test.y):.4f}")]
        rows.append(("outside linear regime (test)",
                     f"{lt.fraction_outside_linear_regime(W, test.X):.4f}"))
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"  {name:<{width}}  {value}")
    print(f"({time.perf_counter() - start:.1f} s)")
    return 0


def _bench(extra) -> int:
    from .bench import run  # the installed package's benchmark, never a file of the cwd

    try:
        return run.main(extra)
    except SystemExit as exc:  # argparse's --help and usage errors
        return exc.code if isinstance(exc.code, int) else 2


def main(argv=None) -> int:
    """Entry point of the ``linteach`` console script; returns the exit status."""
    parser = _parser()
    args, extra = parser.parse_known_args(argv)
    if args.command != "bench" and extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        if args.command == "bench":  # its own options, parsed by linteach.bench.run
            return _bench([a for a in extra if a != "--"])
        return {"figure": _figure, "train": _train}[args.command](args)
    except ValueError as exc:  # bad input, reported by the library's checks
        print(f"linteach {args.command}: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
