"""The contract between a claim check and the runner: ``Claim``, ``Context``, ``CheckResult``.

A check module defines ``CLAIM = Claim(...)`` and ``def check(ctx: Context) -> None``.  It
draws cases with :meth:`Context.cases`, trains them (batched where it can), and reports
per named clause a **slack normalised so that ≥ 0 means the clause holds**, with the case
that produced it.  It never stops at the first failure; it runs its negative control and
reports whether the control was caught.  The runner turns this into a :class:`CheckResult`.

Case identity: each case has an integer ``seed`` (drawn from the run's root
``SeedSequence`` through ``spawn``) and a ``family`` name; ``np.random.default_rng(seed)``
inside that family reproduces the case exactly:
``python -m proofs_check --replay ID --family F --seed S``.
"""
from __future__ import annotations

import dataclasses
import hashlib
import math
from dataclasses import asdict, dataclass, field

import numpy as np

VERDICTS = ("PASS", "FAIL", "ASSUMPTION-NOT-MET", "INCONCLUSIVE", "ERROR")

#: how many cases a ``ctx.n(standard)`` request becomes under each budget
BUDGET_SCALE = {"quick": 0.2, "standard": 1.0, "thorough": 5.0}


@dataclass(frozen=True)
class Claim:
    """What a check module checks: the paper's claim, its hypotheses, how cases are drawn."""

    id: str
    statement: str
    reference: str
    hypotheses: str = ""
    cases: str = ""
    control: str = ""
    #: clauses that must each be evaluated on at least one case for a PASS
    clauses: tuple = ()


@dataclass(frozen=True)
class Case:
    """One reproducible case: ``rng = np.random.default_rng(seed)`` within ``family``."""

    family: str
    seed: int

    @property
    def rng(self) -> np.random.Generator:
        return np.random.default_rng(self.seed)


@dataclass
class Worst:
    """The worst slack of one clause so far, and the case that produced it."""

    slack: float
    family: str
    seed: int
    detail: dict = field(default_factory=dict)
    evaluated: int = 0
    violations: int = 0


class Context:
    """What a check receives: the budget, the case source, and the places to report."""

    def __init__(self, claim: Claim, *, seed: int, budget: str = "standard",
                 cases: int | None = None, replay: Case | None = None):
        if budget not in BUDGET_SCALE:
            raise ValueError(f"`budget` must be one of {sorted(BUDGET_SCALE)}, got {budget!r}")
        self.claim, self.seed, self.budget = claim, seed, budget
        self._override, self.replay = cases, replay
        # the claim id keys the stream: adding a check never changes another check's cases
        key = [int(b) for b in claim.id.encode()]
        self._root = np.random.SeedSequence(entropy=seed, spawn_key=tuple(key))
        self._families: dict[str, int] = {}
        #: cases drawn per family (the ledger's manifest lists them beside the root seed)
        self.family_counts: dict[str, int] = {}
        self.worst: dict[str, Worst] = {}
        self.counts = {"cases": 0, "assumption_not_met": 0, "inconclusive": 0}
        self.reasons: dict[str, list] = {"assumption_not_met": [], "inconclusive": []}
        self.notes: list[str] = []
        self.measurements: dict = {}
        self.control: dict | None = None
        self.ledger_entries: dict[str, dict] = {}
        #: how ``map`` runs work; the runner may swap in a parallel, checkpointing mapper
        self.mapper = lambda fn, items: [fn(item) for item in items]

    # -- running work ---------------------------------------------------------------------
    def map(self, fn, items) -> list:
        """``[fn(item) for item in items]``, in order; the runner may parallelise it.

        ``fn`` must be a module-level function and ``items``/results plain picklable data
        (cases, numbers, arrays, dicts), so batches can go to worker processes, be
        checkpointed and be resumed.  Keep all randomness inside ``fn``, drawn from the
        case seeds it is given.
        """
        return list(self.mapper(fn, list(items)))

    def control_context(self, suffix: str, *, clauses=None) -> "Context":
        """A fresh context for a negative control: same seed and budget, its own case
        stream (the claim id plus ``suffix``), and ``clauses`` if given."""
        changes = {"id": f"{self.claim.id}:{suffix}"}
        if clauses is not None:
            changes["clauses"] = tuple(clauses)
        return Context(dataclasses.replace(self.claim, **changes), seed=self.seed,
                       budget=self.budget)

    # -- drawing cases --------------------------------------------------------------------
    def n(self, standard: int, *, minimum: int = 1) -> int:
        """How many cases to draw for a family whose standard-budget size is ``standard``."""
        if self._override is not None:
            return max(minimum, self._override)
        return max(minimum, int(math.ceil(standard * BUDGET_SCALE[self.budget])))

    def cases(self, n: int, family: str) -> list[Case]:
        """``n`` cases of ``family`` (in replay mode: only the replayed case, if it is this family)."""
        if self.replay is not None:
            return [self.replay] if self.replay.family == family else []
        index = self._families.setdefault(family, len(self._families))
        fam = np.random.SeedSequence(self._root.entropy, spawn_key=self._root.spawn_key + (index,))
        seeds = [int(child.generate_state(1, np.uint64)[0] >> np.uint64(1))
                 for child in fam.spawn(n)]
        self.counts["cases"] += n
        self.family_counts[family] = self.family_counts.get(family, 0) + n
        return [Case(family, s) for s in seeds]

    # -- reporting ------------------------------------------------------------------------
    def record(self, clause: str, slack, case: Case, **detail) -> None:
        """Report one evaluation of ``clause`` on ``case``; ``slack ≥ 0`` means it held.

        ``slack`` may be an array (many evaluations within the case); its minimum counts.
        NaN slack is a defect in the check and raises.
        """
        arr = np.asarray(slack, dtype=np.float64)
        if arr.size == 0:
            return
        if np.any(np.isnan(arr)):
            raise ValueError(f"{self.claim.id}/{clause}: NaN slack for case {case}")
        low = float(arr.min())
        w = self.worst.get(clause)
        if w is None:
            w = self.worst[clause] = Worst(math.inf, case.family, case.seed)
        w.evaluated += 1
        w.violations += int(low < 0)
        if low < w.slack:
            w.slack, w.family, w.seed = low, case.family, case.seed
            w.detail = {k: _plain(v) for k, v in detail.items()}

    def assumption_not_met(self, case: Case, reason: str) -> None:
        self.counts["assumption_not_met"] += 1
        self.reasons["assumption_not_met"].append(f"{case.family}/{case.seed}: {reason}")

    def inconclusive(self, case: Case, reason: str) -> None:
        self.counts["inconclusive"] += 1
        self.reasons["inconclusive"].append(f"{case.family}/{case.seed}: {reason}")

    def ledger(self, case: Case, **digests) -> None:
        """Record content hashes (see :func:`digest`) of a case's data, initial and final W."""
        self.ledger_entries.setdefault(f"{case.family}/{case.seed}", {}).update(digests)

    def note(self, text: str) -> None:
        self.notes.append(text)

    def measure(self, name: str, value) -> None:
        """A measured quantity reported beside the verdict (looseness, sharp constants, ...)."""
        self.measurements[name] = _plain(value)

    def negative_control(self, caught: bool, description: str, **detail) -> None:
        """Record whether the deliberately false variant was caught (must be, to exit 0)."""
        self.control = {"caught": bool(caught), "description": description,
                        **{k: _plain(v) for k, v in detail.items()}}


def digest(array) -> str:
    """Short content hash of an array (dtype, shape and bytes) for the reproducible ledger."""
    arr = np.ascontiguousarray(array)
    h = hashlib.sha256(f"{arr.dtype.str}{arr.shape}".encode())
    h.update(arr.tobytes())
    return h.hexdigest()[:16]


def _plain(value):
    """JSON-friendly version of numpy scalars and arrays."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, (np.floating, np.integer, np.bool_)):
        return value.item()
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


@dataclass
class CheckResult:
    """The runner's verdict on one claim (serialised into ``claims.json``)."""

    id: str
    statement: str
    reference: str
    verdict: str
    cases: int
    worst_slack: float | None
    worst_seed: int | None
    negative_control_caught: bool | None
    notes: list
    seconds: float
    clauses: dict = field(default_factory=dict)
    worst_family: str | None = None
    reproduce: str | None = None
    measurements: dict = field(default_factory=dict)
    negative_control: dict | None = None
    counts: dict = field(default_factory=dict)
    error: str | None = None
    ledger: dict = field(default_factory=dict)
    #: cases drawn per family
    families: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return _plain(asdict(self))

    @property
    def ok(self) -> bool:
        return self.verdict == "PASS" and bool(self.negative_control_caught)


def verdict_of(ctx: Context) -> str:
    """FAIL if any clause was violated; PASS if every required clause was evaluated; else why not."""
    if any(w.slack < 0 for w in ctx.worst.values()):
        return "FAIL"
    missing = [c for c in ctx.claim.clauses if c not in ctx.worst]
    if ctx.worst and not missing:
        return "PASS"
    if ctx.worst and ctx.replay is None:
        ctx.note(f"clauses never evaluated: {', '.join(missing)}")
        return "INCONCLUSIVE"
    if ctx.worst:  # a replayed case need not touch every clause
        return "PASS"
    if ctx.counts["inconclusive"]:
        return "INCONCLUSIVE"
    return "ASSUMPTION-NOT-MET"
