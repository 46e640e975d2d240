"""Corpus chunking, question import and bot configs: good input loads, bad input names
its file, line and field."""

import json
import os

import pytest
import yaml

from ragpipe.core.config import DEFAULT_PATH
from ragpipe.core.inputs.bot_config import BotConfig, load_bot_config
from ragpipe.core.inputs.bots import HttpBot
from ragpipe.core.inputs.corpus import chunk_document, load_corpus
from ragpipe.core.inputs.questions import load_question_file, load_questions
from ragpipe.core.schemas import InputError, InputErrors
from ragpipe.testing.bot_server import answer_with
from ragpipe_tests.conftest import SAMPLE


@pytest.fixture
def limits(tmp_path, monkeypatch):
    """``limits(max_file_bytes=…)``: the evaluation settings with other input limits."""
    def set_limits(**values):
        raw = yaml.safe_load(DEFAULT_PATH.read_text(encoding="utf-8"))
        raw["evaluation"]["limits"].update(values)
        path = tmp_path / "evaluation.yaml"
        path.write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")
        monkeypatch.setenv("RAGPIPE_EVAL_CONFIG", str(path))
    yield set_limits


def _dataset_with_docs(tmp_path):
    docs = tmp_path / "ds" / "docs"
    docs.mkdir(parents=True)
    (docs / "good.md").write_text("# Grants\n\nUp to 5,000 dollars.\n", encoding="utf-8")
    return docs


def test_documents_linking_outside_the_dataset_or_not_regular_files_are_skipped_and_named(tmp_path):
    docs = _dataset_with_docs(tmp_path)
    secret = tmp_path / "passwd"
    secret.write_text("root:x:0:0:root:/root:/bin/bash\n", encoding="utf-8")
    (docs / "leak.md").symlink_to(secret)
    (docs / "zero.md").symlink_to("/dev/zero")
    os.mkfifo(docs / "pipe.md")  # opened for reading by the old code, it waited for a writer forever
    (docs / "gone.md").symlink_to(tmp_path / "missing.md")
    (docs / "inner.md").symlink_to(docs / "good.md")  # a link inside the dataset is read
    skipped = []
    chunks = load_corpus(tmp_path / "ds", skipped)
    assert sorted(c.doc_id for c in chunks) == ["good", "inner"]
    assert "root:x" not in " ".join(c.text for c in chunks)
    reasons = {os.path.basename(p.file): p.problem for p in skipped}
    assert set(reasons) == {"leak.md", "zero.md", "pipe.md", "gone.md"}
    assert "outside its folder" in reasons["leak.md"] and str(secret) in reasons["leak.md"]
    assert "/dev/zero" in reasons["zero.md"]
    assert "FIFO" in reasons["pipe.md"]
    assert "cannot be resolved" in reasons["gone.md"]
    with pytest.raises(InputError, match="gone.md: field .file.: cannot be resolved"):  # a caller keeping no list
        load_corpus(tmp_path / "ds")


def test_oversized_documents_are_skipped_and_one_line_documents_still_cut_into_bounded_chunks(tmp_path, limits):
    limits(max_file_bytes=200_000, max_chunk_chars=500)
    docs = _dataset_with_docs(tmp_path)
    (docs / "dump.txt").write_text("x" * 150_000, encoding="utf-8")  # one line, no sentence end
    (docs / "huge.md").write_text("word " * 50_000, encoding="utf-8")  # 250,000 bytes
    skipped = []
    chunks = load_corpus(tmp_path / "ds", skipped)
    dump = [c for c in chunks if c.doc_id == "dump"]
    assert len(dump) == 300 and max(len(c.text) for c in dump) == 500
    assert [(os.path.basename(p.file), p.problem) for p in skipped] == [
        ("huge.md", "larger than 200,000 bytes (250,000): not read")]


def test_oversized_bot_replies_are_refused_or_cut_with_the_reason_in_the_row(limits):
    import httpx

    limits(max_answer_chars=1000, max_contexts=3, max_context_chars=100)
    replies = {"huge": {"answer": "很长的回答。" * 200_000, "contexts": [], "ids": []},  # 1.2 million characters
               "wide": {"answer": "Fine.", "contexts": ["c" * 5000] + [f"ctx {i}" for i in range(9)],
                        "ids": [f"d#{i}" for i in range(10)]},
               "fine": {"answer": "Fine.", "contexts": ["short"], "ids": ["d#0"]}}
    config = BotConfig.model_validate({"name": "b", "version": "v1", "kind": "http", "http": {
        "endpoint": "http://bot.invalid/ask", "request": {"q": "{question}"},
        "response": {"answer": "answer", "contexts": "contexts", "context_ids": "ids"}}})
    bot = HttpBot(config, "d")
    answer_with(bot, lambda request: httpx.Response(200, json=replies[json.loads(request.content)["q"]]))
    huge = bot.ask("q1", "huge")
    assert huge.answer is None and huge.error == ("answer too long: 1,200,000 characters, more than "
                                                  "limits.max_answer_chars (1,000)")
    wide = bot.ask("q2", "wide")
    assert (wide.answer, wide.retrieved_contexts, wide.retrieved_ids) == ("Fine.", ["c" * 100, "ctx 0", "ctx 1"],
                                                                          ["d#0", "d#1", "d#2"])
    assert wide.truncated == ("7 contexts past limits.max_contexts (3); "
                              "1 contexts cut to limits.max_context_chars (100)")
    assert bot.ask("q3", "fine").truncated is None


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
    folder = SAMPLE / "datasets" / dataset
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
    good = load_bot_config(SAMPLE / "bots" / "refbot@v2.yaml")
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
    renamed.write_text((SAMPLE / "bots" / "refbot@v1.yaml").read_text(), encoding="utf-8")
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


def test_every_bot_kind_a_config_accepts_has_a_builder_and_the_protocol():
    """A kind is its config section (bot_config) and a line in BOT_KINDS: neither without the other."""
    import typing

    from ragpipe.core.inputs.bot_config import KIND_SECTION, BotConfig
    from ragpipe.core.inputs.bots import BOT_KINDS, Bot, BotSetting, make_bot
    from ragpipe_tests.conftest import SAMPLE

    assert set(BOT_KINDS) == set(typing.get_args(BotConfig.model_fields["kind"].annotation)) == set(KIND_SECTION)
    config = BotConfig(name="ref", version="v1", kind="reference", retrieval={"method": "bm25", "top_k": 2})
    bot = make_bot(BotSetting(config, "product_en", load_corpus(SAMPLE / "datasets" / "product_en"), None))
    assert isinstance(bot.concurrency, int) and bot.keeps_rounds is False
    assert all(callable(getattr(bot, member, None)) for member in ("ask", "close"))
    assert set(Bot.__annotations__) == {"concurrency", "keeps_rounds"}
    assert bot.ask("q1", "What is the Launch Seed Grant?").retrieved_ids
    bot.close()
