"""Import question sets from CSV, JSON, JSONL and Excel (.xlsx) files, reporting every
problem with its file, line (Excel: row) and field."""

from __future__ import annotations

import csv
import io
import json
import zipfile
from pathlib import Path

from pydantic import ValidationError

from ragpipe.core.config import load_config
from ragpipe.core.inputs.files import candidates, decode, json_lines, json_value, read_bytes
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
# A cell starting so is a formula to a spreadsheet (OWASP's CSV injection list).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


class _TooLarge(Exception):
    pass


def text_records(path: Path, text: str) -> list[tuple[int, object]]:
    """(line number, raw record) pairs."""
    suffix = path.suffix.lower()
    if suffix == ".jsonl":
        return json_lines(path, text)
    if suffix == ".json":
        data = json_value(path, text)
        if isinstance(data, dict) and isinstance(data.get("questions"), list):
            data = data["questions"]
        if not isinstance(data, list):
            raise InputError(str(path), "questions", "expected a list of question objects")
        return [(None, item) for item in data]
    # strict: a quote left open is an error, not a field that swallows every row after it
    reader = csv.DictReader(io.StringIO(text, newline=""), strict=True)
    records, start = [], 1
    try:
        for row in reader:
            records.append((reader.line_num, {k: without_guard(v) for k, v in row.items()}))
            start = reader.line_num + 1
    except csv.Error as exc:
        hint = " (a quote left open?)" if "end of data" in str(exc) else ""
        raise InputError(str(path), "csv", f"malformed CSV in the record starting here: {exc}{hint}",
                         line=start) from exc
    return records


def without_guard(value: object) -> object:
    """A cell as written before export guarded it against spreadsheet formulas (see no_formula)."""
    if isinstance(value, str) and value[:1] == "'" and value[1:2] and value[1] in FORMULA_STARTS:
        return value[1:]
    return value


def _cell(value: object) -> object:
    """Excel types its cells; the importer wants text (an id 7 or an answer 5000 as typed)."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else value


# An XLSX file is a zip of XML: a few MB can expand to gigabytes and tens of millions of
# cells. What it may expand to is bounded before openpyxl parses it, and rows and cells
# while it does (empty rows and the columns before a cell count too).
XLSX_EXPANSION = 10  # uncompressed, at most this many times limits.max_file_bytes
MAX_XLSX_ROWS = 100_000
MAX_XLSX_CELLS = 1_000_000


def _xlsx_expands_to(raw: bytes) -> int:
    """The uncompressed size of every part of the workbook, as its zip declares them
    (zipfile reads no more than a part declares)."""
    with zipfile.ZipFile(io.BytesIO(raw)) as archive:
        return sum(info.file_size for info in archive.infolist())


def xlsx_records(path: Path, raw: bytes) -> list[tuple[int, object]]:
    """(row number, record) pairs of the first sheet; its first non-empty row is the header."""
    import openpyxl

    most = XLSX_EXPANSION * load_config().limits.max_file_bytes
    # openpyxl raises many kinds of errors on a damaged workbook (zip, XML, KeyError …):
    # to the user each is the same input problem
    try:
        if (size := _xlsx_expands_to(raw)) > most:
            raise _TooLarge(f"expands to {size:,} bytes, more than {most:,} ({XLSX_EXPANSION} × "
                            "limits.max_file_bytes): not read")
        workbook = openpyxl.load_workbook(io.BytesIO(raw), read_only=True, data_only=True)
        try:
            rows, cells = [], 0
            if workbook.worksheets:
                sheet = workbook.worksheets[0]
                sheet.reset_dimensions()  # a declared size (A1:XFD1048576) would pad every row to it
                for row in sheet.iter_rows(values_only=True):
                    cells += len(row)
                    if len(rows) == MAX_XLSX_ROWS or cells > MAX_XLSX_CELLS:
                        raise _TooLarge(f"more than {MAX_XLSX_ROWS:,} rows or {MAX_XLSX_CELLS:,} cells in its "
                                        "first sheet: not read")
                    rows.append(row)
        finally:
            workbook.close()
    except _TooLarge as exc:
        raise InputError(str(path), "xlsx", str(exc)) from None
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


def load_question_file(path: Path, root: Path | None = None) -> list[Question]:
    """The questions of one file, which must be a regular file inside ``root`` (default:
    its own folder)."""
    questions, problems = _parse_file(path, root or path.parent)
    if problems:
        raise InputErrors(problems)
    return questions


def _parse_file(path: Path, root: Path) -> tuple[list[Question], list[InputError]]:
    """The valid questions of a file and the problems of the others."""
    try:
        raw = read_bytes(path, root, load_config().limits.max_file_bytes)
        records = xlsx_records(path, raw) if path.suffix.lower() == ".xlsx" else text_records(path, decode(path, raw))
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


def question_files(dataset_dir: Path) -> list[Path]:
    """The question files under ``questions/`` (Excel lock files and hidden files left out)."""
    folder = dataset_dir / "questions"
    return candidates(folder, QUESTION_SUFFIXES) if folder.is_dir() else []


def load_questions(dataset_dir: Path, chunk_ids: set[str]) -> list[Question]:
    """All question files of a dataset; ids unique, ground-truth contexts must be known chunks."""
    paths = question_files(dataset_dir)
    if not paths:
        raise InputError(str(dataset_dir / "questions"), "questions",
                         f"no question files ({', '.join(QUESTION_SUFFIXES)})")
    return check_question_files(paths, dataset_dir, chunk_ids, str(dataset_dir / "questions"))


def check_question_files(paths: list[Path], root: Path | None, chunk_ids: set[str] | None,
                         where: str) -> list[Question]:
    """The questions of ``paths`` (each a regular file inside ``root``, default its own
    folder), checked as one set: ids unique across the files and, when ``chunk_ids`` is
    given, ground-truth contexts that name known chunks. InputErrors lists every problem,
    with ``where`` naming the set when it holds no question at all."""
    questions, problems, seen = [], [], {}
    for path in paths:
        if path.suffix.lower() not in QUESTION_SUFFIXES:
            problems.append(InputError(str(path), "file", f"expected one of {', '.join(QUESTION_SUFFIXES)}"))
            continue
        loaded, file_problems = _parse_file(path, root or path.parent)
        problems.extend(file_problems)
        for q in loaded:
            line = int(q.source.rsplit(":", 1)[1])
            if q.question_id in seen:
                problems.append(InputError(str(path), "id", f"duplicate id {q.question_id!r} (first in {seen[q.question_id]})", line))
            seen[q.question_id] = q.source
            unknown = unknown_contexts(q, chunk_ids, path, line) if chunk_ids is not None else None
            if unknown:
                problems.append(unknown)
            questions.append(q)
    if not questions and not problems:  # else it passes as "0 questions, no problems" and scoring fails
        problems.append(InputError(where, "questions", f"no questions in {', '.join(p.name for p in paths)}"))
    if problems:
        raise InputErrors(problems)
    return questions


EXPORT_FIELDS = ("id", "question", "ground_truth_answer", "ground_truth_contexts", "question_type", "origin")


def cells_of(q: Question) -> dict:
    """The question as cells: contexts joined with '|', no origin an empty cell."""
    return {"id": q.question_id, "question": q.question, "ground_truth_answer": q.ground_truth_answer,
            "ground_truth_contexts": "|".join(q.ground_truth_contexts), "question_type": q.question_type.value,
            "origin": q.origin or ""}


def json_of(q: Question) -> dict:
    """The question as a JSON record: contexts a list, no origin null."""
    return {**cells_of(q), "ground_truth_contexts": q.ground_truth_contexts, "origin": q.origin}


def no_formula(value: str) -> str:
    """A CSV cell that no spreadsheet runs as a formula (``=HYPERLINK(…)``, ``=cmd|…``):
    OWASP's advice, a leading quote; the importer takes it off again (see without_guard)."""
    return "'" + value if value.startswith(FORMULA_STARTS) else value


def set_text(cell, value: str) -> None:
    """A workbook cell holding ``value`` as text: openpyxl would store "=…" as a live formula."""
    cell.value = value or None
    if value:
        cell.data_type = "s"


def write_question_file(path: Path, questions: list[Question]) -> None:
    """Write questions in the format the suffix names (CSV and Excel join contexts with
    '|'); no cell of a CSV or Excel file is a live formula."""
    path.parent.mkdir(parents=True, exist_ok=True)
    suffix = path.suffix.lower()
    if suffix in (".json", ".jsonl"):
        records = [json_of(q) for q in questions]
        text = (json.dumps(records, ensure_ascii=False, indent=2) + "\n" if suffix == ".json"
                else "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
    elif suffix == ".xlsx":
        import openpyxl

        workbook = openpyxl.Workbook()
        sheet = workbook.active
        sheet.append(list(EXPORT_FIELDS))
        for row, q in enumerate(questions, start=2):
            for column, value in enumerate(cells_of(q).values(), start=1):
                set_text(sheet.cell(row, column), value)
        workbook.save(path)
        return
    elif suffix == ".csv":
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, fieldnames=EXPORT_FIELDS)
        writer.writeheader()
        writer.writerows({k: no_formula(v) for k, v in cells_of(q).items()} for q in questions)
        text = buffer.getvalue()
    else:
        raise InputError(str(path), "suffix", f"expected one of {', '.join(QUESTION_SUFFIXES)}")
    path.write_text(text, encoding="utf-8")
