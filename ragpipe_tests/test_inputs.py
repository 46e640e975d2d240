"""Corpus chunking, question import and bot configs: good input loads, bad input names
its file, line and field."""

import json

import pytest

from ragpipe.core.inputs.bots import load_bot_config
from ragpipe.core.inputs.corpus import chunk_document, load_corpus
from ragpipe.core.inputs.questions import load_question_file, load_questions
from ragpipe.core.schemas import InputError, InputErrors
from ragpipe_tests.conftest import REPO


def test_chunk_ids_are_stable_and_headings_join_their_paragraph(tmp_path):
    doc = tmp_path / "tax.md"
    doc.write_text("# 小微企业所得税\n\n第一段。\n\n## 条件\n\n第二段。\n", encoding="utf-8")
    chunks = chunk_document(doc)
    assert [c.chunk_id for c in chunks] == ["tax#0", "tax#1"]
    assert chunks[0].title == "小微企业所得税"
    assert chunks[1].text == "## 条件\n第二段。"
    assert [c.chunk_id for c in chunk_document(doc)] == ["tax#0", "tax#1"]


def test_html_documents_lose_their_markup(tmp_path):
    doc = tmp_path / "page.html"
    doc.write_text("<h1>Grants</h1><p>Up to <b>$5,000</b>.</p><script>alert(1)</script>", encoding="utf-8")
    texts = [c.text for c in chunk_document(doc)]
    assert texts == ["Grants", "Up to  $5,000 ."]


@pytest.mark.parametrize("dataset", ["policy_zh", "product_en"])
def test_sample_datasets_load(dataset):
    folder = REPO / "data" / "datasets" / dataset
    chunks = load_corpus(folder)
    questions = load_questions(folder, {c.chunk_id for c in chunks})
    assert len({c.doc_id for c in chunks}) >= 20
    assert len(questions) >= 30
    assert all(q.ground_truth_contexts and q.ground_truth_answer for q in questions)


def test_csv_json_and_jsonl_with_chinese_headers_and_gbk(tmp_path):
    (tmp_path / "a.csv").write_bytes("编号,问题,标准答案,参考上下文\nq1,补贴多少？,1万元。,doc#0|doc#1\n".encode("gbk"))
    (tmp_path / "b.json").write_text(json.dumps({"questions": [
        {"id": "q2", "question": "What?", "ground_truth": "This.", "question_type": "factual"}]}), encoding="utf-8")
    (tmp_path / "c.jsonl").write_text('\ufeff{"id": "q3", "question": "Why?", "ground_truth_answer": "Because."}\n',
                                      encoding="utf-8")
    csv_q, = load_question_file(tmp_path / "a.csv")
    assert (csv_q.question_id, csv_q.ground_truth_contexts) == ("q1", ["doc#0", "doc#1"])
    assert load_question_file(tmp_path / "b.json")[0].question_type.value == "FACTUAL"
    assert load_question_file(tmp_path / "c.jsonl")[0].ground_truth_answer == "Because."


def test_every_problem_in_a_question_file_is_reported_with_line_and_field(tmp_path):
    path = tmp_path / "q.jsonl"
    path.write_text(
        '{"id": "q1", "question": "ok?", "ground_truth_answer": "yes"}\n'
        '{"id": "q2", "ground_truth_answer": "no question"}\n'
        '{"id": "q3", "question": "empty truth?", "ground_truth_answer": ""}\n'
        '{"id": "q4", "question": "bad type", "ground_truth_answer": "x", "question_type": "OPINION"}\n',
        encoding="utf-8")
    with pytest.raises(InputErrors) as caught:
        load_question_file(path)
    found = {(p.line, p.field) for p in caught.value.problems}
    assert found == {(2, "question"), (3, "ground_truth_answer"), (4, "question_type")}
    assert f"{path}:2: field 'question'" in str(caught.value)


def test_invalid_json_line_and_unknown_chunk_and_duplicate_ids(tmp_path):
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"id": "q1", "question": "a", "ground_truth_answer": "b"}\n{not json\n', encoding="utf-8")
    with pytest.raises(InputErrors) as caught:
        load_question_file(broken)
    assert [(p.line, p.field) for p in caught.value.problems] == [(2, "json")]

    dataset = tmp_path / "ds"
    (dataset / "questions").mkdir(parents=True)
    (dataset / "questions" / "a.jsonl").write_text(
        '{"id": "q1", "question": "a", "ground_truth_answer": "b", "ground_truth_contexts": ["doc#9"]}\n'
        '{"id": "q1", "question": "c", "ground_truth_answer": "d"}\n', encoding="utf-8")
    with pytest.raises(InputErrors) as caught:
        load_questions(dataset, {"doc#0"})
    assert {(p.line, p.field) for p in caught.value.problems} == {(1, "ground_truth_contexts"), (2, "id")}


def test_bot_config_errors_name_file_line_and_field(tmp_path):
    good = load_bot_config(REPO / "data" / "bots" / "refbot@v2.yaml")
    assert (good.key, good.retrieval.method) == ("refbot@v2", "hybrid")

    syntax = tmp_path / "refbot@v9.yaml"
    syntax.write_text("name: refbot\nversion: v9\nretrieval: [top_k: 3\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_bot_config(syntax)
    assert caught.value.file == str(syntax) and caught.value.field == "yaml" and caught.value.line is not None

    fields = tmp_path / "refbot@v8.yaml"
    fields.write_text("name: refbot\nversion: v8\nkind: reference\nretrieval: {method: magic, top_k: 0}\n",
                      encoding="utf-8")
    with pytest.raises(InputErrors) as caught:
        load_bot_config(fields)
    assert {p.field for p in caught.value.problems} == {"retrieval.method", "retrieval.top_k"}

    renamed = tmp_path / "other@v1.yaml"
    renamed.write_text((REPO / "data" / "bots" / "refbot@v1.yaml").read_text(), encoding="utf-8")
    with pytest.raises(InputError, match="refbot@v1.yaml"):
        load_bot_config(renamed)


@pytest.mark.parametrize("text, where", [("language: [zh\n", ":2"), ("- zh\n", "expected a mapping"),
                                         ("!!python/object/apply:os.system ['true']\n", "invalid YAML")])
def test_a_bad_dataset_yaml_is_a_failure_naming_the_file(tmp_path, text, where):
    import dagster as dg

    from ragpipe.defs.datasets.assets import dataset_language
    from ragpipe.defs.resources import ProjectPaths

    (tmp_path / "datasets" / "d").mkdir(parents=True)
    (tmp_path / "datasets" / "d" / "dataset.yaml").write_text(text, encoding="utf-8")
    paths = ProjectPaths(data_dir=str(tmp_path), output_dir=str(tmp_path / "out"), warehouse_dir=str(tmp_path / "w"))
    with pytest.raises(dg.Failure) as failure:
        dataset_language(paths, "d")
    assert "dataset.yaml" in failure.value.description and where in failure.value.description
