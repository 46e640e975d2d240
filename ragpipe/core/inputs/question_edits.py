"""Changing one question in its file while keeping what the importer does not read: the
other sheets, columns, keys, lines and formatting of the user's file. Only the fields that
changed are written, under the name the file already uses for each (``标准答案``,
``answer`` …), or under the export name in a new column or key."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from ragpipe.core.config import load_config
from ragpipe.core.inputs.files import decode, read_bytes
from ragpipe.core.inputs.questions import (ALIASES, cells_of, json_of, no_formula, set_text, text_records,
                                           write_question_file)
from ragpipe.core.schemas import Question


def replace_question(path: Path, questions: list[Question], index: int, new: Question | None) -> None:
    """``path``, which holds ``questions``, with the ``index``-th one replaced by ``new``
    (added when ``index`` is past the end), or deleted when ``new`` is None."""
    if not questions:  # a new or empty file: nothing to keep
        write_question_file(path, [new] if new is not None else [])
    elif path.suffix.lower() == ".xlsx":
        _replace_in_workbook(path, questions, index, new)
    else:
        _replace_in_text(path, questions, index, new)


def _changes(questions: list[Question], index: int, new: Question, as_json: bool) -> dict:
    """The fields of ``new`` that differ from the question it replaces (all, when added)."""
    record = json_of if as_json else cells_of
    old = record(questions[index]) if index < len(questions) else {}
    return {name: value for name, value in record(new).items() if value != old.get(name, None if as_json else "")}


def _named(record: dict, changes: dict) -> dict:
    """``record`` with ``changes`` set under the keys it already uses for those fields."""
    keys = {ALIASES.get(str(k).strip().lower()): k for k in record if k is not None}
    return {**record, **{keys.get(ALIASES[name], name): value for name, value in changes.items()}}


def _replace_in_text(path: Path, questions: list[Question], index: int, new: Question | None) -> None:
    suffix = path.suffix.lower()
    text = decode(path, read_bytes(path, path.parent, load_config().limits.max_file_bytes))
    records = text_records(path, text)  # one per question: the file loaded without problems
    changes = _changes(questions, index, new, suffix != ".csv") if new is not None else {}
    if suffix == ".jsonl":  # only the question's own line changes
        lines = text.split("\n")
        if index == len(records):
            lines.insert(len(lines) - 1 if lines[-1] == "" else len(lines), json.dumps(changes, ensure_ascii=False))
        elif new is None:
            del lines[records[index][0] - 1]
        else:
            lines[records[index][0] - 1] = json.dumps(_named(records[index][1], changes), ensure_ascii=False)
        text = "\n".join(lines)
    else:
        rows = [record for _, record in records]
        rows[index:index + 1] = [] if new is None else [_named(rows[index] if index < len(rows) else {}, changes)]
        if suffix == ".json":
            data = json.loads(text)
            if isinstance(data, dict):  # {"questions": [...], …}: the other keys stay
                data["questions"] = rows
            text = json.dumps(data if isinstance(data, dict) else rows, ensure_ascii=False, indent=2) + "\n"
        else:
            fields = list(dict.fromkeys(k for row in [csv.DictReader(io.StringIO(text)).fieldnames or [], *rows]
                                        for k in row if k is not None))
            buffer = io.StringIO()
            writer = csv.DictWriter(buffer, fieldnames=fields, extrasaction="ignore")
            writer.writeheader()
            writer.writerows({k: no_formula(v) if isinstance(v, str) else v for k, v in row.items()} for row in rows)
            text = buffer.getvalue()
    path.write_text(text, encoding="utf-8")


def _replace_in_workbook(path: Path, questions: list[Question], index: int, new: Question | None) -> None:
    """Edits the first sheet's cells in place: other sheets, columns and formatting stay."""
    import openpyxl

    workbook = openpyxl.load_workbook(path)
    sheet = workbook.worksheets[0]
    if new is None:
        sheet.delete_rows(int(questions[index].source.rsplit(":", 1)[1]))
    else:
        header = next(r for r in sheet.iter_rows() if any(c.value not in (None, "") for c in r))
        columns = {ALIASES.get(str(c.value).strip().lower()): c.column for c in header if c.value is not None}
        row = int(questions[index].source.rsplit(":", 1)[1]) if index < len(questions) else sheet.max_row + 1
        for name, value in _changes(questions, index, new, as_json=False).items():
            column = columns.get(ALIASES[name])
            if column is None:  # a field the sheet had no column for
                column = sheet.max_column + 1
                sheet.cell(header[0].row, column).value = name
                columns[ALIASES[name]] = column
            set_text(sheet.cell(row, column), value)
    workbook.save(path)
