"""What a check receives: :class:`Context` (budget, cases, reporting) and :func:`verdict_of`.

Case identity: each case has an integer ``seed`` (drawn from the run's root
``SeedSequence`` through ``spawn``) and a ``family`` name; ``np.random.default_rng(seed)``
inside that family reproduces the case exactly:
``python -m proofs_check --replay ID --family F --seed S``.

Negative controls: :meth:`Context.control_context` gives a control its own case stream;
:meth:`Context.negative_control` records whether it was caught **and what it evaluated**.
A control that evaluated no case, or left a drawn case unaccounted for (neither recorded,
nor hypothesis-not-met, nor inconclusive), makes the claim an ERROR, never "caught".
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field

import numpy as np

from .contract import ENGINE_CLAUSE, STRENGTHS, Case, Claim, plain, weakest

__all__ = ["BUDGET_SCALE", "AUDIT_PER_FAMILY", "Worst", "Context", "verdict_of",
           "control_problem", "engine_problem"]

#: how many cases a ``ctx.n(standard)`` request becomes under each budget
BUDGET_SCALE = {"quick": 0.2, "standard": 1.0, "thorough": 5.0}
#: engine audits: cases per family under each budget (``None``: every case)
AUDIT_PER_FAMILY = {"quick": 1, "standard": 2, "thorough": None}


@dataclass
class Worst:
    """The worst slack of one clause so far, the case that produced it, and the counts."""

    slack: float
    family: str
    seed: int
    detail: dict = field(default_factory=dict)
    evaluated: int = 0
    violations: int = 0
    #: evaluations per evidence strength
    evidence: dict = field(default_factory=dict)
    #: every evaluation's slack, in order (the report's slack distribution)
    values: list = field(default_factory=list, repr=False)

    @property
    def strength(self) -> str | None:
        return weakest(self.evidence)


class Context:
    """What a check receives: the budget, the case source, and the places to report."""

    def __init__(self, claim: Claim, *, seed: int, budget: str = "standard",
                 cases: int | None = None, replay: Case | None = None):
        if budget not in BUDGET_SCALE:
            raise ValueError(f"`budget` must be one of {sorted(BUDGET_SCALE)}, got {budget!r}")
        self.claim, self.seed, self.budget = claim, seed, budget
        #: the ``--cases`` override (cases per family), or ``None``
        self.cases_override, self.replay = cases, replay
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
        #: cases that recorded a clause, or were declared not met / inconclusive
        self.accounted: set = set()
        self.recorded: set = set()
        #: distinct cases declared not met / inconclusive (``counts`` counts declarations)
        self.declared: dict = {"assumption_not_met": set(), "inconclusive": set()}
        #: every case drawn, in order (what the engine audits sample from)
        self.drawn: list[Case] = []
        #: engine audits that disagreed with their reference (see :meth:`audit`)
        self.disagreements: list[dict] = []
        #: how ``map`` runs work; the runner may swap in a parallel, checkpointing mapper
        self.mapper = lambda fn, items: [fn(item) for item in items]

    # -- running work ---------------------------------------------------------------------
    def map(self, fn, items) -> list:
        """``[fn(item) for item in items]``, in order; the runner may parallelise it.

        ``fn`` must be a module-level function and ``items``/results plain data (numbers,
        str, lists, tuples, dicts, NumPy arrays, cases: what :mod:`proofs_check.engine.codec`
        encodes), so batches can go to worker processes, be
        checkpointed and be resumed.  Keep all randomness inside ``fn``, drawn from the
        case seeds it is given.
        """
        return list(self.mapper(fn, list(items)))

    def control_context(self, suffix: str, *, clauses=None) -> "Context":
        """A fresh context for a negative control: same seed and budget, its own case
        stream (the claim id plus ``suffix``), and ``clauses`` (names) if given."""
        changes = {"id": f"{self.claim.id}:{suffix}"}
        if clauses is None:  # a control judges the claim's clauses, not the engine audit
            clauses = [c for c in self.claim.clause_names if c != ENGINE_CLAUSE]
        changes["clauses"] = tuple(self.claim.clause(c) for c in clauses)
        return Context(dataclasses.replace(self.claim, **changes), seed=self.seed,
                       budget=self.budget)

    # -- drawing cases --------------------------------------------------------------------
    def n(self, standard: int, *, minimum: int = 1) -> int:
        """How many cases to draw for a family whose standard-budget size is ``standard``."""
        if self.cases_override is not None:
            return max(minimum, self.cases_override)
        return max(minimum, int(math.ceil(standard * BUDGET_SCALE[self.budget])))

    def cases(self, n: int, family: str) -> list[Case]:
        """``n`` cases of ``family`` (in replay mode: only the replayed case, if it is this family)."""
        if self.replay is not None:
            found = [self.replay] if self.replay.family == family else []
            self.drawn += found
            return found
        index = self._families.setdefault(family, len(self._families))
        fam = np.random.SeedSequence(self._root.entropy, spawn_key=self._root.spawn_key + (index,))
        seeds = [int(child.generate_state(1, np.uint64)[0] >> np.uint64(1))
                 for child in fam.spawn(n)]
        self.counts["cases"] += n
        self.family_counts[family] = self.family_counts.get(family, 0) + n
        drawn = [Case(family, s) for s in seeds]
        self.drawn += drawn
        return drawn

    def audit_sample(self, cases) -> list[Case]:
        """The cases the engine audits: the first :data:`AUDIT_PER_FAMILY` of each family
        (fixed by the seed: cases are drawn from it), every case under ``thorough``."""
        per = AUDIT_PER_FAMILY[self.budget]
        seen: dict = {}
        out = []
        for case in cases:
            seen[case.family] = seen.get(case.family, 0) + 1
            if per is None or seen[case.family] <= per:
                out.append(case)
        return out

    # -- reporting ------------------------------------------------------------------------
    def record(self, clause: str, slack, case: Case, *, evidence: str | None = None,
               **detail) -> None:
        """Report one evaluation of ``clause`` on ``case``; ``slack ≥ 0`` means it held.

        ``slack`` may be an array (many evaluations within the case); its minimum counts.
        ``evidence`` is this evaluation's strength (default: the clause's declared one); it
        may not exceed the declared strength.  NaN slack is a defect in the check and raises.
        """
        declared = self.claim.clause(clause).evidence
        evidence = declared if evidence is None else evidence
        if evidence not in STRENGTHS:
            raise ValueError(f"`evidence` must be one of {STRENGTHS}, got {evidence!r}")
        if STRENGTHS.index(evidence) > STRENGTHS.index(declared):
            raise ValueError(f"{self.claim.id}/{clause}: evidence {evidence!r} exceeds the "
                             f"declared {declared!r}")
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
        w.evidence[evidence] = w.evidence.get(evidence, 0) + 1
        w.values.append(low)
        self.recorded.add(case)
        self.accounted.add(case)
        if low < w.slack:
            w.slack, w.family, w.seed = low, case.family, case.seed
            w.detail = {k: plain(v) for k, v in detail.items()}

    def audit(self, quantity: str, engine, reference, case: Case, *, rtol: float,
              atol: float = 0.0, evidence: str | None = None) -> float:
        """Compare what the engine computed with a naive re-derivation of its definition.

        Records the :data:`~proofs_check.engine.contract.ENGINE_CLAUSE` with slack
        ``1 − max |engine − reference| / (atol + rtol·|reference|)`` (≥ 0 agrees; with a
        zero allowance, exact equality).  Shapes must match; NaN agrees only with NaN.  A
        disagreement is kept and the runner makes the claim an ERROR naming ``quantity``,
        the case and both values.  Returns the slack.
        """
        e = np.asarray(engine, dtype=np.float64)
        r = np.asarray(reference, dtype=np.float64)
        if e.shape != r.shape:
            slack, where = -math.inf, None
        else:
            both_nan = np.isnan(e) & np.isnan(r)
            with np.errstate(invalid="ignore"):  # inf − inf: equal infinities agree below
                err = np.where(both_nan | (e == r), 0.0, np.abs(e - r))
            err = np.where(np.isnan(err), math.inf, err)
            allowed = atol + rtol * np.abs(np.where(np.isfinite(r), r, 0.0))
            with np.errstate(divide="ignore", invalid="ignore"):
                ratio = np.where(err == 0, 0.0, err / allowed)
            ratio = np.where(np.isnan(ratio), math.inf, ratio)
            where = int(np.argmax(ratio)) if ratio.size else None
            slack = 1.0 - float(ratio.max()) if ratio.size else 1.0
        if slack < 0:
            flat_e, flat_r = e.ravel(), r.ravel()
            self.disagreements.append({
                "quantity": quantity, "family": case.family, "seed": case.seed,
                "engine": plain(flat_e[where] if where is not None else e),
                "reference": plain(flat_r[where] if where is not None else r),
                "index": where, "shapes": [list(e.shape), list(r.shape)]})
        self.record(ENGINE_CLAUSE, max(slack, -1e300), case, evidence=evidence,
                    quantity=quantity)
        return slack

    def assumption_not_met(self, case: Case, reason: str) -> None:
        self.counts["assumption_not_met"] += 1
        self.reasons["assumption_not_met"].append(f"{case.family}/{case.seed}: {reason}")
        self.accounted.add(case)
        self.declared["assumption_not_met"].add(case)

    def inconclusive(self, case: Case, reason: str) -> None:
        self.counts["inconclusive"] += 1
        self.reasons["inconclusive"].append(f"{case.family}/{case.seed}: {reason}")
        self.accounted.add(case)
        self.declared["inconclusive"].add(case)

    def ledger(self, case: Case, **digests) -> None:
        """Record content hashes (see :func:`~proofs_check.engine.contract.digest`)."""
        self.ledger_entries.setdefault(f"{case.family}/{case.seed}", {}).update(digests)

    def note(self, text: str) -> None:
        self.notes.append(text)

    def measure(self, name: str, value) -> None:
        """A measured quantity reported beside the verdict (looseness, sharp constants, ...)."""
        self.measurements[name] = plain(value)

    @property
    def evidence(self) -> str | None:
        """The weakest strength over the evaluated clauses (the engine audit aside)."""
        return weakest(w.strength for name, w in self.worst.items()
                       if w.strength and name != ENGINE_CLAUSE)

    def negative_control(self, caught: bool, description: str, *, controls, **detail) -> None:
        """Record whether the deliberately false variant was caught (must be, to exit 0).

        ``controls`` is the control's :class:`Context` (or a list of them) — what it
        evaluated is recorded, and a control that evaluated nothing is an ERROR — or, for a
        control that is not run through contexts, the plain number of cases it evaluated.
        """
        subs = controls if isinstance(controls, (list, tuple)) else [controls]
        evaluated = planned = unaccounted_total = 0
        for sub in subs:
            if isinstance(sub, Context):
                evaluated += len(sub.recorded)
                planned += sub.counts["cases"]
                unaccounted = sub.counts["cases"] - len(sub.accounted)
                unaccounted_total += max(0, unaccounted)
            else:
                evaluated += int(sub)
                planned += int(sub)
        clash = {"caught", "description", "evaluated", "planned"} & set(detail)
        if clash:
            raise ValueError(f"negative_control: {sorted(clash)} are the engine's fields")
        if unaccounted_total:
            detail["unaccounted"] = unaccounted_total
        self.control = {"caught": bool(caught), "description": description,
                        "evaluated": evaluated, "planned": planned,
                        **{k: plain(v) for k, v in detail.items()}}


def control_problem(ctx: Context) -> str | None:
    """Why ``ctx``'s negative control cannot count as caught, or ``None``."""
    c = ctx.control
    if c is None:
        return None if ctx.replay is not None else "the check ran no negative control"
    if c["evaluated"] == 0:
        return f"the negative control evaluated no case ({c['description']})"
    if c.get("unaccounted"):
        return (f"the negative control left {c['unaccounted']} of its {c['planned']} "
                f"drawn cases unaccounted for ({c['description']})")
    return None


def engine_problem(ctx: Context) -> str | None:
    """Why the engine audits make ``ctx``'s claim an ERROR (the first disagreement), or ``None``."""
    if not ctx.disagreements:
        return None
    d = ctx.disagreements[0]
    at = "" if d["index"] is None else f" (element {d['index']})"
    more = len(ctx.disagreements) - 1
    return (f"the engine disagrees with its definition: {d['quantity']} on case "
            f"{d['family']}/{d['seed']}{at}: engine {d['engine']!r}, reference "
            f"{d['reference']!r}" + (f"; and {more} more disagreement(s)" if more else ""))


def verdict_of(ctx: Context) -> str:
    """FAIL if any clause was violated; PASS if every required clause was evaluated; else why not."""
    if any(w.slack < 0 for w in ctx.worst.values()):
        return "FAIL"
    missing = [c for c in ctx.claim.clause_names if c not in ctx.worst]
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
