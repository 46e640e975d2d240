"""Generated questions: the generated_questions asset, a person's review, the quality
filters that keep fragments out, and the generation config's errors."""

import shutil

import pandas as pd
import pytest

from ragpipe.cli import main
from ragpipe.core.schemas import InputError, InputErrors


def test_generated_questions_are_reviewed_then_evaluated_end_to_end(project, capsys):
    """The sample policy_zh, offline: generation as an asset, a person's review through the
    CLI, only accepted questions in the question set (edits applied, ids stable), answered
    and scored; a changed generation config keeps every decision."""
    import dagster as dg
    import yaml

    from ragpipe.defs.definitions import build_defs
    from ragpipe.defs.jobs import DATASET_ASSETS, EVALUATION_ASSETS
    from ragpipe.defs.partitions import sync_partitions
    from ragpipe_tests.conftest import trim_questions

    shutil.rmtree(project / "data" / "datasets" / "product_en")
    folder = project / "data" / "datasets" / "policy_zh"
    trim_questions(folder, 3)
    meta = yaml.safe_load((folder / "dataset.yaml").read_text(encoding="utf-8"))
    (folder / "dataset.yaml").write_text(yaml.safe_dump(
        {**meta, "generation": {"generator": "offline", "per_document": 1}}, allow_unicode=True), encoding="utf-8")
    defs = build_defs(project)
    warehouse = defs.resources["paths"].warehouse
    instance = dg.DagsterInstance.ephemeral()
    sync_partitions(instance, project / "data")

    def prepare() -> tuple[pd.DataFrame, pd.DataFrame, str]:
        result = dg.materialize(DATASET_ASSETS, partition_key="policy_zh", instance=instance, resources=defs.resources)
        (event,) = result.asset_materializations_for_node("question_set")
        return (warehouse.stored(["generated_questions"], "policy_zh"), warehouse.stored(["question_set"], "policy_zh"),
                event.tags["dagster/data_version"])

    candidates, questions, before = prepare()
    pending = candidates[candidates["status"] == "pending"]
    assert len(pending) >= 10 and len(questions) == 3  # candidates do not join the question set
    assert all(candidates.loc[candidates["status"] == "filtered", "reason"].str.len() > 0)
    review = ["questions", "--dataset", "policy_zh", "review", "--project-dir", str(project)]
    assert main(review) == 0 and pending["key"].iloc[0] in capsys.readouterr().out
    keys = list(pending["key"])
    assert main([*review, "--accept", keys[0], keys[1]]) == 0
    assert main([*review, "--reject", keys[2]]) == 0
    assert main([*review, "--edit", keys[3], "--question", "深圳市初创企业的一次性创业资助是多少？"]) == 0
    assert main([*review, "--accept", "no-such-key"]) == 1

    candidates, questions, after = prepare()
    accepted = {f"gen-{k[:10]}" for k in (keys[0], keys[1], keys[3])}
    assert set(questions["question_id"]) - {"zh-001", "zh-002", "zh-003"} == accepted and after != before
    assert "深圳市初创企业的一次性创业资助是多少？" in set(questions["question"])
    assert dict(candidates.set_index("key")["status"][[keys[2], keys[4]]]) == {keys[2]: "rejected", keys[4]: "pending"}
    assert main(review) == 0 and keys[0] not in capsys.readouterr().out  # decided: not asked again

    # a changed config regenerates: decisions keep their keys, the accepted set (and version) stays
    (folder / "dataset.yaml").write_text(yaml.safe_dump(
        {**meta, "generation": {"generator": "offline", "per_document": 2}}, allow_unicode=True), encoding="utf-8")
    more, questions_again, version = prepare()
    assert len(more) > len(candidates) and version == after
    decided = ["accepted", "rejected"]
    assert (more[more["status"].isin(decided)].set_index("key")["status"].to_dict()
            == candidates[candidates["status"].isin(decided)].set_index("key")["status"].to_dict())

    partition = dg.MultiPartitionKey({"dataset": "policy_zh", "bot": "refbot@v1"})
    run = dg.materialize([*DATASET_ASSETS, *EVALUATION_ASSETS], selection=["rag_responses", "scores/context_recall"],
                         partition_key=partition, instance=instance, resources=defs.resources)
    assert run.success
    scores = warehouse.stored(["scores", "context_recall"], partition)
    assert accepted <= set(scores["question_id"]) and scores.set_index("question_id").loc[list(accepted), "value"].notna().all()


def test_llm_generation_inside_the_asset_uses_its_judge_model_and_asks_once(project, monkeypatch, capsys):
    """generator: llm in dataset.yaml, through the generated_questions asset against a loopback
    judge: candidates carry their model and source chunks, the dataset's judge_model is the one
    asked, and preparing again after a review asks the judge nothing (decisions and answers kept)."""
    import dagster as dg
    import yaml

    from ragpipe.defs.definitions import build_defs
    from ragpipe.defs.jobs import DATASET_ASSETS
    from ragpipe.defs.partitions import sync_partitions
    from ragpipe.testing.openai_server import OpenAIServer
    from ragpipe_tests.test_question_gen_llm import DOCS, GOOD, asked_n, generation_route, item

    for dataset in ("policy_zh", "product_en"):
        shutil.rmtree(project / "data" / "datasets" / dataset)
    folder = project / "data" / "datasets" / "grants_en"
    (folder / "docs").mkdir(parents=True)
    (folder / "questions").mkdir()
    (folder / "docs" / "harbor.md").write_text(DOCS["en"]["harbor"], encoding="utf-8")
    (folder / "questions" / "hand.jsonl").write_text(
        '{"id": "h1", "question": "Is the Harbor Storefront Grant a loan?", '
        '"ground_truth_answer": "No, it is a grant."}\n', encoding="utf-8")
    (folder / "dataset.yaml").write_text(yaml.safe_dump({"language": "en", "generation": {
        "generator": "llm", "per_document": 2, "judge_model": "gen-judge"}}), encoding="utf-8")
    with OpenAIServer() as server:
        server.route = generation_route(lambda req: [item(q, t, p) for q, t, p in GOOD["en"]][:asked_n(req)])
        monkeypatch.setenv("RAGPIPE_LLM_BASE_URL", server.base_url)
        monkeypatch.setenv("RAGPIPE_LLM_MODEL", "not-the-generation-model")
        defs = build_defs(project)
        warehouse = defs.resources["paths"].warehouse
        instance = dg.DagsterInstance.ephemeral()
        sync_partitions(instance, project / "data")

        def prepare() -> tuple[pd.DataFrame, pd.DataFrame]:
            assert dg.materialize(DATASET_ASSETS, partition_key="grants_en", instance=instance,
                                  resources=defs.resources).success
            return warehouse.stored(["generated_questions"], "grants_en"), warehouse.stored(["question_set"], "grants_en")

        candidates, questions = prepare()
        assert {r.body["model"] for r in server.requests} == {"gen-judge"}
        pending = candidates[candidates["status"] == "pending"]
        assert list(pending["question"]) == [q for q, _, _ in GOOD["en"]]
        assert all("model=gen-judge" in origin for origin in pending["origin"])
        assert [list(c) for c in pending["ground_truth_contexts"]] == [["harbor#0"], ["harbor#1"]]
        assert list(questions["question_id"]) == ["h1"]  # candidates wait for a person

        review = ["questions", "--dataset", "grants_en", "review", "--project-dir", str(project)]
        assert main([*review, "--accept", pending["key"].iloc[0]]) == 0
        asked = len(server.requests)
        candidates, questions = prepare()
        assert len(server.requests) == asked  # the response cache answers: nothing is generated twice
        assert len(questions) == 2 and GOOD["en"][0][0] in set(questions["question"])


def test_generation_config_errors_name_the_field(tmp_path):
    from ragpipe.core.inputs.generation import GenerationConfig, generate_candidates, generation_config

    where = tmp_path / "dataset.yaml"
    with pytest.raises(InputErrors) as exc:
        generation_config({"generation": {"generator": "gpt", "per_document": 99}}, where)
    assert {(p.file, p.field) for p in exc.value.problems} == {(str(where), "generation.generator"),
                                                               (str(where), "generation.per_document")}
    with pytest.raises(InputError, match="INFERENTIAL questions need `generator: llm`"):
        generate_candidates(GenerationConfig(types=["FACTUAL", "INFERENTIAL"]), tmp_path, [], None, [], None)


@pytest.mark.parametrize("sentence, title, expected", [
    # a subject awaiting its verb takes the clause after it (was "…多少人（含）以下的企业？")
    ("在职职工总数30人（含）以下的企业，暂免征收残疾人就业保障金。", "残疾人就业保障金减免政策",
     "根据《残疾人就业保障金减免政策》，在职职工总数多少人（含）以下的企业，暂免征收残疾人就业保障金？"),
    # a time clause as well (was "…，自什么时间起？")
    ("自2023年1月1日起，企业研发费用按实际发生额的100%在税前加计扣除。", "研发费用税前加计扣除政策",
     "根据《研发费用税前加计扣除政策》，自什么时间起，企业研发费用按实际发生额的100%在税前加计扣除？"),
    # "2 percentage points" is no "2 percent" (was "what percentageage points")
    ("The Office refunds 2 percentage points of the interest on a qualifying loan.", "Loan Rebate", None),
    # one end of a range is half a fact (was "…分别为多大比例至1.9%？")
    ("一类至八类行业的基准费率分别为0.2%至1.9%。", "社会保险费率", None),
])
def test_offline_questions_are_whole_questions(sentence, title, expected):
    from ragpipe.core.inputs.question_filters import malformed_reason
    from ragpipe.core.inputs.question_gen import question_for

    made = question_for(sentence, title)
    if expected is None:
        assert made is None or ("percentageage" not in made[0] and "至1.9%" not in made[0]), made
    else:
        assert made[0] == expected and malformed_reason(made[0]) is None
    for fragment in ("根据《残疾人就业保障金减免政策》，在职职工总数多少人（含）以下的企业？",
                     "根据《研发费用税前加计扣除政策》，自什么时间起？", "According to “X”, if a worker leaves within how many months?"):
        assert malformed_reason(fragment)
