"""Human labels of a dataset, read from ``data/datasets/<dataset>/labels/`` (CSV, JSONL,
XLSX): who judged which answer of which bot version, on what, and how. Every problem is
named with its file, line (Excel: row) and field; the valid rows of a file with bad rows
are kept, and a bad file never hides the labels of the others."""

from __future__ import annotations

import csv
import io
import json
import math
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Annotated

import pandas as pd
from pydantic import BaseModel, Field, StringConstraints, ValidationError, ValidationInfo, field_validator

from ragpipe.core.config import load_config
from ragpipe.core.inputs.bot_config import BOT_KEY
from ragpipe.core.inputs.files import candidates, decode, read_bytes
from ragpipe.core.inputs.questions import without_guard, xlsx_records
from ragpipe.core.schemas import InputError

LABEL_SUFFIXES = (".csv", ".jsonl", ".xlsx")


@dataclass(frozen=True)
class Kind:
    """What a label judges: the metric it speaks to and the scale of its values."""

    metric: str
    scale: tuple[int, int] | None  # a rating's range; None for a yes/no judgement
    positive: bool | None = None   # for yes/no: the value that is the failure a metric should catch
    dimension: str | None = None   # a field of the metric's details instead of its value

    @property
    def binary(self) -> bool:
        return self.scale is None


KINDS = {
    "hallucinated": Kind("faithfulness", None, positive=True),
    "answer_correct": Kind("answer_correctness", None, positive=False),
    "supported": Kind("faithfulness", None, positive=False),  # one statement, by its index
    "rating": Kind("llm_judge", (1, 5)),
    "rubric": Kind("rubric_1_10", (1, 10)),
    **{d: Kind("rubric_1_10", (1, 10), dimension=d) for d in ("accuracy", "completeness", "clarity")},
}
# Accepted column names, English and Chinese.
ALIASES = {
    "question_id": "question_id", "id": "question_id", "问题编号": "question_id", "编号": "question_id",
    "bot_version": "bot_version", "bot": "bot_version", "版本": "bot_version", "机器人版本": "bot_version",
    "judged": "judged", "label": "judged", "评判项": "judged", "标注项": "judged",
    "value": "value", "值": "value", "标注值": "value",
    "statement": "statement", "statement_index": "statement", "陈述序号": "statement",
    "annotator": "annotator", "标注人": "annotator",
    "note": "note", "备注": "note",
    "time": "time", "labelled_at": "time", "时间": "time",
}
YES = {"true", "yes", "1", "y", "是", "对", "支持", "正确"}
NO = {"false", "no", "0", "n", "否", "错", "不支持", "错误"}
Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]


class Label(BaseModel):
    question_id: Name
    bot_version: Name
    judged: str
    value: float
    statement: int | None = Field(default=None, ge=0, validate_default=True, description="index of the statement, for `supported`")
    annotator: Name
    note: str = Field(default="", max_length=4000)
    time: datetime | None = None
    source: str = Field(description="file and line the label came from")

    @field_validator("bot_version")
    @classmethod
    def _bot_key(cls, value: str) -> str:
        if not BOT_KEY.fullmatch(value):
            raise ValueError("expected <bot>@<version>, as the bot config's file name")
        return value

    @field_validator("judged")
    @classmethod
    def _kind(cls, value: str) -> str:
        value = value.strip().lower()
        if value not in KINDS:
            raise ValueError(f"unknown {value!r}; expected one of {', '.join(KINDS)}")
        return value

    @field_validator("value", mode="before")
    @classmethod
    def _on_scale(cls, value, info: ValidationInfo):
        kind = KINDS.get(info.data.get("judged"))
        if kind is None:  # judged is wrong already: that is the problem to report, not the value
            return 0.0
        if kind.binary and not isinstance(value, (int, float)):
            text = str(value).strip().lower()
            value = 1.0 if text in YES else 0.0 if text in NO else value
        low, high = kind.scale or (0, 1)
        try:
            number = float(value)
        except (TypeError, ValueError):
            number = math.nan
        if not (number == int(number) and low <= number <= high if math.isfinite(number) else False):
            expected = "yes or no (true/false, 1/0, 是/否)" if kind.binary else f"a whole number from {low} to {high}"
            raise ValueError(f"{value!r} is not {expected} for {info.data['judged']}")
        return number

    @field_validator("statement")
    @classmethod
    def _statement_of_supported(cls, value, info: ValidationInfo):
        if (info.data.get("judged") == "supported") != (value is not None) and "judged" in info.data:
            raise ValueError("a statement index goes with `supported` labels, and only with them")
        return value


def _json_lines(path: Path, raw: bytes) -> list[tuple[int, object]]:
    """(line, value) of each non-blank line; a line that is no JSON or no text (one torn by a
    crash, inside a character) is a problem of its own, as an InputError in place of its
    value, and loses no other line."""
    try:
        lines: list[str | InputError] = decode(path, raw).split("\n")
    except InputError:  # decode line by line: the bad one is named and the others are kept
        lines = []
        for n, chunk in enumerate(raw.split(b"\n"), start=1):
            try:
                lines.append(decode(path, chunk))
            except InputError as exc:
                lines.append(InputError(str(path), exc.field, exc.problem, n))
    records = []
    for n, line in enumerate(lines, start=1):
        if isinstance(line, InputError):
            records.append((n, line))
        elif line.strip():
            try:
                records.append((n, json.loads(line)))
            except (json.JSONDecodeError, RecursionError) as exc:
                records.append((n, InputError(str(path), "json", f"invalid JSON: {getattr(exc, 'msg', exc)}", n)))
    return records


def _csv_rows(path: Path, text: str) -> list[tuple[int, object]]:
    """(line, row) of each CSV record; a malformed record (a quote left open, which would
    swallow every row after it) is a problem of its own, and reading goes on at the line
    after the one it starts on, with the same header."""
    lines = io.StringIO(text, newline="").readlines()
    records, fields, skip = [], None, 0  # skip: lines before the part being read
    while skip < len(lines):
        reader = csv.DictReader(io.StringIO("".join(lines[skip:]), newline=""), fieldnames=fields, strict=True)
        done = 0  # lines of this part read without a problem
        try:
            fields = reader.fieldnames  # the header, read from the first part
            done = reader.line_num
            for row in reader:
                records.append((skip + reader.line_num, {k: without_guard(v) for k, v in row.items()}))
                done = reader.line_num
            break
        except csv.Error as exc:
            start = skip + done + 1
            hint = " (a quote left open?)" if "end of data" in str(exc) else ""
            records.append((start, InputError(str(path), "csv", f"malformed CSV in the record starting here: "
                                                                f"{exc}{hint}", line=start)))
            if fields is None:  # no header: nothing to read the rows by
                break
            skip = start
    return records


def _fields(record: dict) -> dict:
    out = {}
    for key, value in record.items():
        field = ALIASES.get(str(key).strip().lower()) if key is not None else None
        if field is not None and value is not None and value != "":
            out[field] = value
    return out


def read_label_file(path: Path, root: Path) -> tuple[list[Label], list[InputError]]:
    """The valid labels of one file and the problems of the others."""
    try:
        raw = read_bytes(path, root, load_config().limits.max_file_bytes)
        if path.suffix.lower() == ".xlsx":
            records = xlsx_records(path, raw)
        elif path.suffix.lower() == ".jsonl":
            records = _json_lines(path, raw)
        else:
            records = _csv_rows(path, decode(path, raw))
    except InputError as exc:
        return [], [exc]
    labels, problems = [], []
    for index, (line, record) in enumerate(records):
        where = line if line is not None else index + 1
        if isinstance(record, InputError):
            problems.append(record)
            continue
        if not isinstance(record, dict):
            problems.append(InputError(str(path), "label", "expected an object", line=where))
            continue
        try:
            labels.append(Label.model_validate({**_fields(record), "source": f"{path.name}:{where}"}))
        except ValidationError as exc:
            problems.extend(InputError(str(path), ".".join(str(p) for p in err["loc"]) or "label",
                                       err["msg"].removeprefix("Value error, "), line=where)
                            for err in exc.errors())
    return labels, problems


def label_files(dataset_dir: Path) -> list[Path]:
    folder = dataset_dir / "labels"
    return candidates(folder, LABEL_SUFFIXES) if folder.is_dir() else []


COLUMNS = list(Label.model_fields)


def load_labels(dataset_dir: Path, question_ids: set[str] | None = None) -> tuple[pd.DataFrame, list[InputError]]:
    """Every valid label of a dataset as a frame (one row per label, in file order) and
    every problem; a label naming a question the question set lacks is a problem."""
    labels, problems = [], []
    for path in label_files(dataset_dir):
        loaded, file_problems = read_label_file(path, dataset_dir)
        problems.extend(file_problems)
        for label in loaded:
            if question_ids is not None and label.question_id not in question_ids:
                problems.append(InputError(str(path), "question_id", f"no question {label.question_id!r} in the "
                                           "dataset's question set", int(label.source.rsplit(":", 1)[1])))
            else:
                labels.append(label.model_dump())
    return pd.DataFrame(labels, columns=COLUMNS), problems
