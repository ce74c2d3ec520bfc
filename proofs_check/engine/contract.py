"""The claim contract: what a claim module must define, and what the runner returns.

A **claim module** (one per claim, in :mod:`proofs_check.claims`) defines

* ``CLAIM``: a :class:`Claim` — the statement in the project's words, its reference in
  ``docs/math.md``, the hypotheses the check verifies, how cases are drawn, its negative
  control, and its named clauses, each with the strength of evidence the check gives it;
* ``check(ctx)``: draws cases with :meth:`~proofs_check.engine.context.Context.cases`,
  reports per clause a slack normalised so that **≥ 0 means the clause held** (never
  stopping at the first failure), and runs its negative control.

:func:`validate` is what the registry applies on load; ``tests/test_contract.py`` walks the
registry and also demands a test and a docs page per claim.  ``docs/extending.md`` is the
walk-through.

Evidence strengths, weakest first (:data:`STRENGTHS`):

* ``observed`` — random sampling only (a universal statement held on the cases drawn);
* ``probed`` — an adversarial or targeted search found no violation;
* ``proved`` — every evaluated case carries a certificate that was re-checked
  independently of the code that found it.

A clause's strength is the weakest of its evaluations; a claim's, its weakest clause.
"""
from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass, field

import numpy as np

__all__ = ["VERDICTS", "STRENGTHS", "Clause", "Claim", "Case", "CheckResult", "validate",
           "weakest", "digest", "plain", "ENGINE_CLAUSE", "ENGINE"]

VERDICTS = ("PASS", "FAIL", "ASSUMPTION-NOT-MET", "INCONCLUSIVE", "ERROR")
#: evidence strengths, weakest first
STRENGTHS = ("observed", "probed", "proved")


def weakest(strengths) -> str | None:
    """The weakest of ``strengths`` (``None`` for none)."""
    found = [STRENGTHS.index(s) for s in strengths]
    return STRENGTHS[min(found)] if found else None


@dataclass(frozen=True)
class Clause:
    """One named conclusion a check evaluates, with the best evidence it can give it."""

    name: str
    #: what the slack measures, in one sentence (the report's clause legend)
    text: str = ""
    #: the strength the check's evaluations carry unless a record says otherwise
    evidence: str = "observed"
    #: the unit of this clause's slack (e.g. "relative error", "radians"); "" means the
    #: claim's :attr:`Claim.slack_unit`
    slack_unit: str = ""


#: the clause every claim records from its engine audits (:meth:`Context.audit`): the
#: quantities the check used, re-derived on a sample of its own cases by a second, naive
#: implementation.  It audits the machinery, not the claim: it has its own strength and is
#: left out of the claim's (a PASS also needs it evaluated; a disagreement is an ERROR).
ENGINE_CLAUSE = "engine_agrees"
ENGINE = Clause(ENGINE_CLAUSE, "1 − (largest |engine − reference| over its allowance) for "
                "every audited quantity; < 0: the engine disagrees with its definition",
                evidence="proved", slack_unit="fraction of each quantity's allowance")


@dataclass(frozen=True)
class Claim:
    """What a claim module checks (see the module docstring and ``docs/extending.md``)."""

    id: str
    statement: str
    reference: str
    hypotheses: str = ""
    cases: str = ""
    control: str = ""
    #: clauses that must each be evaluated on at least one case for a PASS; plain names
    #: are clauses with ``observed`` evidence
    clauses: tuple = ()
    #: the unit of the slacks of clauses that do not name their own (shown in the report)
    slack_unit: str = ""

    def __post_init__(self):
        object.__setattr__(self, "clauses", tuple(
            c if isinstance(c, Clause) else Clause(str(c)) for c in self.clauses))

    @property
    def clause_names(self) -> tuple:
        return tuple(c.name for c in self.clauses)

    def clause(self, name: str) -> Clause:
        """The declared clause ``name`` (an undeclared clause is observed evidence)."""
        return next((c for c in self.clauses if c.name == name), Clause(name))

    def unit(self, name: str) -> str:
        """The unit of clause ``name``'s slack: its own, else the claim's ("" if neither)."""
        return self.clause(name).slack_unit or self.slack_unit

    @property
    def evidence(self) -> str | None:
        """The weakest declared strength: what a PASS of this claim can at best mean."""
        return weakest(c.evidence for c in self.clauses if c.name != ENGINE_CLAUSE)


def validate(claim: Claim, module=None) -> Claim:
    """Raise ``TypeError``/``ValueError`` naming the field unless ``claim`` keeps the contract."""
    if not isinstance(claim, Claim):
        raise TypeError(f"`CLAIM` must be a proofs_check Claim, got {type(claim).__name__}")
    for name in ("id", "statement", "reference", "hypotheses", "cases", "control"):
        value = getattr(claim, name)
        if not isinstance(value, str) or not value.strip():
            raise ValueError(f"claim {claim.id!r}: `{name}` must be a non-empty string, "
                             f"got {value!r}")
    if not claim.clauses:
        raise ValueError(f"claim {claim.id!r}: `clauses` must name at least one clause")
    names = claim.clause_names
    if len(set(names)) != len(names):
        raise ValueError(f"claim {claim.id!r}: clause names must be unique, got {names}")
    if not isinstance(claim.slack_unit, str):
        raise TypeError(f"claim {claim.id!r}: `slack_unit` must be a str, got "
                        f"{type(claim.slack_unit).__name__}")
    for c in claim.clauses:
        if not isinstance(c.slack_unit, str):
            raise TypeError(f"claim {claim.id!r}, clause {c.name!r}: `slack_unit` must be a "
                            f"str, got {type(c.slack_unit).__name__}")
        if c.evidence not in STRENGTHS:
            raise ValueError(f"claim {claim.id!r}, clause {c.name!r}: `evidence` must be one "
                             f"of {STRENGTHS}, got {c.evidence!r}")
    if "docs/math.md" not in claim.reference:
        raise ValueError(f"claim {claim.id!r}: `reference` must cite its docs/math.md "
                         f"section, got {claim.reference!r}")
    if module is not None and not callable(getattr(module, "check", None)):
        raise TypeError(f"claim {claim.id!r}: its module must define `check(ctx)`")
    return claim


@dataclass(frozen=True)
class Case:
    """One reproducible case: ``rng = np.random.default_rng(seed)`` within ``family``."""

    family: str
    seed: int

    @property
    def rng(self) -> np.random.Generator:
        return np.random.default_rng(self.seed)


def digest(array) -> str:
    """Short content hash of an array (dtype, shape and bytes) for the reproducible ledger."""
    arr = np.ascontiguousarray(array)
    h = hashlib.sha256(f"{arr.dtype.str}{arr.shape}".encode())
    h.update(arr.tobytes())
    return h.hexdigest()[:16]


def plain(value):
    """JSON-friendly version of numpy scalars and arrays (recursively)."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, (np.floating, np.integer, np.bool_)):
        return value.item()
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
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
    #: the claim's achieved evidence strength (its weakest evaluated clause)
    evidence: str | None = None

    def to_dict(self) -> dict:
        return plain(asdict(self))

    @classmethod
    def from_dict(cls, doc: dict) -> "CheckResult":
        names = {f for f in cls.__dataclass_fields__}
        unknown = set(doc) - names
        if unknown:
            raise ValueError(f"not a CheckResult: unknown fields {sorted(unknown)}")
        return cls(**doc)

    @property
    def ok(self) -> bool:
        return self.verdict == "PASS" and bool(self.negative_control_caught)
