"""Exceptions raised by linteach at its public boundary."""


class NotSeparableError(ValueError):
    """The data are not linearly separable through the origin, but the call needs it.

    Raised by :func:`linteach.max_margin_teacher` and every theorem check whose
    hypotheses include separability.  Separable-with-bias data can be lifted with
    :func:`linteach.augment_bias` (App. K).
    """


class SolverError(RuntimeError):
    """No installed convex solver returned an answer that passed our own re-check."""


class UndecidedError(ValueError):
    """A yes/no property of the data (separability) could not be decided at their scale.

    Raised instead of a possibly false verdict: the solvers' tolerances could not resolve
    it and the exact re-check found no certificate either way.
    """
