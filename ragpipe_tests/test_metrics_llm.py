"""The metrics in LLM mode, against the scripted judge on a loopback server: shared
decomposition, batched prefetch (at most five calls per sample for the whole suite),
failures as NaN with the reason and never a number the model did not give, and a second
run served from the cache."""

import math

import dagster as dg
import pandas as pd
import pytest

from ragpipe.core.config import DEFAULT_PATH, load_config
from ragpipe.core.evidence.entities import GraphEntities
from ragpipe.core.llm import LLMClient, LLMSettings
from ragpipe.core.judged import LLMEvaluator
from ragpipe.core.metrics import REGISTRY, Toolkit, judge_use
from ragpipe.core.metrics.scoring import score_case
from ragpipe.core.schemas import EvalCase, InputError
from ragpipe.defs.definitions import build_defs
from ragpipe.defs.instance import prepare_dagster_home
from ragpipe.defs.runner import materialize_all
from ragpipe.testing.fake_judge import fake_llm, prompt_of
from ragpipe.testing.openai_server import OpenAIServer, Reply

FAST = {"timeout": 5, "backoff_base": 0.01, "backoff_max": 0.05}

CASE = EvalCase(
    question_id="fha", question="FHA 贷款的最低首付是多少？",
    answer="FHA 贷款最低首付为 3.5%。联邦政府强制要求不得超过此比例。",
    retrieved_contexts=["FHA 贷款最低首付为 3.5%。", "ARM 通常以较低利率开始。"],
    ground_truth_answer="FHA 贷款最低首付为 3.5%。信用分数至少 580。",
)


@pytest.fixture
def judged(embedder):
    with OpenAIServer(route=fake_llm) as server:
        with LLMClient(LLMSettings(base_url=server.base_url, model="judge", **FAST)) as client:
            yield server, Toolkit(embedder, llm=LLMEvaluator(client))


def test_statement_metrics_share_one_decomposition(judged):
    server, kit = judged
    results = score_case(CASE, kit, ["faithfulness", "context_recall", "factual_correctness", "noise_sensitivity"])
    assert results["faithfulness"].value == 0.5  # second sentence is in no passage
    assert results["context_recall"].value == 0.5  # the credit score is not retrieved
    assert [v["supported"] for v in results["faithfulness"].details["statements"]] == [True, False]
    decompositions = [r for r in server.requests if prompt_of(r) == "statement_decomposition"]
    # One call per distinct text: the answer and the ground truth.
    assert sorted(r.fenced("text") for r in decompositions) == sorted([CASE.answer, CASE.ground_truth_answer])


def test_judges_and_context_relevance(judged):
    _, kit = judged
    results = score_case(CASE, kit, ["llm_judge", "rubric_1_10", "context_relevance", "answer_relevancy"])
    assert results["llm_judge"].value == 2.0 and results["llm_judge"].details["reasoning"]
    rubric = results["rubric_1_10"]
    assert rubric.value == pytest.approx(0.5 * 9 + 0.3 * 7 + 0.2 * 8)
    assert rubric.details["is_passing"] and rubric.details["mode"] == "with_documents"
    assert results["context_relevance"].value == 0.5
    assert 0 <= results["answer_relevancy"].value <= 1

    pure = REGISTRY["rubric_1_10"].score(CASE.model_copy(update={"retrieved_contexts": []}), kit)
    assert pure.details["mode"] == "pure_llm" and not pure.details["is_passing"]


def test_llm_failure_is_nan_with_reason_and_spares_other_metrics(embedder):
    def broken_judge(request):
        return Reply(status=500, raw="upstream exploded") if prompt_of(request) == "llm_judge" else fake_llm(request)

    with OpenAIServer(route=broken_judge) as server:
        with LLMClient(LLMSettings(base_url=server.base_url, model="judge", **FAST)) as client:
            kit = Toolkit(embedder, llm=LLMEvaluator(client))
            results = score_case(CASE, kit, ["llm_judge", "faithfulness"])
    assert math.isnan(results["llm_judge"].value) and "500" in results["llm_judge"].error
    assert "gave up after 6 attempts" in results["llm_judge"].error
    assert results["faithfulness"].value == 0.5


def test_llm_only_metrics_are_unmeasured_offline(embedder):
    results = score_case(CASE, Toolkit(embedder), ["llm_judge", "rubric_1_10"])
    for result in results.values():
        assert math.isnan(result.value) and "no" in result.error and "LLM" in result.error


# ---- the whole LLM suite, batched -----------------------------------------------------------
SUITE_CASES = [
    EvalCase(question_id="fha", question="FHA 贷款的最低首付是多少？",
             answer="FHA 贷款最低首付为 3.5%。联邦政府强制要求不得超过此比例。",
             retrieved_contexts=["FHA 贷款最低首付为 3.5%。", "ARM 通常以较低利率开始。", "财政部支持中小企业。"],
             ground_truth_answer="FHA 贷款最低首付为 3.5%。信用分数至少 580。"),
    EvalCase(question_id="ohio", question="What did the Ministry of Finance announce for Ohio?",
             answer="The Ministry of Finance announced tax relief for small businesses in Ohio.",
             retrieved_contexts=["FHA loans need 3.5% down.", "The Ministry of Finance announced tax relief.",
                                 "Ohio is a state."],
             ground_truth_answer="Tax relief for small businesses in Ohio."),
]


def suite(kit: Toolkit) -> dict:
    out = {}
    for case in SUITE_CASES:
        for name, r in score_case(case, kit).items():
            out[(case.question_id, name)] = (r.value, r.error, r.details)
    return out


def same(a: dict, b: dict) -> bool:
    def norm(v):
        value, error, details = v
        return ("nan" if math.isnan(value) else round(value, 9), error, details)
    return {k: norm(v) for k, v in a.items()} == {k: norm(v) for k, v in b.items()}


def test_prefetched_suite_needs_at_most_five_calls_per_sample_and_changes_nothing(embedder, tmp_path):
    with OpenAIServer(route=fake_llm) as server:
        with LLMClient(LLMSettings(base_url=server.base_url, model="judge", **FAST)) as client:
            unbatched = suite(Toolkit(embedder, llm=LLMEvaluator(client)))
            unbatched_calls = server.count()
            server.reset()
            evaluator = LLMEvaluator(client)
            report = evaluator.prefetch(SUITE_CASES)
            batched = suite(Toolkit(embedder, llm=evaluator))
        # Calls of the plan's prompts: a metric's prompt of its own, outside the plan, is asked once per sample.
        planned = {p.name for m in REGISTRY.values() if m.judge.parts for p in m.judge.prompts}
        calls = sum(prompt_of(r) in planned for r in server.requests)
        assert calls == report.batched_calls <= 5 * len(SUITE_CASES)
        assert unbatched_calls > 2 * calls
    assert same(batched, unbatched)
    measured = {k for k, v in batched.items() if not math.isnan(v[0])}
    for case in SUITE_CASES:
        for name in ("faithfulness", "context_relevance", "context_recall", "answer_relevancy", "answer_correctness",
                     "factual_correctness", "noise_sensitivity", "llm_judge", "rubric_1_10"):
            assert (case.question_id, name) in measured, (case.question_id, name)


def test_second_run_is_served_from_the_cache(embedder, tmp_path):
    settings = dict(model="judge", cache_dir=str(tmp_path / "llm-cache"), **FAST)
    with OpenAIServer(route=fake_llm) as server:
        runs = []
        for _ in range(2):
            with LLMClient(LLMSettings(base_url=server.base_url, **settings)) as client:
                evaluator = LLMEvaluator(client)
                evaluator.prefetch(SUITE_CASES)
                runs.append((suite(Toolkit(embedder, llm=evaluator)), client.stats(), server.count()))
                server.reset()
    (first, s1, calls1), (second, s2, calls2) = runs
    assert calls1 == s1.cache_misses > 0 and calls2 == 0
    assert (s2.cache_misses, s2.requests, s2.cache_hits) == (0, 0, s1.cache_misses)
    assert same(first, second)


OUT_OF_RANGE = {
    "judge_and_rubric": {"judge": {"reasoning": "great", "score": 7},
                         "rubric": {"analysis": "a", "accuracy": 11, "completeness": 5, "clarity": 5, "reason": "r",
                                    "suggestion": "s"}},
    "llm_judge": {"reasoning": "great", "score": 7},
    "rubric_1_10": {"analysis": "a", "accuracy": 11, "completeness": 5, "clarity": 5, "reason": "r",
                    "suggestion": "s"},
}
MALFORMED = {
    "judge_and_rubric": '{"judge": {"reasoning": "great", "score": ',
    "llm_judge": '{"reasoning": "great", "score": ',
    "rubric_1_10": '{"analysis": "fine", "accuracy": 8, "completeness',
}
PROSE = {name: "I would give it 4/5 and 8/10." for name in OUT_OF_RANGE}


@pytest.mark.parametrize("bad", [OUT_OF_RANGE, MALFORMED, PROSE], ids=["out_of_range", "malformed", "prose"])
def test_invalid_judge_output_is_nan_with_the_reason_never_a_number(embedder, bad):
    """Out of range or malformed, in the batched call, the single fallback and its re-ask:
    the judges are NaN with the validation error, never the model's 7, 11, 4 or 8."""
    def route(req):
        return bad.get(prompt_of(req)) or fake_llm(req)

    with OpenAIServer(route=route) as server:
        with LLMClient(LLMSettings(base_url=server.base_url, model="judge", **FAST)) as client:
            evaluator = LLMEvaluator(client)
            report = evaluator.prefetch([CASE])
            kit = Toolkit(embedder, llm=evaluator)
            results = score_case(CASE, kit, ["llm_judge", "rubric_1_10", "faithfulness"])
            assert report.failures == {"judges": 1} and report.fallback_calls == 2
        judge_calls = [r for r in server.requests if prompt_of(r) in bad]
        assert len(judge_calls) == 6  # batched + re-ask, then each single prompt + re-ask; the metrics add none
    for name in ("llm_judge", "rubric_1_10"):
        assert math.isnan(results[name].value) and "invalid output after one re-ask" in results[name].error
        assert results[name].details == {}
    if bad is OUT_OF_RANGE:
        assert "less than or equal to 5" in results["llm_judge"].error
        assert "less than or equal to 10" in results["rubric_1_10"].error
    assert results["faithfulness"].value == 0.5


def test_every_llm_metric_has_a_prompt_hash(embedder):
    with OpenAIServer(route=fake_llm) as server:
        with LLMClient(LLMSettings(base_url=server.base_url, model="judge", **FAST)) as client:
            evaluator = LLMEvaluator(client, language="zh")
            for name, metric in REGISTRY.items():
                h = evaluator.prompt_hash(metric.judge)
                if metric.judge.prompts:
                    assert len(h) == 64, name
                else:
                    assert h is None, name  # offline only


def test_every_metric_declares_what_it_asks_the_judge(embedder):
    """Each metric alone against a recording judge, called directly and after a prefetch of
    the parts it declares: every prompt it used is one it declares (so its prompt version
    is complete), and after the prefetch it asks nothing the five-call plan serves (so its
    parts suffice; a prompt of its own, outside the plan, it may still ask)."""
    names = ["财政部", "上海市", "中小企业"]
    graph = GraphEntities(names=names, alias_to_name={n: n for n in names})
    case = EvalCase(question_id="tax", question="财政部对上海市中小企业有什么税收政策？",
                    answer="财政部对上海市中小企业减免税收。", ground_truth_answer="财政部对上海市中小企业减税。",
                    retrieved_contexts=["财政部发布了支持上海市中小企业的税收政策。", "ARM 通常以较低利率开始。"],
                    ground_truth_contexts=["财政部发布了支持上海市中小企业的税收政策。"])
    planned = {p.name for m in REGISTRY.values() if m.judge.parts for p in m.judge.prompts}
    with OpenAIServer(route=fake_llm) as server:
        with LLMClient(LLMSettings(base_url=server.base_url, model="judge", **FAST)) as client:
            for name, metric in REGISTRY.items():
                declared = {p.name for p in metric.judge.prompts}
                server.reset()
                metric.score(case, Toolkit(embedder, graph=graph, llm=LLMEvaluator(client)))
                used = {prompt_of(r) for r in server.requests}
                assert used <= declared, f"{name} asks {sorted(used - declared)} and does not declare it"
                assert bool(used) == bool(declared), f"{name} declares prompts it never asks"

                server.reset()
                evaluator = LLMEvaluator(client)
                kit = Toolkit(embedder, graph=graph, llm=evaluator)
                evaluator.prefetch([case], judge_use([name]))
                prefetched = server.count()
                assert {prompt_of(r) for r in server.requests} <= declared, name
                metric.score(case, kit)
                late = [prompt_of(r) for r in server.requests[prefetched:] if prompt_of(r) in planned]
                assert not late, f"{name} still asks {late} after prefetching the parts it declares"


def test_llm_mode_through_dagster_reports_calls_and_reuses_the_cache(project, monkeypatch):
    """The scores step with a judge configured: LLM calls, tokens and cache figures in the
    materialization metadata, a prompt version with every score, and a re-run that asks
    the server nothing."""
    with OpenAIServer(route=fake_llm) as server:
        monkeypatch.setenv("RAGPIPE_LLM_BASE_URL", server.base_url)
        monkeypatch.setenv("RAGPIPE_LLM_MODEL", "judge-model")
        monkeypatch.setenv("RAGPIPE_LLM_PRICE_PROMPT", "0.5")
        prepare_dagster_home(project)

        def run(force: bool = False):  # forced: the same inputs would otherwise not be run again
            with dg.DagsterInstance.get() as instance:
                outcomes = materialize_all(build_defs(project), instance, progress=lambda _: None,
                                           only_datasets=["product_en"], only_bots=["refbot@v1"], force=force)
                assert all(o.success for o in outcomes), [o.error for o in outcomes if not o.success]
                event = instance.get_latest_materialization_event(dg.AssetKey(["scores", "llm_judge"]))
                return {k: v.value for k, v in event.asset_materialization.metadata.items()}

        first = run()
        sent = server.count()
        second = run(force=True)
    assert sent > 0 and first["llm_cache_misses"] > 0 and first["llm_prompt_tokens"] > 0
    assert first["llm_cost"] > 0 and first["mode"] == "llm" and first["prompt_version"]
    assert server.count() == sent, "the re-run asked the server again"
    # The re-run keeps every score (same inputs): it does not even read the judge's cache.
    assert second["llm_cache_misses"] == 0 and second["rescored"] == 0 and first["rescored"] > 0
    judged = pd.read_parquet(project / ".ragpipe" / "warehouse" / "scores" / "llm_judge" / "refbot@v1" / "product_en.parquet")
    assert judged["value"].dropna().between(1, 5).all() and judged["value"].notna().any()
    assert (judged["prompt_version"] == first["prompt_version"]).all()


# ---- seed 003's rubric: fractional scores, and the documents the judge reads ------------------
def rubric_route(rubric: dict):
    """The scripted judge, with ``rubric`` as the rubric's output in the combined and the single prompt."""
    def route(req):
        name = prompt_of(req)
        if name == "judge_and_rubric":
            return {**fake_llm(req), "rubric": rubric}
        return rubric if name == "rubric_1_10" else fake_llm(req)
    return route


@pytest.mark.parametrize("prefetched", [True, False], ids=["combined_prompt", "single_prompt"])
def test_a_fractional_rubric_score_counts_and_one_out_of_range_is_refused(embedder, prefetched):
    half = {"analysis": "no errors", "accuracy": 7.5, "completeness": 6.5, "clarity": 8, "reason": "accurate",
            "suggestion": "add the credit score"}
    for scores, expected in ((half, 0.5 * 7.5 + 0.3 * 6.5 + 0.2 * 8), ({**half, "accuracy": 10.5}, None)):
        with OpenAIServer(route=rubric_route(scores)) as server:
            with LLMClient(LLMSettings(base_url=server.base_url, model="judge", **FAST)) as client:
                evaluator = LLMEvaluator(client)
                if prefetched:
                    evaluator.prefetch([CASE], judge_use(["rubric_1_10"]))
                rubric = score_case(CASE, Toolkit(embedder, llm=evaluator), ["rubric_1_10"])["rubric_1_10"]
        if expected is None:
            assert math.isnan(rubric.value)
            assert "accuracy: Input should be less than or equal to 10 (got 10.5)" in rubric.error
        else:
            assert rubric.value == pytest.approx(expected) and rubric.error is None
            assert (rubric.details["accuracy"], rubric.details["completeness"]) == (7.5, 6.5)
            assert rubric.details["is_passing"]


def test_the_rubric_judge_reads_the_top_documents_only(embedder, tmp_path, monkeypatch):
    """Seed 003: 30 retrieved chunks are not one 15k-character prompt; the judge reads the
    bot's first rubric.max_documents (5 by default), in the combined prompt and the single one."""
    contexts = [f"FHA 贷款第 {i} 条规定：" + "首付与信用分数的要求。" * 40 for i in range(1, 31)]
    case = CASE.model_copy(update={"retrieved_contexts": contexts})
    custom = tmp_path / "evaluation.yaml"
    custom.write_text(DEFAULT_PATH.read_text(encoding="utf-8").replace("max_documents: 5", "max_documents: 8"),
                      encoding="utf-8")
    for config, n in ((None, 5), (custom, 8)):
        if config:
            monkeypatch.setenv("RAGPIPE_EVAL_CONFIG", str(config))
        with OpenAIServer(route=fake_llm) as server:
            with LLMClient(LLMSettings(base_url=server.base_url, model="judge", **FAST)) as client:
                evaluator = LLMEvaluator(client)
                evaluator.prefetch([case], judge_use(["rubric_1_10"]))
                combined = score_case(case, Toolkit(embedder, llm=evaluator), ["rubric_1_10"])["rubric_1_10"]
                single = score_case(case, Toolkit(embedder, llm=LLMEvaluator(client)), ["rubric_1_10"])["rubric_1_10"]
        requests = {prompt_of(r): r for r in server.requests}
        assert set(requests) == {"judge_and_rubric", "rubric_1_10"}  # the metric found the prefetched result
        for request in requests.values():
            assert request.fenced_items("document") == contexts[:n]
        assert combined.details["documents"] == single.details["documents"] == n
        assert combined.value == single.value == pytest.approx(0.5 * 9 + 0.3 * 7 + 0.2 * 8)


def test_a_bad_rubric_document_limit_names_the_field(tmp_path):
    bad = tmp_path / "evaluation.yaml"
    bad.write_text(DEFAULT_PATH.read_text(encoding="utf-8").replace("max_documents: 5", "max_documents: 0"),
                   encoding="utf-8")
    with pytest.raises(InputError, match=r"rubric\.max_documents.*greater than or equal to 1"):
        load_config(str(bad))
