"""Progress of long commands (``make figures``, ``make bench``) on stderr.

A terminal gets a tqdm bar (elapsed time, items left, an estimate of the time left); a pipe,
a log file or CI gets one plain line per item instead, so nothing is lost to carriage
returns: ``[figures 3/11] fig3 (41 s elapsed, about 96 s left)``.  tqdm is optional (the
``figures`` and ``bench`` extras install it); without it the plain lines are used everywhere.
Nothing here is imported by ``import linteach``.
"""
from __future__ import annotations

import sys
import time


def _tqdm():
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm


def _fmt_seconds(seconds: float) -> str:
    seconds = max(0.0, seconds)
    return f"{seconds:.0f} s" if seconds < 120 else f"{seconds / 60:.1f} min"


class Steps:
    """Announce each of ``total`` named steps before it runs; ``done()`` closes the run.

    >>> import io
    >>> steps = Steps("demo", 2, stream=io.StringIO(), force_plain=True)
    >>> steps.start("first"); steps.start("second"); steps.done()
    >>> print(steps.stream.getvalue().splitlines()[0].split(" (")[0])
    [demo 1/2] first
    """

    def __init__(self, desc: str, total: int, *, quiet: bool = False, stream=None,
                 force_plain: bool = False):
        self.desc, self.total, self.quiet = desc, int(total), quiet
        self.stream = sys.stderr if stream is None else stream
        self.begin = time.perf_counter()
        self.count = 0
        tqdm = None if (quiet or force_plain) else _tqdm()
        isatty = getattr(self.stream, "isatty", lambda: False)()
        self.bar = (tqdm(total=self.total, desc=desc, file=self.stream, unit="step",
                         dynamic_ncols=True, leave=True)
                    if tqdm is not None and isatty else None)

    def _left(self) -> str:
        """Elapsed time and what is left, this step included (called before it starts)."""
        elapsed = time.perf_counter() - self.begin
        remaining = self.total - self.count
        if self.count == 0:
            return f"{_fmt_seconds(elapsed)} elapsed, {remaining} step(s) left"
        left = elapsed / self.count * remaining  # the mean step so far, a rough estimate
        return (f"{_fmt_seconds(elapsed)} elapsed, {remaining} step(s) left, "
                f"roughly {_fmt_seconds(left)}")

    def start(self, name: str) -> None:
        """Step ``name`` begins (the previous one, if any, is finished)."""
        if self.quiet:
            return
        if self.bar is not None:
            if self.count:
                self.bar.update(1)
            self.bar.set_postfix_str(name)
        else:
            print(f"[{self.desc} {self.count + 1}/{self.total}] {name} ({self._left()})",
                  file=self.stream, flush=True)
        self.count += 1

    def write(self, line: str, file=None) -> None:
        """Print ``line`` (to stdout by default) without breaking the bar."""
        out = sys.stdout if file is None else file
        if self.bar is not None:
            self.bar.write(line, file=out)
        else:
            print(line, file=out, flush=True)

    def done(self) -> None:
        if self.quiet:
            return
        if self.bar is not None:
            self.bar.update(self.total - self.bar.n)
            self.bar.close()
        else:
            print(f"[{self.desc}] {self.count} of {self.total} done in "
                  f"{_fmt_seconds(time.perf_counter() - self.begin)}",
                  file=self.stream, flush=True)
