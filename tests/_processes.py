"""Helpers for tests that interrupt a subprocess the way a terminal would."""
import signal


def sigint_as_in_a_foreground_job() -> None:
    """``preexec_fn`` for a child that a test Ctrl-C's: SIGINT at its default disposition.

    Ctrl-C only reaches a foreground job, and a foreground job starts with SIGINT at its
    default.  A shell without job control starts a background command (``make verify &``,
    ``cmd > log &`` in a script) with SIGINT ignored, which fork and exec hand down to pytest,
    its workers and the child; the child would then, rightly, ignore the test's SIGINT too
    (Python installs no KeyboardInterrupt handler in a process that starts with it ignored).
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)
