"""Evaluation assets, one partition per (dataset, bot version): the bot's responses, one
score asset per registered metric, their aggregate, and the diagnosis report. The
per-dataset leaderboard over all bot versions is in leaderboard.py."""

import json
from collections import Counter

import dagster as dg
import pandas as pd

from ragpipe.core.inputs.bot_config import load_bot_config, version_order
from ragpipe.core.inputs.bots import BotSetting, answer_all, make_bot
from ragpipe.core.diagnosis.rules import diagnose_evaluation
from ragpipe.core.labels.calibration import load_calibrations, with_calibration
from ragpipe.core.metrics import REGISTRY, Metric, Toolkit, judge_use
from ragpipe.core.report import evaluation_data, page_url, write_evaluation
from ragpipe.core.report.data import answer_drift, clean, evaluation_cards, round_drift
from ragpipe.core.report.render import EVALUATION_PAGE, INDEX_PAGE, record_round
from ragpipe.core.report.summaries import aggregates_markdown, evaluation_markdown, responses_markdown, scores_markdown
from ragpipe.core.schemas import Chunk, EvalCase, InputError, InputErrors
from ragpipe.core.verdict import aggregate_rows, compare_versions, threshold_checks
from ragpipe.defs.code_versions import code_version
from ragpipe.defs.datasets.assets import (content_version, dataset_language, graph_from_snapshot, graph_version,
                                          snapshot_metadata)
from ragpipe.defs.evaluation.score_cache import ScoreCache
from ragpipe.defs.cluster import DaskResource, endpoint_pool, score_row
from ragpipe.defs.evaluation.tables import findings_table, rounded, scores_table
from ragpipe.defs.errors import input_failure
from ragpipe.defs.progress import report_progress
from ragpipe.defs.partitions import BY_DATASET, bot_version_keys, evaluations
from ragpipe.defs.resources import EmbedderResource, LLMResource, ProjectPaths

DATASET_INPUT = {"partition_mapping": BY_DATASET}
SCORE_INS = {f"score_{name}": dg.AssetIn(key=["scores", name]) for name in REGISTRY}
LABELS_IN = {"human_labels": dg.AssetIn()}  # ragpipe.defs.evaluation.labels


def dataset_and_bot(context: dg.AssetExecutionContext) -> tuple[str, str]:
    """The dataset and the bot version of a run's partition."""
    key = context.partition_key.keys_by_dimension
    return key["dataset"], key["bot"]


def page_metadata(paths: ProjectPaths, page, fragment: str = "") -> dict:
    """The report page of an asset, as a file path and as the `ragpipe report serve` URL."""
    return {"page": dg.MetadataValue.path(str(page)),
            "page_url": dg.MetadataValue.url(page_url(paths.reports, page) + fragment)}


def evaluation_page(paths: ProjectPaths, dataset: str, bot_version: str):
    return paths.reports / dataset / bot_version / EVALUATION_PAGE


# A run tagged so asks HTTP bots every question again, in an answer round of its own,
# instead of re-scoring the answers they gave before (see ragpipe.core.inputs.bots). The schedules
# set it, and so do `ragpipe run`, `eval` and `backfill` with --reask; a run launched from
# the UI may carry it too.
REASK_TAG = "ragpipe/reask"


# Steps that call an endpoint hold a slot of its pool (dagster.yaml: one slot each), so that
# concurrent runs never send a bot endpoint or the judge more than its configured concurrency.
BOT_POOL, JUDGE_POOL = "bot_endpoints", "judge"


@dg.asset(partitions_def=evaluations, group_name="answers", kinds={"parquet"}, pool=endpoint_pool(BOT_POOL),
          code_version=code_version("responses"),
          ins={"corpus": dg.AssetIn(**DATASET_INPUT), "question_set": dg.AssetIn(**DATASET_INPUT)})
def rag_responses(context: dg.AssetExecutionContext, paths: ProjectPaths, embedder: EmbedderResource,
                  corpus: pd.DataFrame, question_set: pd.DataFrame) -> dg.Output[pd.DataFrame]:
    """One row per question for one bot version: answer, retrieved contexts and their
    chunk ids, latency, and the error when the bot failed on that question. For a bot that
    keeps answer rounds (HTTP) also the answer of the round before (`previous_answer`) and, in the frame's
    attrs, its answer round and the round before, so that drift of a bot behind an
    unchanged config shows."""
    dataset, bot_version = dataset_and_bot(context)
    reask = context.run.tags.get(REASK_TAG) == "true"
    with input_failure():
        config = load_bot_config(paths.bot_file(bot_version))
        # A retried or re-executed run keeps its root run's id: it continues that run's round.
        bot = make_bot(BotSetting(config, dataset, [Chunk(**row) for row in corpus.to_dict("records")],
                                  embedder.embedder, paths.answers_cache, context.run.root_run_id or context.run.run_id,
                                  reask, paths.dataset_dir(dataset)))
    questions = list(zip(question_set["question_id"], question_set["question"]))
    try:
        rows = answer_all(bot, questions, lambda done, total: report_progress(context, ["rag_responses"], done, total))
        if bot.keeps_rounds:
            for row, (qid, question) in zip(rows, questions):
                row["previous_answer"] = bot.previous_answer(qid, question)
    finally:
        bot.close()
    frame = pd.DataFrame(rows)
    if bot.keeps_rounds:  # the IO manager keeps attrs in the Parquet file
        frame.attrs.update(round=bot.round_id, previous_round=bot.previous_round)
    failed = frame["error"].dropna()
    causes = dict(Counter(error.split(":", 1)[0] for error in failed).most_common())
    calls = {**bot.calls(), "reask": reask, **answer_drift(frame)} if bot.keeps_rounds else {}
    if len(frame) and len(failed) > config.max_failure_share * len(frame):
        kept = f" The {len(frame) - len(failed)} answers received are cached: materializing again asks only " \
               f"the failed questions." if bot.keeps_rounds else ""
        raise dg.Failure(
            description=f"{config.key} failed on {len(failed)} of {len(frame)} questions "
                        f"({len(failed) / len(frame):.0%}, more than max_failure_share {config.max_failure_share:.0%} "
                        f"of {paths.bot_file(bot_version).name}); causes: "
                        + ", ".join(f"{cause} ×{n}" for cause, n in causes.items()) + "." + kept,
            metadata={"errors": len(failed), "questions": len(frame), "causes": dg.MetadataValue.json(causes),
                      **calls})
    # By content: with a code version, Dagster would derive one from the code and the inputs
    # alone, the same for every answer round, and the scores would never look stale.
    return dg.Output(frame, data_version=content_version(frame), metadata={
        "bot": config.key, "kind": config.kind,
        **({"retrieval": config.retrieval.method, "top_k": config.retrieval.top_k} if config.retrieval else {}),
        "errors": len(failed), "error_causes": dg.MetadataValue.json(causes), **calls,
        "latency_ms_p50": float(frame["latency_ms"].median()),
        "summary": dg.MetadataValue.md(responses_markdown(frame)),
        **page_metadata(paths, evaluation_page(paths, dataset, bot_version))})


def build_cases(question_set: pd.DataFrame, responses: pd.DataFrame) -> list[EvalCase]:
    merged = question_set.merge(responses, on="question_id", how="left")
    return [
        EvalCase(
            question_id=r["question_id"], question=r["question"],
            ground_truth_answer=r["ground_truth_answer"] if isinstance(r["ground_truth_answer"], str) else None,
            ground_truth_contexts=list(r["ground_truth_contexts"]),
            answer=r["answer"] if isinstance(r["answer"], str) else None,
            retrieved_contexts=list(r["retrieved_contexts"]) if r["retrieved_contexts"] is not None else [],
            retrieved_ids=list(r["retrieved_ids"]) if r["retrieved_ids"] is not None else [],
            bot_error=r["error"] if isinstance(r["error"], str) else None,
        )
        for r in merged.to_dict("records")
    ]


def _score_out(metric: Metric) -> dg.AssetOut:
    direction = "higher is better" if metric.higher_is_better else "lower is better"
    return dg.AssetOut(
        key=["scores", metric.name], group_name="scores", kinds={"parquet"}, is_required=False,
        code_version=code_version("scores"),
        description=f"{metric.definition} Range {metric.value_range}, {direction}. "
                    f"Reads {', '.join(metric.reads)}. NaN when {metric.nan_when}.")


@dg.multi_asset(outs={name: _score_out(m) for name, m in REGISTRY.items()}, partitions_def=evaluations,
                can_subset=True, pool=endpoint_pool(JUDGE_POOL),
                ins={"question_set": dg.AssetIn(**DATASET_INPUT), "rag_responses": dg.AssetIn(),
                     "graph_entities": dg.AssetIn(**DATASET_INPUT)})
def scores(context: dg.AssetExecutionContext, paths: ProjectPaths, embedder: EmbedderResource, llm: LLMResource,
           dask: DaskResource, question_set: pd.DataFrame, rag_responses: pd.DataFrame, graph_entities: pd.DataFrame):
    """One asset per registered metric, computed in one step so every metric shares the
    statements, entities, verdicts and sub-metric results of each question. The entity
    metrics verify against the graph_entities snapshot, so lineage shows which graph
    version produced which scores."""
    dataset, bot_version = dataset_and_bot(context)
    snapshot = snapshot_metadata(context.instance, dataset)
    graph = graph_from_snapshot(graph_entities, snapshot)
    with input_failure():
        evaluation = paths.evaluation(dataset)
    judge_model = evaluation.judge_model if evaluation and evaluation.judge_model else llm.model
    judge = llm.evaluator(dataset_language(paths, dataset), judge_model)
    toolkit = Toolkit(embedder.embedder, graph=graph, llm=judge)
    cases = build_cases(question_set, rag_responses)
    names = [key.path[-1] for key in context.selected_asset_keys]
    # A named evaluation's metrics are measured; the others are stored unmeasured, saying why.
    measured = evaluated_metrics(paths, dataset)
    left_out = [n for n in names if n not in measured]
    names = [n for n in names if n not in left_out]
    score_cache = ScoreCache(paths.score_cache, {
        "mode": toolkit.mode, "embedder": embedder.backend, "judge": judge_model if judge is not None else None,
        "language": dataset_language(paths, dataset), "graph": graph_version(graph_entities, snapshot)})
    kept = score_cache.get_many(names, cases)
    todo = [name for name in names if None in kept[name]]
    todo_cases = [case for i, case in enumerate(cases) if any(kept[name][i] is None for name in todo)]
    frames, llm_metadata = {}, {}
    calibrations = load_calibrations(paths.calibrations, dataset)  # fitted on this dataset's human labels
    try:
        before = judge.stats() if judge is not None else None
        if judge is not None:  # every sample's calls, batched and concurrent, before the metrics read them
            judge.prefetch(todo_cases, judge_use(todo))
        computed = {}
        if dask.configured and judge is None:  # offline on a Dask cluster: the rows in chunks over the workers
            computed = dask.score(embedder.backend, embedder.cache_path, graph, todo, todo_cases, score_cache.put)
        else:
            toolkit.prefetch(todo_cases, todo)  # offline: every text the metrics embed, in one batched encode
        for name in names:
            prompt_version = judge.prompt_hash(REGISTRY[name].judge) if judge is not None else None
            rows = []
            for i, (case, row) in enumerate(zip(cases, kept[name]), start=1):
                if row is None:
                    row = computed.get((name, case.question_id))
                    if row is None:
                        row = score_row(toolkit, name, case)
                        score_cache.put(name, case, row)  # written in batches, the rest on close
                rows.append({"question_id": case.question_id, **row, "prompt_version": prompt_version})
                report_progress(context, ["scores", name], i, len(cases))
            frames[name] = with_calibration(pd.DataFrame(rows), calibrations.get(name))
        for name in left_out:
            frames[name] = with_calibration(pd.DataFrame(
                [{"question_id": case.question_id, "value": float("nan"), "details": "{}",
                  "error": f"not among the metrics of evaluation {dataset}", "prompt_version": None}
                 for case in cases]), None)
        if judge is not None:  # calls, cache hits and misses, tokens and cost of this materialization
            llm_metadata = (judge.stats() - before).as_metadata()
    finally:
        score_cache.close()
        if judge is not None:
            judge.llm.close()
    for name, frame in frames.items():
        measured = frame["value"].dropna()
        version = frame["prompt_version"].iloc[0] if len(frame) else None
        yield dg.Output(frame, output_name=name, metadata={
            "mean": rounded(float(measured.mean())) if len(measured) else float("nan"),
            "n": len(measured), "n_unmeasured": int(frame["value"].isna().sum()), "mode": toolkit.mode,
            "rescored": kept[name].count(None) if name in kept else 0,  # the other rows' inputs were scored before
            "calibration": frame["calibration"].iloc[0] if len(frame) else "none",
            "graph": snapshot.get("source", "embedded"),
            **({"prompt_version": version} if version else {}), **llm_metadata,
            "summary": dg.MetadataValue.md(scores_markdown(name, frame, REGISTRY[name].higher_is_better)),
            **page_metadata(paths, evaluation_page(paths, dataset, bot_version), f"#metric={name}"),
        })


def config_problem(paths: ProjectPaths, bot_version: str) -> str | None:
    """Why a version's config, as it is now, cannot be evaluated (invalid, ambiguous or
    deleted), or None. Such a version's stored results came from an earlier config: stale."""
    try:
        load_bot_config(paths.bot_file(bot_version))
    except (InputError, InputErrors) as exc:
        return str(exc)
    except FileNotFoundError:
        return f"{paths.bot_file(bot_version)} was deleted"
    return None


def baseline_of(paths: ProjectPaths, bot_version: str) -> str:
    """The version of the same bot marked ``baseline: true``, else its oldest version;
    only versions whose config is valid now count."""
    name = bot_version.split("@", 1)[0]
    valid = {}
    for key in sorted((k for k in bot_version_keys(paths.data) if k.split("@", 1)[0] == name), key=version_order):
        try:
            valid[key] = load_bot_config(paths.bot_file(key))
        except (InputError, InputErrors):
            continue
    marked = [key for key, config in valid.items() if config.baseline]
    return marked[0] if marked else next(iter(valid), bot_version)


def compare_with_baseline(paths: ProjectPaths, dataset: str, bot_version: str, baseline: str,
                          scores: dict[str, pd.DataFrame]) -> dict[str, dict]:
    """Per metric, this version's per-question scores against the baseline's stored ones
    (compare_versions: the paired difference, its CI95, the p-value of a drop and the
    regression gate's verdict), of the metrics the partition key measures. Empty for the
    baseline itself."""
    if baseline == bot_version:
        return {}
    key = dg.MultiPartitionKey({"dataset": dataset, "bot": baseline})
    measured = evaluated_metrics(paths, dataset)
    return compare_versions({name: scores[name] for name in measured if name in scores},
                            {name: paths.warehouse.stored(["scores", name], key) for name in measured})


def evaluated_metrics(paths: ProjectPaths, dataset: str) -> list[str]:
    """The metrics a partition key measures: a named evaluation's own, else every one."""
    with input_failure():
        evaluation = paths.evaluation(dataset)
    return list(evaluation.metrics) if evaluation and evaluation.metrics else list(REGISTRY)


@dg.asset(partitions_def=evaluations, group_name="aggregates", kinds={"parquet"}, ins={**SCORE_INS, **LABELS_IN},
          code_version=code_version("reports"))
def aggregate_scores(context: dg.AssetExecutionContext, paths: ProjectPaths, human_labels: pd.DataFrame,
                     **score_inputs: pd.DataFrame):
    """Per metric: mean, bootstrap CI95, n, number unmeasured, and the share of questions
    on the good side of the warning threshold. Its checks compare each mean with the
    thresholds of the rule engine and the per-question scores with the bot's baseline version."""
    dataset, bot_version = dataset_and_bot(context)
    scores = {name: score_inputs[f"score_{name}"] for name in REGISTRY}
    rows = aggregate_rows(scores, human_labels, evaluated_metrics(paths, dataset))
    checks = threshold_checks(rows)
    context.add_output_metadata({
        "summary": dg.MetadataValue.md(aggregates_markdown(rows, checks)),
        "scores": scores_table(rows),
        **page_metadata(paths, evaluation_page(paths, dataset, bot_version)),
    })
    return pd.DataFrame(rows)


# Not downstream of aggregate_scores: a failed blocking check must not leave the report of
# the regressed version unwritten or stale, since the report is where the drop is explained.
@dg.asset(partitions_def=evaluations, group_name="diagnosis", kinds={"parquet", "html"},
          code_version=code_version("reports"),
          ins={"question_set": dg.AssetIn(**DATASET_INPUT), "rag_responses": dg.AssetIn(), **SCORE_INS, **LABELS_IN})
def diagnosis_report(context: dg.AssetExecutionContext, paths: ProjectPaths, question_set: pd.DataFrame,
                     rag_responses: pd.DataFrame, human_labels: pd.DataFrame, **scores: pd.DataFrame) -> pd.DataFrame:
    """One diagnosis of the evaluation: the rule engine over the aggregate scores
    (root causes, suggested actions, worst samples per metric past a threshold), the
    per-sample diagnosis and the rubric judge's suggestions. Its page (scores with
    CI, checks, radar chart, distributions, diagnosis, drift between the HTTP bot's answer
    rounds, a card per question) and data are written under `reports/<dataset>/<bot>/` and
    summarised here as Markdown."""
    dataset, bot_version = dataset_and_bot(context)
    scores = {name: scores[f"score_{name}"] for name in REGISTRY}
    aggregates = pd.DataFrame(aggregate_rows(scores, human_labels, evaluated_metrics(paths, dataset)))
    per_question = question_set.merge(rag_responses, on="question_id", how="left")
    for name in REGISTRY:
        per_question[name] = per_question["question_id"].map(scores[name].set_index("question_id")["value"])
    means = dict(zip(aggregates["metric"], aggregates["mean"]))
    language = dataset_language(paths, dataset)
    diagnosis = diagnose_evaluation(means, per_question, scores, language="zh" if language == "zh" else "en")
    baseline = baseline_of(paths, bot_version)
    comparison = compare_with_baseline(paths, dataset, bot_version, baseline, scores)
    drift = None
    if rag_responses.attrs.get("round"):  # an HTTP bot's answers: keep this round's means, compare rounds
        rounds = record_round(paths.reports, dataset, bot_version, rag_responses.attrs["round"],
                              clean(means))
        drift = round_drift(rag_responses, rounds)
    data = evaluation_data(dataset, bot_version, language, question_set, rag_responses, aggregates, scores,
                           diagnosis, baseline, comparison, drift)
    data["agreement"] = clean(human_labels.attrs)  # people against the metrics (ragpipe.defs.evaluation.labels)
    page = write_evaluation(paths.reports, data, evaluation_cards(question_set, rag_responses, scores, diagnosis))
    findings = diagnosis.findings
    context.add_output_metadata({
        "report": dg.MetadataValue.md(evaluation_markdown(data)),
        "scores": scores_table(data["aggregates"]),
        "findings": findings_table(findings),
        **page_metadata(paths, page),
        "json": dg.MetadataValue.path(str(page.with_name("diagnosis.json"))),
        "site": dg.MetadataValue.path(str(paths.reports / INDEX_PAGE)),
        "status": data["status"],
        "critical": sum(f.severity == "critical" for f in findings),
        "warning": sum(f.severity == "warning" for f in findings),
        "answers_to_regenerate": sum(s.regenerate for s in diagnosis.samples.values()),
    })
    return pd.DataFrame([{**f.as_dict(), "low_samples": json.dumps(f.low_samples, ensure_ascii=False, default=str)}
                         for f in findings], columns=list(findings[0].as_dict()) if findings else ["metric"])
