"""``ctx.map`` as the runner runs it: checkpointed, cancellable, optionally parallel.

The same rules hold in every mode, so a check that passes its in-process tests also runs on
a process pool or a cluster and checkpoints: ``fn`` must be a module-level function and
every item and result must be plain data that :mod:`proofs_check.engine.codec` encodes
(numbers, str, list, tuple, dict, NumPy arrays, ``Case``) — it crosses process boundaries
and is checkpointed in a format that cannot run code.  Results come back in item order,
whatever order batches finish in.
"""
from __future__ import annotations

from concurrent.futures import FIRST_COMPLETED, BrokenExecutor, wait

from . import codec
from .checkpoint import MISSING
from .executor import run_task

#: how often (seconds) a waiting claim looks for a Ctrl-C
_POLL = 0.25


class Cancelled(Exception):
    """The run was interrupted: a claim's remaining batches are abandoned (not an ERROR)."""


def _check_fn(fn) -> None:
    name = getattr(fn, "__qualname__", None)
    module = getattr(fn, "__module__", None)
    if name is None or module is None or "<" in name:
        raise TypeError("ctx.map needs a module-level function (it is sent to worker processes "
                        f"and names checkpoints by module and name), got {fn!r}")


def _encoded(what: str, value, index: int) -> str:
    """``value``'s codec text, after checking that the text decodes to ``value`` bit for bit
    (what a resumed run reads back is then what this run computed: every run certifies the
    codec on its own batches)."""
    where = f"ctx.map {what} {index}"
    try:
        text = codec.dumps(value, where)
    except TypeError as exc:
        raise TypeError(f"{where} must be plain data (it crosses process boundaries and is "
                        f"checkpointed): {exc}") from None
    found = codec.difference(codec.loads(text), value, where)
    if found is not None:
        raise codec.CodecError(f"the checkpoint codec does not round-trip {found}")
    return text


class Mapper:
    """``ctx.mapper`` of one claim.

    Parameters
    ----------
    claim_id : str
    executor : concurrent.futures.Executor or None
        ``None`` runs batches here, one after another.
    checkpoint : proofs_check.engine.checkpoint.Checkpoint or None
        Finished batches are read from and written to it.
    cancel : threading.Event
        Set when the run is interrupted; waiting claims then raise :class:`Cancelled`.
    on_batch : callable, optional
        ``on_batch(done, total)`` after each finished batch, counted over every call of
        this mapper (a batch restored from the checkpoint counts as finished).
    """

    def __init__(self, claim_id, *, executor=None, checkpoint=None, cancel=None,
                 on_batch=None):
        self.claim_id, self.executor, self.checkpoint = claim_id, executor, checkpoint
        self.cancel, self.on_batch = cancel, on_batch
        self.done = self.total = 0

    def _tick(self, n: int = 1) -> None:
        self.done += n
        if self.on_batch is not None:
            self.on_batch(self.done, self.total)

    def _stop_if_cancelled(self):
        if self.cancel is not None and self.cancel.is_set():
            raise Cancelled(self.claim_id)

    def _done(self, i, key, result, results):
        text = _encoded("result of item", result, i)  # the same rule with or without checkpoints
        if self.checkpoint is not None:
            self.checkpoint.put_batch(self.claim_id, key, text)
        results[i] = result
        self._tick()

    def __call__(self, fn, items):
        _check_fn(fn)
        blobs = [_encoded("item", item, i) for i, item in enumerate(items)]
        keys = [self.checkpoint.key(self.claim_id, fn, b) if self.checkpoint else None
                for b in blobs]
        results = [MISSING] * len(items)
        if self.checkpoint is not None:
            results = [self.checkpoint.get_batch(self.claim_id, k) for k in keys]
        todo = [i for i, r in enumerate(results) if r is MISSING]
        self.total += len(items)
        self._tick(len(items) - len(todo))
        if self.executor is None:
            for i in todo:
                self._stop_if_cancelled()
                self._done(i, keys[i], fn(items[i]), results)
        else:
            self._parallel(fn, items, todo, keys, results)
        return results

    def _parallel(self, fn, items, todo, keys, results):
        submit = self.executor.submit
        pending = {submit(run_task, fn, items[i]): i for i in todo}
        retried, cancelled = set(), False
        try:
            while pending:
                self._stop_if_cancelled()
                done, _ = wait(pending, timeout=_POLL, return_when=FIRST_COMPLETED)
                for fut in done:
                    i = pending.pop(fut)
                    self._stop_if_cancelled()
                    try:
                        result = fut.result()
                    except BrokenExecutor:
                        # a worker died (possibly in another claim's batch): retry once on a
                        # fresh pool; a batch that kills its worker twice is this claim's ERROR
                        if i in retried:
                            raise
                        retried.add(i)
                        pending[submit(run_task, fn, items[i])] = i
                        continue
                    self._done(i, keys[i], result, results)
        except (Cancelled, KeyboardInterrupt):
            cancelled = True  # the runner stops the executor itself (see LocalPool.shutdown)
            raise
        finally:
            if not cancelled:  # a batch failed: the rest of this map is not needed
                for fut in pending:
                    fut.cancel()
