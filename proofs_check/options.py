"""The options of ``python -m proofs_check``: the argument parser, its help format, defaults.

What the options mean together (which combinations are refused, and why) is checked in
:mod:`proofs_check.usage`; what the command does with them is in ``proofs_check.__main__``.
"""
from __future__ import annotations

import argparse
import os

from . import compare, listing, usage
from .engine.context import BUDGET_SCALE

__all__ = ["Formatter", "cpus", "parser", "version"]


def version() -> str:
    """``proofs_check (linteach X.Y.Z)``, what ``--version`` prints."""
    import linteach

    return f"{listing.PROG} (linteach {linteach.__version__})"


def cpus() -> int:
    """The CPUs this process may use: the default of ``--workers``."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every OS
        return os.cpu_count() or 1


class Formatter(argparse.RawDescriptionHelpFormatter):
    """Shows an option's default where it has one (not for flags and unset options)."""

    def _get_help_string(self, action):
        text = action.help or ""
        unset = action.default is None or action.default is False \
            or action.default == argparse.SUPPRESS
        if not unset and "default" not in text:
            text += " (default: %(default)s)"
        return text


def parser(description: str, epilog: str | None = None) -> argparse.ArgumentParser:
    """The command line of ``proofs_check``, with ``description`` above the options."""
    p = argparse.ArgumentParser(prog=listing.PROG, description=description,
                                epilog=epilog, formatter_class=Formatter)
    p.add_argument("--version", action="version", version=version())
    p.add_argument("--list", action="store_true",
                   help="list the claims with their evidence strength and slack unit, then exit")
    p.add_argument("--only", nargs="+", action="extend", metavar="ID",
                   help="check only these claims (repeatable: --only a --only b = --only a b)")
    p.add_argument("--cases", type=int, default=None,
                   help=f"cases per family, overriding the budget (at most {usage.MAX_CASES})")
    p.add_argument("--seed", type=int, default=0, help="root seed, in [0, 2**64 - 1]")
    p.add_argument("--budget", choices=list(BUDGET_SCALE), default="standard",
                   help="how many cases: quick (0.2x), standard, thorough (5x)")
    p.add_argument("--json", metavar="PATH", help="write claims.json here")
    p.add_argument("--out", metavar="PATH", help="write claims.md here")
    p.add_argument("--pages", metavar="DIR", help="update the generated section (and slack "
                   "plot) of each reviewer page DIR/<id>.md from the report")
    p.add_argument("--from", dest="source", metavar="PATH", help="run nothing: render "
                   "--out and --pages from this existing claims.json")
    p.add_argument("--replay", metavar="ID", help="rerun one recorded case of claim ID (with "
                   "--seed S; --family F unless claims.json records the seed for one family)")
    p.add_argument("--family", help="the case family to replay")
    p.add_argument("--workers", type=int, default=cpus(),
                   help="local worker processes, BLAS pinned to 1 thread each; 0 runs "
                        "everything in this process (default: the usable CPUs, here "
                        "%(default)s)")
    p.add_argument("--dask", metavar="ADDRESS", help="send batches to this Dask scheduler "
                   "(e.g. tcp://127.0.0.1:8786; needs the dask extra)")
    p.add_argument("--resume", action="store_true",
                   help="continue an interrupted run with the same seed, budget and cases")
    p.add_argument("--state", metavar="DIR", default=".proofs_check_state",
                   help="checkpoint directory")
    p.add_argument("--no-checkpoint", action="store_true", help="write no checkpoints")
    p.add_argument("--compare", nargs=2, metavar=("A", "B"),
                   help="compare two claims.json semantically (verdicts, evidence, controls, "
                        f"slacks to a relative {compare.RTOL:g}, content hashes); print "
                        "'reproduced' or each difference; exit 0 / 1 (2: not a report)")
    p.add_argument("--selftest", action="store_true",
                   help="run the runner's synthetic self-test claims instead of the paper's")
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    return p
