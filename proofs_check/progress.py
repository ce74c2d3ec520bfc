"""Progress of a run on stderr: which claim runs, how long it has been, what is left.

On a terminal with ``tqdm`` installed, a bar over the claims (elapsed time and an estimate
of what is left); otherwise plain lines, one when a claim starts and one when it ends,
plus a line every :data:`HEARTBEAT` seconds while a claim is still running — so a log
never stays silent for long.  The results table itself goes to stdout.
"""
from __future__ import annotations

import sys
import threading
import time

__all__ = ["HEARTBEAT", "Progress"]

#: seconds between "still running" lines while nothing else is printed
HEARTBEAT = 15.0


def _tqdm():
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm


class Progress:
    """Progress of ``ids`` (the claims of a run) written to ``stream``.

    ``enabled=False`` prints nothing; ``bar=None`` uses a ``tqdm`` bar iff ``stream`` is a
    terminal and ``tqdm`` is installed.
    """

    def __init__(self, ids, *, stream=None, enabled: bool = True, bar: bool | None = None,
                 heartbeat: float = HEARTBEAT):
        self.ids, self.stream = list(ids), stream if stream is not None else sys.stderr
        self.enabled, self.heartbeat = enabled, heartbeat
        self.start_time = time.monotonic()
        self.started: dict = {}
        self.finished: list = []
        #: claim id -> (batches done, batches so far) of the claims running
        self.batches: dict = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        tqdm = _tqdm()
        use_bar = (bar if bar is not None else self._isatty()) and tqdm is not None
        self.bar = (tqdm(total=len(self.ids), file=self.stream, unit="claim", desc="claims",
                         leave=False, dynamic_ncols=True)
                    if enabled and use_bar else None)
        self._thread = None
        if enabled and heartbeat > 0:
            self._thread = threading.Thread(target=self._beat, daemon=True,
                                            name="proofs_check-progress")
            self._thread.start()

    def _isatty(self) -> bool:
        try:
            return self.stream.isatty()
        except (AttributeError, ValueError):
            return False

    def _elapsed(self) -> str:
        return _duration(time.monotonic() - self.start_time)

    def _left(self) -> list:
        return [c for c in self.ids if c not in self.finished and c not in self.started]

    def _say(self, text: str) -> None:
        if not self.enabled:
            return
        if self.bar is not None:
            running = ", ".join(self._running(time.monotonic(), with_time=False)) or "—"
            self.bar.set_postfix_str(f"running {running}", refresh=True)
            return
        print(f"proofs_check: {text}", file=self.stream, flush=True)

    def note(self, text: str) -> None:
        """A line that is always shown (above the bar, if there is one)."""
        if not self.enabled:
            return
        if self.bar is not None:
            self.bar.write(f"proofs_check: {text}", file=self.stream)
        else:
            print(f"proofs_check: {text}", file=self.stream, flush=True)

    def start(self, claim_id: str) -> None:
        with self._lock:
            self.started[claim_id] = time.monotonic()
            left = self._left()
            self._say(f"{claim_id} started ({self._elapsed()} elapsed; {len(self.started)} "
                      f"running; not started yet: {', '.join(left) if left else 'none'})")

    def done(self, claim_id: str, verdict: str, *, from_checkpoint: bool = False) -> None:
        with self._lock:
            began = self.started.pop(claim_id, None)
            self.batches.pop(claim_id, None)
            self.finished.append(claim_id)
            took = ("from checkpoint" if from_checkpoint or began is None
                    else f"in {_duration(time.monotonic() - began)}")
            left = len(self.ids) - len(self.finished)
            if self.bar is not None:
                self.bar.update(1)
            self._say(f"[{len(self.finished)}/{len(self.ids)}] {claim_id} {verdict} {took} "
                      f"({self._elapsed()} elapsed; {left} claim(s) left)")

    def batch(self, claim_id: str, done: int, total: int) -> None:
        """A claim's ``ctx.map`` batches: ``done`` of the ``total`` submitted so far."""
        with self._lock:
            self.batches[claim_id] = (done, total)
            if self.bar is not None:
                self._say("")

    def _running(self, now: float, with_time: bool = True) -> list:
        out = []
        for c, t in self.started.items():
            parts = [f"for {_duration(now - t)}"] if with_time else []
            if c in self.batches:
                parts.append("batch {}/{}".format(*self.batches[c]))
            out.append(f"{c} ({', '.join(parts)})" if parts else c)
        return out

    def _beat(self) -> None:
        while not self._stop.wait(self.heartbeat):
            with self._lock:
                if self.bar is not None:
                    self.bar.refresh()
                    continue
                running = ", ".join(self._running(time.monotonic()))
                if running:
                    self._say(f"still running: {running} ({self._elapsed()} elapsed; "
                              f"{len(self.ids) - len(self.finished)} claim(s) left)")

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(1.0)
        if self.bar is not None:
            self.bar.close()
            self.bar = None


def _duration(seconds: float) -> str:
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, sec = divmod(int(round(seconds)), 60)
    return f"{minutes} min {sec:02d} s"
