"""Hostile input files: the bot config loader, the corpus loader and the question
importers raise only InputError/InputErrors naming the file, whatever the bytes."""

import json

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragpipe.core.inputs.bot_config import load_bot_config
from ragpipe.core.inputs.corpus import load_corpus
from ragpipe.core.inputs.questions import load_question_file, load_questions
from ragpipe.core.schemas import InputError, InputErrors
from ragpipe.core.yaml_input import MAX_BYTES
from ragpipe_tests.conftest import SAMPLE

FUZZ = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
GOOD_BOT = (SAMPLE / "bots" / "refbot@v1.yaml").read_text(encoding="utf-8")
yaml_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
                               st.sampled_from(["name", "version", "kind", "retrieval", "http", "endpoint",
                                                "top_k", "method", "api_key_env", "response", "x"]),
                               inner, max_size=6), max_leaves=20)


def rejected(load, path) -> InputError | InputErrors:
    with pytest.raises((InputError, InputErrors)) as caught:
        load(path)
    assert str(path) in str(caught.value)
    return caught.value


@FUZZ
@given(data=st.one_of(
    st.binary(max_size=400),
    st.text(max_size=400).map(str.encode),
    yaml_values.map(lambda v: yaml.safe_dump(v, allow_unicode=True).encode()),
    st.builds(lambda cut: GOOD_BOT[:cut].encode(), st.integers(0, len(GOOD_BOT))),  # truncated configs
    st.sampled_from(["utf-16", "gbk", "utf-32"]).map(lambda enc: GOOD_BOT.replace("BM25", "检索").encode(enc)),
))
def test_bot_config_loader_reports_only_input_errors(tmp_path, data):
    path = tmp_path / "refbot@v1.yaml"
    path.write_bytes(data)
    try:
        config = load_bot_config(path)
    except (InputError, InputErrors) as exc:
        assert str(path) in str(exc)
    else:
        assert config.key == "refbot@v1"


@pytest.mark.parametrize("text, line", [
    ("!!python/object/apply:os.system ['touch {marker}']\n", 1),
    ("name: !!python/object/apply:os.system ['touch {marker}']\nversion: v1\nkind: reference\n", 1),
    ("name: refbot\nversion: v1\nkind: !!python/name:os.system\n", 3),
    ("!!python/object/new:ragpipe.core.inputs.bots.BotConfig {{}}\n", 1),
])
def test_python_tags_are_refused_not_constructed(tmp_path, text, line):
    marker = tmp_path / "pwned"
    path = tmp_path / "refbot@v1.yaml"
    path.write_text(text.format(marker=marker), encoding="utf-8")
    problem = rejected(load_bot_config, path)
    assert problem.field == "yaml" and "python" in problem.problem and problem.line == line
    assert not marker.exists()


@pytest.mark.parametrize("text, field", [
    ("", "bot"),
    ("[" * 20000 + "]" * 20000, "yaml"),  # nested past PyYAML's recursion
    ("a: &a [x, x, x]\nb: &b [*a, *a, *a]\nc: &c [*b, *b, *b]\nd: [*c, *c, *c]\n", "bot"),  # aliases, not expanded
    (GOOD_BOT + "# " + "x" * MAX_BYTES + "\n", "file"),  # huge: refused before it is read
])
def test_empty_deep_aliased_and_huge_bot_configs(tmp_path, text, field):
    path = tmp_path / "refbot@v1.yaml"
    path.write_text(text, encoding="utf-8")
    problem = rejected(load_bot_config, path)
    problems = problem.problems if isinstance(problem, InputErrors) else [problem]
    assert field in {p.field.split(".")[0] for p in problems} or text.startswith("a:")


def test_http_bot_configs_name_their_fields(tmp_path):
    path = tmp_path / "web@v1.yaml"
    path.write_text("name: web\nversion: v1\nkind: http\nretrieval: {method: bm25, top_k: 2}\n"
                    "http: {endpoint: 'ftp://x', api_key: sk-inline, timeout: -1}\n", encoding="utf-8")
    found = {p.field for p in rejected(load_bot_config, path).problems}
    assert found == {"retrieval", "http.endpoint", "http.api_key", "http.timeout"}  # a key inline is refused
    path.write_text("name: web\nversion: v1\nkind: http\n", encoding="utf-8")
    assert {p.field for p in rejected(load_bot_config, path).problems} == {"http"}


@FUZZ
@given(data=st.one_of(st.binary(max_size=600), st.text(max_size=600).map(str.encode),
                      st.text(max_size=200).map(lambda t: t.encode("utf-16"))),
       suffix=st.sampled_from([".md", ".txt", ".html"]))
def test_corpus_loader_reports_only_input_errors(tmp_path, data, suffix):
    docs = tmp_path / "docs"
    docs.mkdir(exist_ok=True)
    for old in docs.iterdir():
        old.unlink()
    (docs / "ok.md").write_text("# Title\n\nA paragraph.\n", encoding="utf-8")
    (docs / f"fuzz{suffix}").write_bytes(data)
    try:
        chunks = load_corpus(tmp_path)
    except InputError as exc:
        assert str(docs / f"fuzz{suffix}") in str(exc) and exc.field == "encoding"
    else:
        assert "ok#0" in {c.chunk_id for c in chunks}


def test_huge_and_empty_documents(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "empty.md").write_bytes(b"")
    (docs / "huge.txt").write_text("A sentence about loans. " * 200_000, encoding="utf-8")  # 4.8 MB, one block
    chunks = load_corpus(tmp_path)
    assert {c.doc_id for c in chunks} == {"huge"} and max(len(c.text) for c in chunks) <= 1200
    (docs / "huge.txt").unlink()
    assert load_corpus(tmp_path) == []


@pytest.mark.parametrize("name, data", [
    ("deep.json", b"[" * 100_000 + b"]" * 100_000),
    ("deep.jsonl", b"[" * 100_000 + b"]" * 100_000 + b"\n"),
    ("wide.csv", b"id,question,ground_truth\nq1," + b"x" * 200_000 + b",y\n"),
    ("utf32.jsonl", json.dumps({"id": "q", "question": "补贴？", "ground_truth": "是"}).encode("utf-32")),
    ("empty.json", b""),
])
def test_question_importers_on_deep_wide_and_misencoded_files(tmp_path, name, data):
    path = tmp_path / name
    path.write_bytes(data)
    rejected(load_question_file, path)


CSV_ZH = "id,question,ground_truth\nq1,深圳创业补贴多少？,1万元。\nq2,\"Who pays?\",The employer.\n"


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_utf16_question_files_decode_with_or_without_a_byte_order_mark(tmp_path, encoding):
    path = tmp_path / "q.csv"
    path.write_bytes(CSV_ZH.encode(encoding))  # without a mark the old importer read GBK and NULs
    assert [(x.question_id, x.question) for x in load_question_file(path)] == [
        ("q1", "深圳创业补贴多少？"), ("q2", "Who pays?")]


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_mostly_chinese_utf16_without_a_mark_decodes_though_it_has_few_nul_bytes(tmp_path, encoding):
    """Few ASCII characters (commas, newlines) make too few NULs for their pattern to tell."""
    rows = [f"q{i},{'深圳市创业带动就业补贴的申请条件和发放标准是什么' * 20}？,{'符合条件的初创企业可申请一次性补贴' * 20}。"
            for i in range(2)]
    path = tmp_path / "q.csv"
    path.write_bytes("\n".join(["id,question,ground_truth", *rows, ""]).encode(encoding))  # was refused
    assert [x.question_id for x in load_question_file(path)] == ["q0", "q1"]


def test_binary_question_files_are_refused_naming_the_nul_bytes(tmp_path):
    path = tmp_path / "q.csv"
    path.write_bytes(b"id,question\x00\x00\x00,ground_truth\nq1,a,b\n")
    assert "NUL bytes" in str(rejected(load_question_file, path))


def test_an_unterminated_csv_quote_is_named_by_its_line_not_swallowing_the_rows_after_it(tmp_path):
    path = tmp_path / "q.csv"
    # the old importer read 2 questions, q2's answer holding every row after it
    path.write_text('id,question,ground_truth\nq1,补贴多少？,1万元。\nq2,Who pays?,"The employer.\n'
                    'q3,When?,In May.\nq4,Where?,Online.\n', encoding="utf-8")
    error = rejected(load_question_file, path)
    problem, = error.problems if isinstance(error, InputErrors) else [error]
    assert (problem.field, problem.line) == ("csv", 3)
    assert "quote left open" in problem.problem


def test_jsonl_strings_may_hold_unicode_line_separators_and_form_feeds(tmp_path):
    texts = ["第一行\u2028第二行？", "Next\u0085line?", "Page\x0cbreak?", "Para\u2029graph?"]
    path = tmp_path / "q.jsonl"
    path.write_text("".join(json.dumps({"id": f"q{i}", "question": t, "ground_truth": "是。"}, ensure_ascii=False) + "\n"
                            for i, t in enumerate(texts)), encoding="utf-8")
    assert [x.question for x in load_question_file(path)] == texts


@pytest.mark.parametrize("name, text", [("empty.jsonl", ""), ("blank.jsonl", "\n\n"), ("header.csv", "id,question,answer\n"),
                                        ("list.json", "[]"), ("wrapped.json", '{"questions": []}')])
def test_a_question_set_of_empty_files_is_a_problem(tmp_path, name, text):
    (tmp_path / "questions").mkdir()
    (tmp_path / "questions" / name).write_text(text, encoding="utf-8")
    with pytest.raises(InputErrors) as caught:
        load_questions(tmp_path, set())
    assert str(caught.value) == f"1 problem(s):\n  {tmp_path / 'questions'}: field 'questions': no questions in {name}"
