"""Where ``ctx.map`` batches run: in-process, a local process pool, or a Dask cluster.

Every executor is a ``concurrent.futures.Executor``; the runner only calls ``submit``.
Results are identical whichever runs them because

* a batch's result depends only on its item (randomness comes from case seeds), and the
  runner puts results back in item order, whatever order they finish in;
* BLAS runs single-threaded everywhere: pinned in worker processes (environment variables
  set before their NumPy loads, plus ``threadpoolctl`` at run time) and in the runner's
  own process for the duration of a run, so no reduction is split differently.

Workers never outlive the runner: each starts a watchdog (:func:`watch_parent`) that exits
the worker as soon as its parent is gone, so a runner killed with SIGKILL leaves no pool workers — and, once they are gone, no
resource tracker — behind.
"""
from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from threadpoolctl import threadpool_limits

#: thread-count variables read by BLAS / OpenMP runtimes when they load
BLAS_ENV = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
            "VECLIB_MAXIMUM_THREADS", "NUMEXPR_NUM_THREADS")

_pinned = False
#: seconds between a worker's checks that its parent is still alive
PARENT_POLL = 0.5
#: seconds to wait for a Dask scheduler before giving up
DASK_TIMEOUT = 10


class ExecutorError(RuntimeError):
    """The executor asked for cannot be used (no Dask, an unreachable scheduler)."""


def pin_blas_threads() -> None:
    """Limit every BLAS/OpenMP pool of this process to one thread, for good (idempotent)."""
    global _pinned
    if not _pinned:
        threadpool_limits(limits=1)
        _pinned = True


def run_task(fn, item):
    """What a worker executes for one batch: ``fn(item)`` with BLAS pinned to one thread."""
    pin_blas_threads()  # a Dask worker may not have been started with BLAS_ENV
    return fn(item)


def watch_parent(parent: int, poll: float = PARENT_POLL) -> None:
    """Exit this process as soon as process ``parent`` is no longer its parent.

    A daemon thread polls ``os.getppid()``: when the parent dies the worker is re-parented
    and exits within ``poll`` seconds.  (Not Linux's ``PR_SET_PDEATHSIG``: it fires when the
    *thread* that started the worker ends, and a pool starts workers from whichever claim
    thread submits first.)  A worker has nothing to save: its batch is recomputed.
    """
    def watch():
        while True:
            if os.getppid() != parent:
                os._exit(1)
            time.sleep(poll)

    if os.getppid() != parent:
        os._exit(1)
    threading.Thread(target=watch, daemon=True, name="parent-watchdog").start()


def _worker_init(parent: int) -> None:
    # Ctrl-C belongs to the runner, which stops the workers itself; a worker hit by the
    # terminal's SIGINT mid-batch would break the pool instead of stopping cleanly.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    watch_parent(parent)
    pin_blas_threads()


@contextlib.contextmanager
def _blas_env():
    """Set ``BLAS_ENV`` to 1 for processes started inside this block, then restore."""
    saved = {name: os.environ.get(name) for name in BLAS_ENV}
    os.environ.update({name: "1" for name in BLAS_ENV})
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


class LocalPool:
    """A process pool (``spawn``) that replaces itself when a worker dies.

    A worker killed by the OS (out of memory, a segfault in a native library) breaks a
    ``ProcessPoolExecutor`` for good; here the next ``submit`` starts a fresh pool, so one
    crashed batch costs its own claim, not every claim still running.
    """

    def __init__(self, workers: int):
        if workers < 1:
            raise ValueError(f"`workers` must be >= 1, got {workers}")
        self.workers = workers
        self._pool = None

    def _new_pool(self):
        return ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_worker_init, initargs=(os.getpid(),))

    def submit(self, fn, *args):
        if self._pool is None:
            self._pool = self._new_pool()
        try:
            return self._pool.submit(fn, *args)
        except BrokenProcessPool:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = self._new_pool()
            return self._pool.submit(fn, *args)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        if self._pool is None:
            return
        pool, self._pool = self._pool, None
        workers = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=wait, cancel_futures=cancel_futures)
        if not wait:
            # (SIGTERM, then SIGKILL for a worker that has not gone within a second: a
            # terminated pool must not leave a process behind)
            # Workers ignore SIGINT and would finish their current batch before exiting;
            # after a Ctrl-C nobody wants that batch, so stop them now (3.14 has a public
            # ``terminate_workers``; 3.10-3.13 only keep them in ``_processes``).  The pool
            # then marks its pending futures broken, which before 3.12 raises in its
            # manager thread for a cancelled one: so the runner cancels none on Ctrl-C.
            for proc in workers:
                proc.terminate()
            for proc in workers:
                proc.join(1.0)
                if proc.exitcode is None:
                    proc.kill()

    def __repr__(self):
        return f"local process pool ({self.workers} workers)"


@contextlib.contextmanager
def local_pool(workers: int):
    """A :class:`LocalPool` whose workers start with one BLAS thread each."""
    pool = LocalPool(workers)
    with _blas_env():
        try:
            yield pool
        except BaseException:
            pool.shutdown(wait=False)  # interrupted or failed: stop the workers now
            raise
        else:
            pool.shutdown(wait=True)   # finished: the workers are idle and exit cleanly


@contextlib.contextmanager
def dask_executor(address: str):
    """``client.get_executor()`` of the Dask cluster at ``address`` (needs the ``dask`` extra)."""
    try:
        from distributed import Client
    except ImportError:
        raise ExecutorError("--dask needs the optional extra: pip install 'linteach[dask]' "
                            "(dask[distributed])") from None
    try:
        client = Client(address, timeout=DASK_TIMEOUT)
    except Exception as exc:  # refused, timed out, unknown scheme, bad address
        raise ExecutorError(f"--dask: cannot reach a Dask scheduler at {address!r} within "
                            f"{DASK_TIMEOUT} s: {type(exc).__name__}: {exc}") from None
    executor = client.get_executor(pure=False)  # batches are distinct work: no key dedup
    executor.description = f"dask cluster at {address}"
    try:
        yield executor
    finally:
        executor.shutdown(wait=False)
        client.close()


def describe(executor) -> str:
    """A short human name for ``executor`` (recorded in the non-reproducible run section)."""
    if executor is None:
        return "in-process"
    return getattr(executor, "description", None) or repr(executor)
