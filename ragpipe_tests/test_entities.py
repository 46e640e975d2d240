"""The entity-aware dimensions, the overall score, its YAML settings and the online API."""

import json
import math
import os
import subprocess
import sys

import pytest

import ragpipe
from ragpipe.core.config import load_config
from ragpipe.core.evidence.entities import (GraphEntities, covered, extract_entities, load_graph_entities, normalize_entity,
                                   quantities, same_entity)
from ragpipe.core.metrics import REGISTRY, Toolkit
from ragpipe.core.schemas import EvalCase, InputError
from ragpipe_tests.conftest import REPO, SAMPLE

DATA = REPO / "ragpipe_tests" / "data"

GRAPH = GraphEntities.from_records([
    {"name": "财政部", "type": "agency", "aliases": ["中华人民共和国财政部"]},
    {"name": "深圳市", "type": "region"}, {"name": "小型微利企业", "type": "policy"},
])


def test_offline_extraction_finds_names_not_numbers_or_jieba_mis_cuts():
    zh = extract_entities("中华人民共和国财政部规定，深圳市小型微利企业减按25%计入，2027年12月31日前有效。", GRAPH)
    assert {"财政部", "深圳市", "小型微利企业"} <= set(zh) and not {"25%", "2027年12月31日"} & set(zh)
    noisy = extract_entities("自取得之日起，小微企业的研发费用在申报企业所得税实际缴纳中所得额时扣除。")
    assert not {"之日起", "研发", "申报", "小微", "中所", "企业所得税实际"} & set(noisy) and "企业所得税" in noisy
    en = extract_entities("On Monday, apply to the Office of Economic Development by March 31, 2026 for $25,000.")
    assert en == ["Office of Economic Development"]
    assert quantities("Apply by March 31, 2026 for $25,000 within 6 months.") == ["March 31, 2026", "$25,000", "6 months"]


def names(text: str) -> set[str]:
    return set(extract_entities(text))


def test_a_name_followed_by_a_verb_is_the_name_alone():
    assert names("财政部规定中小企业享受所得税减免。") == {"财政部", "中小企业", "所得税"}
    assert names("国家外汇管理局规定，个人年度购汇便利化额度为5万美元。") == {"国家外汇管理局"}
    assert names("农业农村部部署了今年的春耕生产工作。") == {"农业农村部"}
    assert names("国务院印发了《关于进一步优化营商环境的意见》。") == {"《关于进一步优化营商环境的意见》", "国务院"}
    assert names("深圳市税务局要求纳税人按时申报。") == {"深圳市税务局"}
    assert not names("税务局要求企业在月底前完成申报。")  # a bare 税务局 is a common noun
    # issue 33's reproduction: the unverified entity is the organisation, not "财政部规定"
    result = ragpipe.evaluate("中小企业税收优惠政策有哪些？", "财政部规定中小企业享受所得税减免",
                              ["中小企业可享受所得税减免和增值税优惠。"], graph_entities=["中小企业", "税收政策"])
    assert "财政部" in result["entity_analysis"]["unverified_entities"]
    assert not any("规定" in e for e in result["entity_analysis"]["answer_entities"])


def test_a_prefix_verb_or_copula_is_stripped():
    assert names("这里所说的税种是指资源税，不是增值税。") == {"资源税", "增值税"}
    assert names("经国务院批准，海南省设立了自由贸易港。") == {"国务院", "海南省"}


def test_coordinated_names_are_split_and_names_with_a_conjunction_kept():
    assert names("深圳和广州的企业均可申请该项补贴。") == {"深圳", "广州"}
    assert names("北京、上海和广州三地率先开展试点。") == {"北京", "上海", "广州"}
    assert names("工业和信息化部支持批发和零售业。") == {"工业和信息化部", "批发和零售业"}
    assert names("南京市体育馆和江苏省美术馆周一闭馆。") == {"南京市", "江苏省"}  # a place after 和 starts a name
    assert names("Texas, Florida and Georgia added the most jobs.") == {"Texas", "Florida", "Georgia"}
    assert names("Employers in Ohio and Michigan must post the notice.") == {"Ohio", "Michigan"}
    assert names("The Department of Health and Human Services runs Medicaid.") == {
        "Department of Health and Human Services", "Medicaid"}


def test_verbs_and_nationality_adjectives_are_no_entities():
    assert names("他回国后在杭州创办了一家科技公司。") == {"杭州"}
    assert not names("很多中国人选择在国庆节期间出游。")
    assert names("中国企业在海外投资需要向商务部备案。") == {"商务部"}
    assert names("这些美国公司主要分布在加利福尼亚州。") == {"加利福尼亚州"}
    assert names("中国的首都是北京。") == {"中国", "北京"}  # the country itself is a place
    assert names("We hired Chinese engineers in Ohio and Michigan.") == {"Ohio", "Michigan"}
    assert not names("The form is available in English, Spanish and Chinese.")
    assert names("Many Europeans travel to Greece in summer.") == {"Greece"}
    assert names("The American Red Cross opened a shelter in Tulsa.") == {"American Red Cross", "Tulsa"}


def test_titles_dates_codes_and_generic_words_are_no_entities():
    assert names("Governor Whitmer visited the new plant in Lansing.") == {"Lansing"}
    assert names("The Governor of Texas declared a state of emergency.") == {"Texas"}
    assert not names("The City will review your application within 30 days.")
    assert not names("Sales usually peak between Black Friday and Christmas.")
    assert not names("Q3 revenue rose 12%; submit your W-2 and the PDF.")
    assert names("Ask the Bureau of Labor Statistics for the latest CPI and PPI.") == {"Bureau of Labor Statistics"}
    assert names("Title VII of the Civil Rights Act prohibits discrimination.") == {"Title VII", "Civil Rights Act"}
    assert not names("市政府决定从下月起调整公交票价。")
    assert not names("每周一上午九点，服务大厅准时开门。")
    assert names("深圳市市长出席了开幕式。") == {"深圳市"}


def _precision_recall(language: str) -> tuple[float, float]:
    """Micro precision and recall of offline extraction (no graph) on the hand-labelled
    sample: gold entities are names of the five entity types, never numbers or dates."""
    tp = fp = fn = 0
    for line in (DATA / f"entities_{language}.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        found = {normalize_entity(e) for e in extract_entities(row["text"])}
        gold = {normalize_entity(e) for e in row["entities"]}
        tp, fp, fn = tp + len(found & gold), fp + len(found - gold), fn + len(gold - found)
    return tp / (tp + fp), tp / (tp + fn)


@pytest.mark.parametrize(("language", "recall_floor"), [("zh", 0.85), ("en", 0.9)])
def test_offline_extraction_precision_and_recall_on_labelled_sample(language, recall_floor):
    """The sample tempts with names followed by verbs, prefix verbs, coordinated places,
    nationality adjectives, titles, generic nouns, months, weekdays, holidays and amounts."""
    sizes = {lang: len((DATA / f"entities_{lang}.jsonl").read_text(encoding="utf-8").splitlines()) for lang in ("zh", "en")}
    assert sum(sizes.values()) >= 300 and sizes[language] >= 0.4 * sum(sizes.values()), sizes
    precision, recall = _precision_recall(language)
    assert precision >= 0.9 and recall >= recall_floor, (precision, recall)


def test_matching_tolerates_width_case_aliases_and_numeric_forms():
    assert same_entity("ＦＨＡ", "fha") and same_entity("1万元", "10000元")
    assert GRAPH.canonical("中华人民共和国财政部") == "财政部"
    assert not same_entity("3.5%", "5%")
    assert covered(["深圳市", "财政部"], ["深圳市"], "由财政部发布") == (["深圳市", "财政部"], [])


def test_a_name_that_runs_graph_names_together_is_those_names():
    """Extraction glued a place to a policy (上海市个人住房公积金贷款) and the graph's two names
    inside it were dropped as parts of it: an answer naming them apart covered none."""
    graph = GraphEntities.from_records([{"name": "上海市"}, {"name": "住房公积金贷款"}])
    assert extract_entities("上海市个人住房公积金贷款的最高额度是多少？", graph) == ["住房公积金贷款", "上海市"]
    required = extract_entities("上海市个人住房公积金贷款的最高额度是多少？", graph)
    answer = "上海市住房公积金贷款的个人最高额度为80万元。"
    assert covered(required, extract_entities(answer, graph), answer) == (required, [])
    assert extract_entities("深圳市税务局发布通知。", GRAPH) == ["深圳市税务局"]  # one graph name inside: kept whole


def test_a_chinese_place_named_without_its_level_is_the_graphs_place(embedder):
    """成都 and 重庆 are the graph's 成都市 and 重庆市: they were unknown names (ratio 2/3)."""
    graph = GraphEntities.from_records([{"name": n} for n in ("成都市", "重庆市", "人才公寓")])
    assert sorted(extract_entities("成都和重庆都有人才公寓。", graph)) == ["人才公寓", "成都市", "重庆市"]
    assert graph.canonical("成都") == "成都市" and graph.canonical("成") is None
    result = Toolkit(embedder, graph=graph).result("unverified_entity_ratio", case("哪些城市有人才公寓？", "成都和重庆都有人才公寓。", ["成都市、重庆市均提供人才公寓。"]))
    assert result.value == 0, result.details


def test_graph_names_come_in_the_texts_order_whatever_the_hash_seed():
    """Names of one length came in a set's order, which Python's string hashing changes from
    process to process: the stored details of two runs on the same data differed."""
    script = ("from ragpipe.core.evidence.entities import GraphEntities\n"
              "g = GraphEntities.from_records([{'name': n, 'aliases': [n[:-1]]} for n in ('成都市', '深圳市', '苏州市', '杭州市')])\n"
              "print(g.find_in('在苏州、深圳和成都拿到的补贴，比杭州市多吗？'))")
    seen = {subprocess.run([sys.executable, "-c", script], env={**os.environ, "PYTHONHASHSEED": str(seed)},
                           capture_output=True, text=True, check=True).stdout.strip() for seed in range(6)}
    assert seen == {"['苏州市', '深圳市', '成都市', '杭州市']"}, seen


def test_sample_graph_loads_and_bad_lines_are_named(tmp_path):
    graph = load_graph_entities(SAMPLE / "datasets" / "policy_zh")
    assert len(graph.names) >= 40 and graph.canonical("税务总局") == "国家税务总局"
    bad = tmp_path / "graph"
    bad.mkdir()
    (bad / "entities.jsonl").write_text('{"name": "财政部"}\n{"type": "agency"}\n', encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_graph_entities(tmp_path)
    assert (caught.value.line, caught.value.field) == (2, "name")


@pytest.fixture
def kit(embedder):
    return Toolkit(embedder, graph=GRAPH)


def case(question, answer, contexts):
    return EvalCase(question_id="q", question=question, answer=answer, retrieved_contexts=contexts)


def test_entity_dimensions_follow_seed_000(kit):
    c = case("深圳市小型微利企业有什么所得税优惠？", "小型微利企业减按25%计入应纳税所得额，由国家发改委负责。",
             ["深圳市小型微利企业减按25%计入应纳税所得额。"])
    coverage = kit.result("entity_coverage", c)
    assert coverage.value < 1 and "深圳市" in coverage.details["missing_entities"]
    assert "小型微利企业" in coverage.details["covered_entities"]
    sufficiency = kit.result("context_sufficiency", c)
    assert sufficiency.value > coverage.value and "深圳市" in sufficiency.details["covered_entities"]
    unverified = kit.result("unverified_entity_ratio", c)
    assert [e for e in unverified.details["unverified_entities"] if "发改委" in e] == unverified.details["unverified_entities"]
    assert len(unverified.details["unverified_entities"]) == 1  # 发改委 inside 国家发改委 counts once
    faith = kit.result("faithfulness", c).value
    hallucination = kit.result("hallucination_rate", c).value
    # the hallucination rate reads the faithfulness dimension after its 0.1 penalty
    faith_dimension = max(0, faith - 0.1 * unverified.value)
    assert hallucination == pytest.approx(min(1, (1 - faith_dimension) + 0.5 * unverified.value))
    assert kit.result("overall_score", c).details["dimension_scores"]["faithfulness"] == pytest.approx(faith_dimension)


@pytest.mark.parametrize(("question", "short", "long", "refusal", "other_entity"), [
    ("小型微利企业税率？", "20%。",
     "按照现行规定，符合条件的企业减按25%计入应纳税所得额，再按20%的税率缴纳，实际税负为5%，一直执行到2027年底。",
     "我不知道。", "高新技术企业按15%。"),
    ("How much does the Young Founders Grant pay?", "Up to $10,000.",
     "It depends on the size of your business and on how many people you plan to hire over the next two years, "
     "up to $10,000.", "I don't know.", "The Harbor Storefront Grant pays $25,000."),
])
def test_a_short_answer_naming_no_entity_covers_the_question_by_ellipsis(kit, question, short, long, refusal,
                                                                           other_entity):
    elliptical = kit.result("entity_coverage", case(question, short, [f"{question} {short}"]))
    assert elliptical.value == 1 and "ellipsis" in elliptical.details
    assert elliptical.details["covered_entities"] == elliptical.details["question_entities"]
    for answer in (long, refusal, other_entity):  # leaves them out, declines, or is about another name
        result = kit.result("entity_coverage", case(question, answer, [question]))
        assert result.value == 0 and "ellipsis" not in result.details, answer


def test_readme_example_is_no_longer_poor():
    result = ragpipe.evaluate("小型微利企业税率？", "20%。", ["小型微利企业按20%的税率缴纳企业所得税。"])
    assert result["dimension_scores"]["entity_coverage"] == 1 and result["entity_analysis"]["missing_entities"] == []
    assert result["quality_level"] != "较差"


def test_no_question_entity_or_no_graph_is_nan_not_a_default(embedder, kit):
    vague = kit.result("entity_coverage", case("怎么办？", "请咨询。", ["请咨询当地部门。"]))
    assert math.isnan(vague.value) and "no entity" in vague.error
    no_graph = Toolkit(embedder).result("unverified_entity_ratio", case("深圳市？", "深圳市。", ["深圳市。"]))
    assert math.isnan(no_graph.value) and "knowledge-graph" in no_graph.error


def test_overall_score_levels_and_diagnosis(kit):
    good = kit.result("overall_score", case("深圳市小型微利企业所得税怎么算？", "深圳市小型微利企业减按25%计入应纳税所得额。",
                                            ["深圳市小型微利企业减按25%计入应纳税所得额。"]))
    poor = kit.result("overall_score", case("深圳市小型微利企业所得税怎么算？", "注册资本最低100万元，需要验资报告。",
                                            ["深圳市小型微利企业减按25%计入应纳税所得额。"]))
    assert good.value > poor.value
    assert poor.details["quality_level"] == "较差"
    assert any("建议重新生成答案" in line for line in poor.details["diagnosis"])
    scores = good.details["dimension_scores"]
    weights = good.details["weights_used"]
    expected = sum(weights[d] * scores[d] for d in weights)
    assert good.value == pytest.approx(max(0, min(1, expected)))


def test_weights_come_from_yaml(tmp_path, embedder):
    custom = tmp_path / "eval.yaml"
    custom.write_text("evaluation:\n  weights: {faithfulness: 1.0, hallucination: 0.0}\n"
                      "  thresholds: {entity_coverage: 0.8, faithfulness: 0.7, relevancy: 0.7, sufficiency: 0.8,\n"
                      "    hallucination: 0.2, unverified_entities: 0.2, high_risk_hallucination: 0.5, regenerate_below: 0.7}\n"
                      "  quality_levels: {good: 0.5, bad: 0.0}\n"
                      "  unverified_penalty: {faithfulness: 0.0, hallucination: 0.0}\n", encoding="utf-8")
    kit = Toolkit(embedder, graph=GRAPH, config=load_config(str(custom)))
    c = case("深圳市的优惠？", "深圳市小型微利企业减按25%计入。", ["深圳市小型微利企业减按25%计入。"])
    result = kit.result("overall_score", c)
    assert result.value == kit.result("faithfulness", c).value
    assert result.details["quality_level"] in {"good", "bad"}
    bad = tmp_path / "bad.yaml"
    bad.write_text("evaluation:\n  weights: {charisma: 1.0}\n  thresholds: {}\n  quality_levels: {}\n"
                   "  unverified_penalty: {}\n", encoding="utf-8")
    with pytest.raises(InputError, match="weights"):
        load_config(str(bad))


def test_evaluate_returns_seed_000_shape():
    result = ragpipe.evaluate("中小企业税收优惠政策有哪些？", "中小企业享受所得税减免、增值税优惠等政策支持，由国家发改委审批",
                              ["国家对中小企业实行所得税减免和增值税优惠政策支持。"], graph_entities=["中小企业", "财政部"])
    assert set(result) >= {"overall_score", "dimension_scores", "diagnosis", "entity_analysis"}
    assert set(result["dimension_scores"]) == {"entity_coverage", "faithfulness", "relevancy", "sufficiency", "hallucination"}
    assert set(result["entity_analysis"]) == {"question_entities", "answer_entities", "missing_entities",
                                              "unverified_entities"}
    assert 0 <= result["overall_score"] <= 1 and result["quality_level"] in {"优秀", "良好", "一般", "较差"}
    assert any("发改委" in e for e in result["entity_analysis"]["unverified_entities"])
    assert "中小企业" not in result["entity_analysis"]["unverified_entities"]
    assert REGISTRY["overall_score"].higher_is_better


def test_numbers_are_checked_against_the_contexts_never_the_graph():
    question = "How long does the Harbor Storefront Grant last?"
    context = ["The Harbor Storefront Grant lasts 6 months from March 1."]
    copied = ragpipe.evaluate(question, context[0], context, graph_entities=["Harbor Storefront Grant"])
    assert copied["entity_analysis"]["unverified_entities"] == []
    assert copied["metrics"]["unverified_entity_ratio"]["value"] == 0
    assert copied["dimension_scores"]["hallucination"] < 0.05
    changed = ragpipe.evaluate(question, "The Harbor Storefront Grant lasts 9 months from March 1.", context,
                               graph_entities=["Harbor Storefront Grant"])
    assert changed["entity_analysis"]["unverified_entities"] == ["9 months"]
    assert changed["metrics"]["unverified_entity_ratio"]["value"] == pytest.approx(1 / 3, abs=1e-4)
    assert changed["dimension_scores"]["hallucination"] > copied["dimension_scores"]["hallucination"]
