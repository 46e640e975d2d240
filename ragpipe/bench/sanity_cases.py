"""The behavioural suite's cases: their files, schema and validation (`ragpipe bench sanity`
runs them; ragpipe_tests/data/behaviour/README.md states the schema and the thresholds)."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

from ragpipe.core.metrics import REGISTRY

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
