"""Named question sets and named evaluations (docs/evaluations.md).

A dataset's ``dataset.yaml`` may name question sets, each a list of question files inside
the dataset folder::

    question_sets:
      smoke: [sets/smoke.jsonl]

A named evaluation is one file ``data/evaluations/<name>.yaml`` that picks a dataset, one
of its question sets, and optionally the bot versions, the judge model and the metrics::

    dataset: policy_zh
    question_set: smoke
    bots: [refbot@v1, refbot@v2]   # default: every bot version
    judge_model: gpt-4o-mini       # default: RAGPIPE_LLM_MODEL
    metrics: [faithfulness]        # default: every metric
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ragpipe.core.schemas import InputError, InputErrors
from ragpipe.core.yaml_input import read_yaml

# A partition key of the `datasets` dimension (no | [ ] , : Dagster's multi-partition syntax).
EVALUATION_NAME = re.compile(r"^[A-Za-z0-9_.-]+$")
FIELDS = ("dataset", "question_set", "bots", "judge_model", "metrics")


@dataclass(frozen=True)
class Evaluation:
    name: str
    file: Path
    dataset: str
    question_set: str
    question_files: tuple[Path, ...]
    bots: tuple[str, ...] | None  # None: every bot version
    judge_model: str | None
    metrics: tuple[str, ...] | None  # None: every metric


def evaluation_files(data_dir: Path) -> list[Path]:
    root = data_dir / "evaluations"
    return sorted(p for p in root.glob("*.yaml") if p.is_file()) if root.is_dir() else []


def question_sets(dataset_dir: Path) -> dict[str, list[Path]]:
    """The dataset's named question sets: name -> its files, each checked to be a file
    inside the dataset folder."""
    meta_file = dataset_dir / "dataset.yaml"
    meta = read_yaml(meta_file) if meta_file.exists() else None
    sets = meta.get("question_sets") if isinstance(meta, dict) else None
    if sets is None:
        return {}
    if not isinstance(sets, dict):
        raise InputError(str(meta_file), "question_sets", "expected a mapping such as `smoke: [sets/smoke.jsonl]`")
    out, problems = {}, []
    for name, files in sets.items():
        field = f"question_sets.{name}"
        if not isinstance(files, list) or not files or not all(isinstance(f, str) for f in files):
            problems.append(InputError(str(meta_file), field, "expected a non-empty list of question files"))
            continue
        resolved = [(dataset_dir / f).resolve() for f in files]
        for given, path in zip(files, resolved):
            if not path.is_relative_to(dataset_dir.resolve()):
                problems.append(InputError(str(meta_file), field, f"{given} is outside the dataset folder"))
            elif not path.is_file():
                problems.append(InputError(str(meta_file), field, f"{given} is no file"))
        out[str(name)] = resolved
    if problems:
        raise InputErrors(problems)
    return out


def load_evaluation(path: Path, data_dir: Path, bots: list[str], metrics: list[str]) -> Evaluation:
    """The evaluation a file describes, checked against the dataset folders, the dataset's
    question sets, the registered ``bots`` and the known ``metrics``; InputErrors names the
    file and every bad field."""
    file = str(path)
    name = path.stem
    config = read_yaml(path)
    if not isinstance(config, dict):
        raise InputError(file, "evaluation", "expected a mapping with dataset and question_set")
    problems = []
    if not EVALUATION_NAME.fullmatch(name):
        problems.append(InputError(file, "name", "the file name must be letters, digits, _ . - only"))
    if (data_dir / "datasets" / name).is_dir():
        problems.append(InputError(file, "name", f"{name} is a dataset folder's own evaluation: pick another name"))
    problems += [InputError(file, key, f"unknown field (expected {', '.join(FIELDS)})")
                 for key in config if key not in FIELDS]
    dataset = config.get("dataset")
    dataset_dir = data_dir / "datasets" / str(dataset)
    files: list[Path] = []
    if not isinstance(dataset, str) or not EVALUATION_NAME.fullmatch(dataset) or not dataset_dir.is_dir():
        problems.append(InputError(file, "dataset", f"{dataset!r} is no folder under {data_dir / 'datasets'}"))
    else:
        sets = question_sets(dataset_dir)
        wanted = config.get("question_set")
        if wanted not in sets:
            known = ", ".join(sets) or "none; name them under question_sets: in its dataset.yaml"
            problems.append(InputError(file, "question_set", f"{wanted!r} is no question set of {dataset} ({known})"))
        else:
            files = sets[wanted]
    chosen = {}
    for field, known in (("bots", bots), ("metrics", metrics)):
        value = config.get(field)
        if value is None:
            chosen[field] = None
        elif not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
            problems.append(InputError(file, field, "expected a non-empty list of names"))
        elif unknown := [v for v in value if v not in known]:
            problems.append(InputError(file, field, f"unknown: {', '.join(unknown)} (known: {', '.join(known)})"))
        else:
            chosen[field] = tuple(value)
    judge = config.get("judge_model")
    if judge is not None and (not isinstance(judge, str) or not judge.strip()):
        problems.append(InputError(file, "judge_model", "expected a model name"))
    if problems:
        raise InputErrors(problems)
    return Evaluation(name=name, file=path, dataset=dataset, question_set=config["question_set"],
                      question_files=tuple(files), bots=chosen["bots"], judge_model=judge,
                      metrics=chosen["metrics"])
