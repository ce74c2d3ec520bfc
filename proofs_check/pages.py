"""Reviewer pages ``docs/claims/<id>.md``: a hand-written part and a part generated from data.

Everything between :data:`BEGIN` and :data:`END` in a page is generated from the report
(``claims.json``) by :func:`generated_section` — verdict, evidence, counts, every clause's
worst slack, unit, distribution and worst case, the negative control, measurements, notes,
content hash — so no number on a page can drift from the data.  Everything outside the
markers is the hand-written part (statement, what is checked, why the control is a control,
proof sketches) and is kept as it is.  A page without markers gets the section appended.
The hand-written part quotes no number from a run: it names a measured entry (rendered by
:func:`measured_lines`, the same for every claim) and the reader finds the value below;
``tests/test_page_numbers.py`` enforces that.

Each claim with recorded slack distributions also gets ``<id>.slacks.png`` beside its page
(needs matplotlib; the page's text does not depend on whether it is installed).  A claim
that measures ``cstar_over_ck`` (per-case brackets of a net's own sharp constant over the
sharp constant of its width, ``thm5.1``) also gets ``<id>.cstar.png``.

Regenerate: ``python -m proofs_check --from docs/claims.json --pages docs/claims``;
:func:`stale_pages` is what the test uses to fail on a stale section.
"""
from __future__ import annotations

import json
from pathlib import Path

from . import report
from .engine.io import atomic_write

__all__ = ["BEGIN", "END", "generated_section", "render_page", "stale_pages", "update_pages",
           "plot_slacks", "plot_name", "measured_lines", "cstar_plot_name", "plot_cstar"]

BEGIN = "<!-- generated:begin -->"
END = "<!-- generated:end -->"
_HOWTO = ("<!-- Generated from docs/claims.json by `python -m proofs_check --from "
          "docs/claims.json --pages docs/claims`; edits between the markers are overwritten. -->")


def plot_name(claim_id: str) -> str:
    return f"{claim_id}.slacks.png"


def cstar_plot_name(claim_id: str) -> str:
    return f"{claim_id}.cstar.png"


def _has_cstar(claim: dict) -> bool:
    return bool((claim.get("measurements") or {}).get("cstar_over_ck", {}).get("brackets"))


def _has_distribution(claim: dict) -> bool:
    return any(w.get("distribution", {}).get("quantiles") for w in claim["clauses"].values())


def _f(x, digits=4):
    if isinstance(x, (bool, int)):
        return str(x)
    v = report.number(x)
    return "—" if v is None else f"{v:.{digits}g}"


def _rounded(value):
    """``value`` with floats at 4 significant digits (for reading; the JSON keeps all)."""
    if isinstance(value, float):
        return float(f"{value:.4g}") if abs(value) != float("inf") and value == value else value
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_rounded(v) for v in value]
    return value


#: dicts of scalars with more entries than this are printed on one line, and lists of
#: strings longer than this are counted, not printed
_INLINE = 6


def _scalar(value) -> bool:
    return value is None or isinstance(value, (bool, int, float, str))


def _shown(value) -> str:
    """A scalar, or a list of scalars, for reading (floats at 4 significant digits)."""
    if isinstance(value, str):
        return value
    if value is None:
        return "—"
    if isinstance(value, list) and all(_scalar(v) for v in value):
        if len(value) > _INLINE and any(isinstance(v, str) for v in value):
            return f"{len(value)} entries (listed in claims.json)"
        return "[" + ", ".join(_shown(v) for v in value) + "]"
    if report.number(value) is not None:
        return _f(value)
    return f"`{json.dumps(report.strict(_rounded(value)))}`"


def measured_lines(name: str, value, depth: int = 0) -> list:
    """One measured entry as a (nested) Markdown bullet list: ``name: value`` for a scalar or
    a list of scalars, a line per key for a dict (one line for a dict of many scalars), the
    JSON text for anything else; generic, so any claim's measurements render the same way."""
    pad = "  " * depth
    if isinstance(value, dict) and value:
        if len(value) > _INLINE and all(_scalar(v) for v in value.values()):
            return [f"{pad}- `{name}`: " + "; ".join(f"{k} = {_shown(v)}"
                                                      for k, v in value.items())]
        if depth < 3:
            out = [f"{pad}- `{name}`:"]
            for k, v in value.items():
                out += measured_lines(str(k), v, depth + 1)
            return out
    return [f"{pad}- `{name}`: {_shown(value)}"]


def generated_section(doc: dict, claim: dict) -> str:
    """The generated part of ``claim``'s page (Markdown, without the markers)."""
    cid, counts = claim["id"], claim.get("counts", {})
    lines = [_HOWTO, "", f"## Results (generated: budget `{doc['budget']}`, seed "
                         f"`{doc['seed']}`)", ""]
    lines.append(f"- **Verdict: {claim['verdict']}**; evidence strength: "
                 f"{claim.get('evidence') or '—'}.")
    few = report.fewest_evaluations(claim)
    if claim["verdict"] == "PASS" and few is not None and few < report.FEW_WITNESSES:
        lines.append(f"- ⚠ This PASS rests on few witnesses: its least-evaluated clause was "
                     f"evaluated {few} time(s) (fewer than {report.FEW_WITNESSES}).")
    families = ", ".join(f"`{f}` {n}" for f, n in (claim.get("families") or {}).items())
    lines.append(f"- Cases tried: {claim['cases']}" + (f" ({families})" if families else "")
                 + f"; evaluated: {_f(counts.get('evaluated'))}; inconclusive: "
                   f"{_f(counts.get('inconclusive_cases'))}; hypothesis not met: "
                   f"{_f(counts.get('assumption_not_met_cases'))} (cases; one case can be in "
                   f"several of these). Declarations: {_f(counts.get('inconclusive'))} "
                   f"inconclusive, {_f(counts.get('assumption_not_met'))} not met.")
    nc = claim.get("negative_control")
    if nc:
        detail = {k: v for k, v in nc.items() if k not in ("caught", "description")}
        lines.append(f"- Negative control {'caught' if nc['caught'] else '**NOT caught**'}: "
                     f"{nc['description']}" + ("; what it recorded:" if detail else "."))
        for k, v in detail.items():
            lines += measured_lines(k, v, 1)
    sha = doc["manifest"]["claims"].get(cid, {}).get("ledger_sha256")
    if sha:
        lines.append(f"- Content hashes: {len(claim['ledger'])} cases in the ledger, "
                     f"SHA-256 `{sha[:16]}`.")
    if claim.get("reproduce"):
        lines.append(f"- Reproduce the worst case: `{claim['reproduce']}`")
    if claim["clauses"]:
        lines += ["", "| clause | worst slack | unit | 5% | median | 95% | evaluated | "
                      "violations | evidence | worst case |", "|---" * 10 + "|"]
        for name, w in claim["clauses"].items():
            q = dict((lv, v) for lv, v in w.get("distribution", {}).get("quantiles", []))
            unit = report.unit_cell(w.get("slack_unit"))
            lines.append(f"| `{name}` | {_f(w['worst_slack'])} | {unit} | "
                         f"{_f(q.get(0.05))} | {_f(q.get(0.5))} | {_f(q.get(0.95))} | "
                         f"{w['evaluated']} | {_f(w.get('violations'))} | "
                         f"{w.get('evidence') or '—'} | `{w['family']}` seed {w['seed']} |")
    if claim.get("measurements"):
        lines += ["", "Measured (4 significant digits, every entry in full in claims.json; "
                      "the claim module defines what each one is):", ""]
        for k, v in claim["measurements"].items():
            lines += measured_lines(k, v)
    if claim.get("notes"):
        lines += ["", "Notes from the check:", ""] + [f"- {n}" for n in claim["notes"]]
    if claim.get("error"):
        lines += ["", "```", claim["error"], "```"]
    if _has_distribution(claim):
        lines += ["", f"![Distribution of each clause's slack over its evaluations]"
                      f"({plot_name(cid)})"]
    if _has_cstar(claim):
        lines += ["", f"![Each certified net's own sharp constant c*(W) over c_k(α): exact "
                      f"witness below, certificate above]({cstar_plot_name(cid)})"]
    return "\n".join(lines)


def render_page(text: str, section: str) -> str:
    """``text`` with its generated part replaced by ``section`` (appended if it has none)."""
    block = f"{BEGIN}\n{section}\n{END}"
    if BEGIN in text and END in text.split(BEGIN, 1)[1]:
        head, rest = text.split(BEGIN, 1)
        tail = rest.split(END, 1)[1]
        return head + block + tail
    return text.rstrip("\n") + "\n\n" + block + "\n"


def _page(directory: Path, cid: str) -> Path:
    return directory / f"{cid}.md"


def stale_pages(doc: dict, directory) -> list:
    """Ids of claims whose page in ``directory`` is missing or whose generated part is stale."""
    directory = Path(directory)
    stale = []
    for claim in doc["claims"]:
        path = _page(directory, claim["id"])
        if not path.exists():
            stale.append(claim["id"])
            continue
        text = path.read_text()
        if render_page(text, generated_section(doc, claim)) != text:
            stale.append(claim["id"])
    return stale


def update_pages(doc: dict, directory) -> list:
    """Rewrite the generated part (and the slack plot) of every claim's page; what was done."""
    directory = Path(directory)
    done = []
    for claim in doc["claims"]:
        path = _page(directory, claim["id"])
        text = path.read_text() if path.exists() else f"# `{claim['id']}`\n"
        new = render_page(text, generated_section(doc, claim))
        if new != text:
            atomic_write(path, new)
            done.append(f"updated {path}")
        if _has_distribution(claim):
            done.append(plot_slacks(claim, directory / plot_name(claim["id"])))
        if _has_cstar(claim):
            done.append(plot_cstar(claim, directory / cstar_plot_name(claim["id"])))
    return done


def plot_slacks(claim: dict, path) -> str:
    """The quantile plot of each clause's slack distribution, as a PNG (needs matplotlib)."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        return f"skipped {path}: matplotlib is not installed"
    fig = Figure(figsize=(6.4, 3.6), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    for name, w in claim["clauses"].items():
        pts = [(lv, report.number(v)) for lv, v in w.get("distribution", {}).get("quantiles", [])]
        pts = [(lv, v) for lv, v in pts if v is not None and abs(v) != float("inf")]
        if pts:
            unit = f" [{w['slack_unit']}]" if w.get("slack_unit") else ""
            ax.plot([v for _, v in pts], [lv for lv, _ in pts], marker="o", markersize=3,
                    drawstyle="steps-post", label=f"{name}{unit}")
    ax.axvline(0.0, color="0.3", linestyle="--", linewidth=1, label="slack 0 (clause fails left)")
    ax.set_xscale("symlog", linthresh=1e-12)
    ax.set_xlabel("slack (≥ 0: the clause held)")
    ax.set_ylabel("fraction of evaluations ≤ slack")
    ax.set_title(f"{claim['id']}: slack distribution over evaluations")
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    fig.savefig(path, format="png", metadata={"Software": None})
    return f"wrote {path}"


def plot_cstar(claim: dict, path) -> str:
    """Per case, the bracket of c*(W)/c_k(α): the exact witness's lower end (a dot; hollow
    when no disagreement was found, a square when c*(W) = 0 was decided exactly) and the
    certified upper end (the bar's top), cases
    sorted by the lower end; the line at 1 is the sharp constant of each net's width."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        return f"skipped {path}: matplotlib is not installed"
    m = claim["measurements"]["cstar_over_ck"]
    rows = sorted(m["brackets"], key=lambda b: (report.number(b["lo"]) or 0.0))
    lo = [report.number(b["lo"]) or 0.0 for b in rows]
    hi = [report.number(b["hi"]) for b in rows]
    fig = Figure(figsize=(6.4, 3.6), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    xs = range(len(rows))
    ax.vlines(xs, lo, hi, color="0.6", linewidth=1.5, label="bracket [witness, certificate]")
    found = [(x, v) for x, v in zip(xs, lo) if v > 0]
    ax.plot([x for x, _ in found], [v for _, v in found], "o", markersize=4, color="C0",
            label="exact witness (lower end)")
    none = [x for x, v, b in zip(xs, lo, rows) if v == 0 and not b.get("closed")]
    if none:
        ax.plot(none, [0.0] * len(none), "o", markersize=4, mfc="none", color="C0",
                label="no disagreement found")
    zero = [x for x, v, b in zip(xs, lo, rows) if v == 0 and b.get("closed")]
    if zero:
        ax.plot(zero, [0.0] * len(zero), "s", markersize=4, color="C2",
                label="c*(W) = 0 exactly (planar)")
    ax.axhline(1.0, color="C3", linestyle="--", linewidth=1, label="c_k(α) of the width")
    ax.set_ylim(-0.03, 1.4)
    ax.set_xlabel(f"certified random/loose nets ({m['cases']}), sorted by the lower end")
    ax.set_ylabel("c*(W) / c_k(α)")
    ax.set_title(f"{claim['id']}: each net's own sharp constant over c_k(α)")
    ax.legend(fontsize=7, loc="upper left", ncol=2)
    fig.tight_layout()
    fig.savefig(path, format="png", metadata={"Software": None})
    return f"wrote {path}"
