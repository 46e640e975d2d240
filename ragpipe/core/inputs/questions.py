"""Import question sets from CSV, JSON, JSONL and Excel (.xlsx) files, reporting every
problem with its file, line (Excel: row) and field."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from pydantic import ValidationError

from ragpipe.core.schemas import InputError, InputErrors, Question

QUESTION_SUFFIXES = (".csv", ".json", ".jsonl", ".xlsx")
# Accepted column names, English and Chinese, mapped to Question's fields.
ALIASES = {
    "id": "question_id", "question_id": "question_id", "编号": "question_id",
    "question": "question", "question_text": "question", "问题": "question",
    "ground_truth_answer": "ground_truth_answer", "ground_truth": "ground_truth_answer",
    "answer": "ground_truth_answer", "标准答案": "ground_truth_answer",
    "ground_truth_contexts": "ground_truth_contexts", "contexts": "ground_truth_contexts",
    "参考上下文": "ground_truth_contexts",
    "question_type": "question_type", "type": "question_type", "问题类型": "question_type",
    "origin": "origin", "来源": "origin",
}


def _decode(path: Path) -> str:
    raw = path.read_bytes()
    for encoding in ("utf-8-sig", "gb18030"):
        try:
            return raw.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise InputError(str(path), "encoding", "neither UTF-8 nor GBK text")


def _records(path: Path, text: str) -> list[tuple[int, object]]:
    """(line number, raw record) pairs."""
    suffix = path.suffix.lower()
    if suffix == ".jsonl":
        records = []
        for n, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                records.append((n, json.loads(line)))
            except json.JSONDecodeError as exc:
                raise InputError(str(path), "json", f"invalid JSON: {exc.msg}", line=n) from exc
            except RecursionError as exc:  # the decoder recurses once per nesting level
                raise InputError(str(path), "json", "nested too deeply", line=n) from exc
        return records
    if suffix == ".json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError(str(path), "json", f"invalid JSON: {exc.msg}", line=exc.lineno) from exc
        except RecursionError as exc:
            raise InputError(str(path), "json", "nested too deeply") from exc
        if isinstance(data, dict) and isinstance(data.get("questions"), list):
            data = data["questions"]
        if not isinstance(data, list):
            raise InputError(str(path), "questions", "expected a list of question objects")
        return [(None, item) for item in data]
    reader = csv.DictReader(io.StringIO(text, newline=""))
    try:
        return [(reader.line_num, row) for row in reader]
    except csv.Error as exc:
        raise InputError(str(path), "csv", f"malformed CSV: {exc}", line=reader.line_num) from exc


def _cell(value: object) -> object:
    """Excel types its cells; the importer wants text (an id 7 or an answer 5000 as typed)."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else value


def _xlsx_records(path: Path) -> list[tuple[int, object]]:
    """(row number, record) pairs of the first sheet; its first non-empty row is the header."""
    import openpyxl

    # openpyxl raises many kinds of errors on a damaged workbook (zip, XML, KeyError …):
    # to the user each is the same input problem
    try:
        workbook = openpyxl.load_workbook(path, read_only=True, data_only=True)
        try:
            rows = list(workbook.worksheets[0].iter_rows(values_only=True)) if workbook.worksheets else []
        finally:
            workbook.close()
    except Exception as exc:
        raise InputError(str(path), "xlsx", f"not a readable Excel workbook: {type(exc).__name__}: {exc}") from exc
    records, header = [], None
    for n, row in enumerate(rows, start=1):
        if all(v is None or str(v).strip() == "" for v in row):
            continue
        if header is None:
            header = [str(v).strip() if v is not None else None for v in row]
            continue
        records.append((n, {h: _cell(v) for h, v in zip(header, row) if h}))
    return records


def _normalise(record: dict) -> dict:
    out: dict = {}
    for key, value in record.items():
        field = ALIASES.get(str(key).strip().lower()) if key is not None else None
        if field is None or value is None or value == "":
            continue
        if field == "ground_truth_contexts" and isinstance(value, str):
            value = [v.strip() for v in value.replace(";", "|").split("|") if v.strip()]
        out[field] = value
    return out


def load_question_file(path: Path) -> list[Question]:
    questions, problems = _parse_file(path)
    if problems:
        raise InputErrors(problems)
    return questions


def _parse_file(path: Path) -> tuple[list[Question], list[InputError]]:
    """The valid questions of a file and the problems of the others."""
    try:
        records = _xlsx_records(path) if path.suffix.lower() == ".xlsx" else _records(path, _decode(path))
    except InputError as exc:
        return [], [exc]
    questions, problems = [], []
    for index, (line, record) in enumerate(records):
        where = line if line is not None else index + 1
        if not isinstance(record, dict):
            problems.append(InputError(str(path), "question", "expected an object", line=where))
            continue
        fields = _normalise(record)
        fields.setdefault("question_id", f"{path.stem}-{where}")
        fields["source"] = f"{path.name}:{where}"
        try:
            questions.append(validate_question(fields, path, where))
        except InputErrors as exc:
            problems.extend(exc.problems)
    return questions, problems


def validate_question(fields: dict, path: Path, line: int | None = None) -> Question:
    """A question from its fields; InputErrors naming the file, the line and each bad field."""
    try:
        return Question.model_validate(fields)
    except ValidationError as exc:
        raise InputErrors([InputError(str(path), ".".join(str(p) for p in err["loc"]) or "question", err["msg"],
                                      line=line) for err in exc.errors()]) from None


def unknown_contexts(question: Question, chunk_ids: set[str], path: Path, line: int | None = None) -> InputError | None:
    """The problem of ground-truth contexts that name no chunk of the corpus, if any."""
    unknown = [c for c in question.ground_truth_contexts if c not in chunk_ids]
    return InputError(str(path), "ground_truth_contexts", f"unknown chunk ids {unknown}", line) if unknown else None


def load_questions(dataset_dir: Path, chunk_ids: set[str]) -> list[Question]:
    """All question files of a dataset; ids unique, ground-truth contexts must be known chunks."""
    qdir = dataset_dir / "questions"
    paths = sorted(p for p in qdir.glob("*") if p.suffix.lower() in QUESTION_SUFFIXES) if qdir.is_dir() else []
    if not paths:
        raise InputError(str(qdir), "questions", f"no question files ({', '.join(QUESTION_SUFFIXES)})")
    questions, problems, seen = [], [], {}
    for path in paths:
        loaded, file_problems = _parse_file(path)
        problems.extend(file_problems)
        for q in loaded:
            line = int(q.source.rsplit(":", 1)[1])
            if q.question_id in seen:
                problems.append(InputError(str(path), "id", f"duplicate id {q.question_id!r} (first in {seen[q.question_id]})", line))
            seen[q.question_id] = q.source
            unknown = unknown_contexts(q, chunk_ids, path, line)
            if unknown:
                problems.append(unknown)
            questions.append(q)
    if problems:
        raise InputErrors(problems)
    return questions


EXPORT_FIELDS = ("id", "question", "ground_truth_answer", "ground_truth_contexts", "question_type", "origin")


def _export_record(q: Question) -> dict:
    return {"id": q.question_id, "question": q.question, "ground_truth_answer": q.ground_truth_answer,
            "ground_truth_contexts": q.ground_truth_contexts, "question_type": q.question_type.value,
            "origin": q.origin}


def write_question_file(path: Path, questions: list[Question]) -> None:
    """Write questions in the format the suffix names (CSV joins contexts with '|')."""
    records = [_export_record(q) for q in questions]
    path.parent.mkdir(parents=True, exist_ok=True)
    suffix = path.suffix.lower()
    if suffix == ".jsonl":
        text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
    elif suffix == ".json":
        text = json.dumps(records, ensure_ascii=False, indent=2) + "\n"
    elif suffix == ".xlsx":
        import openpyxl

        workbook = openpyxl.Workbook()
        sheet = workbook.active
        sheet.append(list(EXPORT_FIELDS))
        for r in records:
            sheet.append([r[f] if f != "ground_truth_contexts" else "|".join(r[f]) for f in EXPORT_FIELDS])
        workbook.save(path)
        return
    elif suffix == ".csv":
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, fieldnames=EXPORT_FIELDS)
        writer.writeheader()
        writer.writerows({**r, "ground_truth_contexts": "|".join(r["ground_truth_contexts"]),
                          "origin": r["origin"] or ""} for r in records)
        text = buffer.getvalue()
    else:
        raise InputError(str(path), "suffix", f"expected one of {', '.join(QUESTION_SUFFIXES)}")
    path.write_text(text, encoding="utf-8")
