"""LLM question generation against the loopback OpenAI-compatible server: valid output
becomes questions with contexts and origin, invalid output is re-asked then dropped with
its reason, each filter (trivial, unanswerable, single-hop, duplicate) drops what it
should, multi-hop questions carry two chunk ids, in zh and en; the CLI picks the LLM
when one is configured."""

from __future__ import annotations

import json
import re

import pytest

from ragpipe.cli import main
from ragpipe.core.inputs.corpus import load_corpus
from ragpipe.core.evidence.entities import GraphEntities
from ragpipe.core.llm import LLMClient, LLMSettings
from ragpipe.core.judged import PROMPTS
from ragpipe.core.metrics import Toolkit
from ragpipe.core.inputs.question_filters import duplicate_of, trivial_reason
from ragpipe.core.inputs.question_gen_llm import (DUPLICATE, INVALID_OUTPUT, SINGLE_HOP, TRIVIAL, UNANSWERABLE,
                                           LLMQuestionGenerator, related_pairs)
from ragpipe.core.inputs.questions import load_question_file, load_questions
from ragpipe.core.schemas import Question
from ragpipe.testing.fake_judge import fake_llm
from ragpipe.testing.openai_server import OpenAIServer, Recorded, script

# Two documents per language; the first of each has two chunks (paragraphs).
DOCS = {
    "zh": {
        "shenzhen": "# 深圳市创业补贴\n\n深圳市对首次创业的个人给予一次性创业补贴1万元。\n\n"
                    "申请人应在取得营业执照后12个月内提出申请，由区人力资源局负责审核。\n",
        "guangzhou": "# 广州市创业补贴\n\n广州市对首次创业的个人给予一次性创业补贴5000元，由市人力资源和社会保障局发放。\n",
    },
    "en": {
        "harbor": "# Harbor Storefront Grant\n\nThe Harbor Storefront Grant pays up to 40% of eligible renovation costs.\n\n"
                  "Applications are reviewed by the Harbor Business Office within 30 days of submission.\n",
        "northgate": "# Northgate Facade Grant\n\nThe Northgate Facade Grant pays up to 25% of eligible facade costs "
                     "and is run by the Northgate Business Office.\n",
    },
}
FIRST = {"zh": "深圳市对首次创业的个人给予一次性创业补贴1万元。",
         "en": "The Harbor Storefront Grant pays up to 40% of eligible renovation costs."}
SECOND = {"zh": "申请人应在取得营业执照后12个月内提出申请，由区人力资源局负责审核。",
          "en": "Applications are reviewed by the Harbor Business Office within 30 days of submission."}
GOOD = {  # (question, ground truth, source passages)
    "zh": [("深圳市对首次创业的个人给予多少一次性创业补贴？", FIRST["zh"], [1]),
           ("在深圳市申请首次创业补贴有什么时限，由哪个部门审核？", SECOND["zh"], [2])],
    "en": [("What share of eligible renovation costs does the Harbor Storefront Grant pay?", FIRST["en"], [1]),
           ("Who reviews Harbor Storefront Grant applications, and how quickly?", SECOND["en"], [2])],
}
MODEL = "gen-model"


def corpus(tmp_path, lang, docs=None):
    folder = tmp_path / lang
    (folder / "docs").mkdir(parents=True)
    for stem in docs or DOCS[lang]:
        (folder / "docs" / f"{stem}.md").write_text(DOCS[lang][stem], encoding="utf-8")
    return load_corpus(folder)


def item(question, truth, passages, qtype="FACTUAL"):
    return {"question_type": qtype, "question_text": question, "ground_truth": truth, "source_passages": passages}


def asked_n(req: Recorded) -> int:
    return int(re.search(r"(?:生成|write) (\d+) (?:个问题|questions)", req.prompt).group(1))


def generation_route(questions_for):
    """Answers question_generation with ``questions_for(request)`` and every other prompt
    (the LLM verifier's) like the fake judge."""
    def route(req: Recorded):
        if req.schema_name == "question_generation":
            return {"questions": questions_for(req)}
        return fake_llm(req)
    return route


@pytest.fixture
def server():
    with OpenAIServer() as s:
        yield s


def generator(server, embedder, **kwargs) -> LLMQuestionGenerator:
    client = LLMClient(LLMSettings(base_url=server.base_url, model=MODEL, timeout=5, backoff_base=0.01))
    return LLMQuestionGenerator(client, Toolkit(embedder), model=MODEL, embedder=embedder, **kwargs)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_valid_output_becomes_questions_with_contexts_and_origin(tmp_path, server, embedder, lang):
    chunks = corpus(tmp_path, lang, docs=list(DOCS[lang])[:1])
    server.route = generation_route(lambda req: [item(q, t, p) for q, t, p in GOOD[lang]][:asked_n(req)])
    report = generator(server, embedder).generate(chunks, per_document=2, prefix="g")

    assert report.dropped == [] and report.calls == 1
    stem = list(DOCS[lang])[0]
    assert [(q.question_id, q.question, q.ground_truth_answer, q.ground_truth_contexts) for q in report.questions] == [
        ("g-001", GOOD[lang][0][0], FIRST[lang], [f"{stem}#0"]), ("g-002", GOOD[lang][1][0], SECOND[lang], [f"{stem}#1"])]
    prompt = PROMPTS["question_generation"]
    assert report.questions[0].origin == (f"llm-questions/1 model={MODEL} prompt=question_generation@1.0:"
                                          f"{prompt.hash(lang)[:16]} from {stem}#0")
    # the prompt was the question-generation prompt, in the document's language, with the chunks as numbered fenced passages
    req = server.requests[0]
    assert ("你是一个善于提出问题的专家" if lang == "zh" else "You are an expert at asking questions") in req.prompt
    assert req.fenced_items("passage") == [c.text for c in chunks] and asked_n(req) == 2


def test_malformed_output_is_reasked_then_dropped_with_its_reason(tmp_path, server, embedder):
    chunks = corpus(tmp_path, "zh", docs=["shenzhen"])
    one = [item(*GOOD["zh"][0])]
    server.route = script("这不是 JSON", {"questions": one + [item("多余的问题？", "x", [9])]})
    report = generator(server, embedder).generate(chunks, per_document=1)
    assert report.questions == [] and report.dropped_by_reason == {INVALID_OUTPUT: 1}
    assert "expected exactly 1 questions, got 2" in report.dropped[0].detail
    assert len(server.requests) == 2 and "上一次的回复无法使用" in server.requests[1].messages[-1]["content"]

    server.reset()
    server.route = script({"questions": [item(GOOD["zh"][0][0], FIRST["zh"], [7])]}, {"questions": one})
    report = generator(server, embedder).generate(chunks, per_document=1)
    assert [q.question for q in report.questions] == [GOOD["zh"][0][0]]  # the re-ask repaired it
    assert "source_passages [7] are not passage numbers (1..2)" in server.requests[1].messages[-1]["content"]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_each_filter_drops_its_questions(tmp_path, server, embedder, lang):
    chunks = corpus(tmp_path, lang, docs=list(DOCS[lang])[:1])
    good = item(*GOOD[lang][0])
    trivial = {"zh": item("深圳市对首次创业的个人给予一次性创业补贴1万元吗？", FIRST["zh"], [1]),
               "en": item("Does the Harbor Storefront Grant pay up to 40% of eligible renovation costs?",
                          "Yes, the Harbor Storefront Grant pays up to 40% of eligible renovation costs.", [1])}[lang]
    unanswerable = {"zh": item("深圳市创业补贴最多可以领几次？", "深圳市创业补贴最多可以领取3次，每次2万元。", [1]),
                    "en": item("How many times can the Harbor grant be claimed?",
                               "The Harbor grant can be claimed 3 times, up to 20000 dollars each.", [1])}[lang]
    # the same question in other case and punctuation
    repeat = dict(good, question_text=good["question_text"].upper().replace("？", "?").replace("?", " ?"))
    existing = [Question(question_id="old-1", question=GOOD[lang][1][0], ground_truth_answer=SECOND[lang],
                         source="old.jsonl:1")]
    echo = item(GOOD[lang][1][0], SECOND[lang], [2])  # repeats a question of the existing set
    server.route = generation_route(lambda req: [good, trivial, unanswerable, repeat, echo])

    report = generator(server, embedder).generate(chunks, per_document=5, existing=existing)
    assert [q.question for q in report.questions] == [good["question_text"]]
    dropped = {(d.reason, d.question) for d in report.dropped}
    assert dropped == {(TRIVIAL, trivial["question_text"]), (UNANSWERABLE, unanswerable["question_text"]),
                       (DUPLICATE, repeat["question_text"]), (DUPLICATE, echo["question_text"])}
    assert report.dropped_by_reason == {TRIVIAL: 1, UNANSWERABLE: 1, DUPLICATE: 2}
    assert "dropped: duplicate 2, trivial 1, unanswerable 1" in report.summary()


def test_near_duplicates_by_embedding_and_trivial_copies(embedder):
    kept = "深圳市对首次创业的个人给予多少一次性创业补贴？"
    reworded = "深圳市给首次创业的个人发放多少一次性创业补贴？"
    other = "广州市的创业补贴由哪个部门发放？"
    assert duplicate_of([reworded, other], [kept], threshold=0.95, embedder=embedder) == [kept, None]
    assert duplicate_of([reworded, other], [kept], threshold=0.95, embedder=None) == [None, None]  # exact only
    # a question copying a source sentence whole is trivial even when its truth is phrased apart
    sentence = "申请人应在取得营业执照后12个月内提出申请。"
    assert "copies a source sentence" in trivial_reason(f"请问：{sentence}对吗？", "对，期限为一年。", [sentence])
    assert trivial_reason("What share of costs does the grant pay?", "Up to 40% of costs.", []) is None


def test_multi_hop_questions_need_both_chunks(tmp_path, server, embedder):
    chunks = corpus(tmp_path, "zh")
    graph = GraphEntities.from_records([{"name": "一次性创业补贴", "type": "policy"}])
    pairs = related_pairs(chunks, graph)
    # the two cities' grant paragraphs share the entity; the first document's two chunks are adjacent but
    # shenzhen#0 is taken by the cross-document pair
    assert [(a.chunk_id, b.chunk_id) for a, b in pairs] == [("guangzhou#0", "shenzhen#0")]
    assert [(a.chunk_id, b.chunk_id) for a, b in related_pairs(chunks)] == [("shenzhen#0", "shenzhen#1")]

    both = "广州市一次性创业补贴5000元，深圳市一次性创业补贴1万元，深圳市更高。"

    def route(req: Recorded):
        if req.schema_name != "multi_hop_question":
            return fake_llm(req)
        first, second = req.fenced_items("passage")
        if "广州" in first:
            return {"question_text": "广州市和深圳市的首次创业一次性补贴哪个更高？", "ground_truth": both,
                    "fact_from_passage_1": "广州市补贴5000元。", "fact_from_passage_2": "深圳市补贴1万元。"}
        return {"question_text": "深圳市首次创业的个人能拿到多少一次性创业补贴？", "ground_truth": FIRST["zh"],
                "fact_from_passage_1": FIRST["zh"], "fact_from_passage_2": SECOND["zh"]}

    server.route = route
    gen = generator(server, embedder)
    report = gen.generate(chunks, per_document=0, multi_hop=5, graph=graph)
    (question,) = report.questions
    assert question.ground_truth_contexts == ["guangzhou#0", "shenzhen#0"]
    assert question.question_type.value == "INFERENTIAL" and "prompt=multi_hop_question@1.0" in question.origin
    assert report.dropped == []

    report = gen.generate(chunks, per_document=0, multi_hop=5)  # the adjacent pair: one chunk answers it
    assert report.questions == [] and [(d.reason, d.detail) for d in report.dropped] == [
        (SINGLE_HOP, "shenzhen#0 alone answers it")]


def test_multi_hop_in_english(tmp_path, server, embedder):
    chunks = corpus(tmp_path, "en")
    graph = GraphEntities.from_records([{"name": "Business Office", "type": "agency"}])
    truth = ("Harbor Storefront Grant applications are reviewed by the Harbor Business Office within 30 days. "
             "The Northgate Facade Grant is run by the Northgate Business Office.")
    server.route = lambda req: {"question_text": "Which offices handle the Harbor and the Northgate grants?",
                                "ground_truth": truth, "fact_from_passage_1": "Harbor Business Office",
                                "fact_from_passage_2": "Northgate Business Office"}
    report = generator(server, embedder).generate(chunks, per_document=0, multi_hop=1, graph=graph)
    assert report.dropped == []
    assert [q.ground_truth_contexts for q in report.questions] == [["harbor#1", "northgate#0"]]
    assert "You are an expert at asking questions" in server.requests[0].prompt


def test_cli_generates_with_the_llm_when_configured(tmp_path, server, monkeypatch, capsys):
    corpus(tmp_path / "datasets", "zh")  # tmp/datasets/zh/docs
    folder = tmp_path / "datasets" / "zh"
    (folder / "questions").mkdir()
    (folder / "questions" / "own.jsonl").write_text(json.dumps(
        {"id": "own-001", "question": GOOD["zh"][1][0], "ground_truth_answer": SECOND["zh"]}, ensure_ascii=False) + "\n",
        encoding="utf-8")

    guangzhou = DOCS["zh"]["guangzhou"].split("\n\n")[1].strip()

    def questions_for(req):
        if "深圳" in req.fenced("title"):
            return [item(*GOOD["zh"][0]), item(*GOOD["zh"][1])]
        return [item("广州市首次创业补贴的金额和发放部门分别是什么？", guangzhou, [1], "INFERENTIAL"),
                item("广州市的一次性创业补贴是多少钱？", "广州市对首次创业的个人给予一次性创业补贴5000元", [1])]

    server.route = generation_route(questions_for)
    monkeypatch.setenv("RAGPIPE_LLM_BASE_URL", server.base_url)
    monkeypatch.setenv("RAGPIPE_LLM_MODEL", MODEL)
    monkeypatch.setenv("RAGPIPE_CACHE_DIR", str(tmp_path / "cache"))  # a judge cache of its own: every call reaches the server
    argv = ["questions", "--data-dir", str(tmp_path), "--dataset", "zh", "generate", "--per-doc", "2",
            "--types", "factual,inferential", "--output", "llm.jsonl", "--prefix", "llm"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    generated = load_question_file(folder / "questions" / "llm.jsonl")
    # guangzhou's document comes first; the second shenzhen question repeats own-001 and is dropped
    assert [(q.question_id, q.question_type.value, q.ground_truth_contexts) for q in generated] == [
        ("llm-001", "INFERENTIAL", ["guangzhou#0"]), ("llm-002", "FACTUAL", ["guangzhou#0"]),
        ("llm-003", "FACTUAL", ["shenzhen#0"])]
    assert all(q.origin.startswith(f"llm-questions/1 model={MODEL} prompt=question_generation@1.0:") for q in generated)
    assert "dropped: duplicate 1" in out and server.calls("statement_verification")
    assert len(load_questions(folder, {c.chunk_id for c in load_corpus(folder)})) == 4  # the set validates

    assert main([*argv[:-2], "--prefix", "own"]) == 1  # generated ids would clash with own-1
    assert "taken by other files; pass --prefix" in capsys.readouterr().err

    monkeypatch.delenv("RAGPIPE_LLM_BASE_URL")
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert "offline generator offline-extractive/1" in captured.out and "factual questions only" in captured.err
    assert re.search(r"\d+ questions kept; dropped: duplicate 0", captured.out)
    offline = load_question_file(folder / "questions" / "llm.jsonl")
    assert offline and all(q.origin.startswith("offline-extractive/1") for q in offline)


def test_llm_settings_from_the_environment():
    from ragpipe.core.llm.settings import settings_from_env

    assert settings_from_env({"RAGPIPE_LLM_MODEL": "m"}) is None  # no base URL: offline
    env = {"RAGPIPE_LLM_BASE_URL": "http://h/v1", "RAGPIPE_LLM_MODEL": "m", "RAGPIPE_LLM_API_KEY": "sk-x",
           "RAGPIPE_LLM_CONCURRENCY": "2", "RAGPIPE_LLM_TIMEOUT": "9.5"}
    settings = settings_from_env(env, cache_dir="/c")
    assert (settings.model, settings.concurrency, settings.timeout, settings.cache_dir) == ("m", 2, 9.5, "/c")
    assert settings.api_key.get_secret_value() == "sk-x" and "sk-x" not in repr(settings)
    with pytest.raises(ValueError, match="RAGPIPE_LLM_SEED: expected int, got 'x'"):
        settings_from_env({**env, "RAGPIPE_LLM_SEED": "x"})


def test_dagster_llm_resource_reads_the_same_variables(monkeypatch, tmp_path):
    from ragpipe.defs.definitions import llm_resource

    monkeypatch.setenv("RAGPIPE_LLM_BASE_URL", "http://h/v1")
    monkeypatch.setenv("RAGPIPE_LLM_REQUESTS_PER_MINUTE", "30")
    resource = llm_resource(tmp_path)
    assert (resource.base_url, resource.requests_per_minute, resource.cache_dir) == ("http://h/v1", 30, str(tmp_path))
