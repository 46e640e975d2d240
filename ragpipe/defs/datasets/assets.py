"""Dataset-level assets: the chunked corpus, the questions generated from it (candidates
until a person accepts them), the question set, and the snapshot of the knowledge-graph
entities the entity metrics verify against."""

import hashlib
from collections import Counter

import dagster as dg
import pandas as pd

from ragpipe.core.inputs.corpus import load_corpus
from ragpipe.core.evidence.entities import GraphEntities
from ragpipe.core.inputs.graph import GraphUnavailable
from ragpipe.core.inputs.generation import (ACCEPTED, CANDIDATE_COLUMNS, FILTERED, PENDING, accepted_questions,
                                            apply_decisions, generate_candidates, generation_config, read_decisions)
from ragpipe.core.inputs.questions import check_question_files, load_questions, question_files
from ragpipe.core.schemas import Chunk
from ragpipe.core.inputs.recorded import has_recording, recorded_questions
from ragpipe.core.schemas import InputError
from ragpipe.core.yaml_input import read_yaml
from ragpipe.core.report.render import INDEX_PAGE
from ragpipe.core.report.summaries import table
from ragpipe.defs.code_versions import code_version
from ragpipe.defs.errors import input_failure
from ragpipe.defs.partitions import datasets, partitioned_check
from ragpipe.defs.resources import EmbedderResource, GraphResource, LLMResource, ProjectPaths


def content_version(frame: pd.DataFrame) -> dg.DataVersion:
    """Changes only when the content does, so downstream re-runs only then."""
    digest = hashlib.sha256(pd.util.hash_pandas_object(frame.astype(str), index=False).values.tobytes())
    return dg.DataVersion(digest.hexdigest()[:16])


def dataset_meta(paths: ProjectPaths, dataset: str) -> dict:
    """The dataset's ``dataset.yaml`` ({} without one)."""
    meta = paths.dataset_dir(dataset) / "dataset.yaml"
    with input_failure():
        config = read_yaml(meta) if meta.exists() else None
        if config is not None and not isinstance(config, dict):
            raise InputError(str(meta), "dataset", "expected a mapping such as `language: zh`")
    return config or {}


def dataset_language(paths: ProjectPaths, dataset: str) -> str:
    return dataset_meta(paths, dataset).get("language", "en")


@dg.asset(partitions_def=datasets, group_name="corpus", kinds={"parquet"}, code_version=code_version("corpus"))
def corpus(context: dg.AssetExecutionContext, paths: ProjectPaths) -> dg.Output[pd.DataFrame]:
    """The documents of one dataset (`data/datasets/<dataset>/docs/`), split into chunks with
    stable ids `<document>#<n>`. Documents that are not read (links out of the dataset,
    no regular file, too large) are skipped and named in `skipped`."""
    skipped = []
    with input_failure():
        chunks = load_corpus(paths.dataset_dir(context.partition_key), skipped)
    for problem in skipped:
        context.log.warning(f"skipped document {problem}")
    frame = pd.DataFrame([c.model_dump() for c in chunks])
    return dg.Output(frame, data_version=content_version(frame), metadata={
        "documents": frame["doc_id"].nunique(),
        "chunks": len(frame),
        "skipped": dg.MetadataValue.json([{"file": p.file, "problem": p.problem} for p in skipped]),
        "language": dataset_language(paths, context.partition_key),
        "summary": dg.MetadataValue.md("\n".join(table(
            ["document", "title", "chunks"],
            frame.groupby(["doc_id", "title"]).size().reset_index().values.tolist()))),
        "site": dg.MetadataValue.path(str(paths.reports / INDEX_PAGE)),
    })


@dg.asset(partitions_def=datasets, group_name="questions", kinds={"parquet"}, code_version=code_version("questions"))
def generated_questions(context: dg.AssetExecutionContext, paths: ProjectPaths, embedder: EmbedderResource,
                        llm: LLMResource, corpus: pd.DataFrame, graph_entities: pd.DataFrame) -> dg.Output[pd.DataFrame]:
    """Questions generated from the corpus as the `generation:` block of the dataset's
    `dataset.yaml` asks (offline or by the LLM), each with its ground-truth answer and source
    chunk ids. They are candidates: filtered when a quality check fails (with the reason),
    else pending until a person accepts or rejects them (`ragpipe questions review`), as
    recorded in the dataset's `review.jsonl`. Only accepted ones join the question set.
    Empty for a dataset without a `generation:` block."""
    dataset = context.partition_key
    dataset_dir = paths.dataset_dir(dataset)
    with input_failure():
        if evaluation := paths.evaluation(dataset):  # generated once, on the dataset's own key
            return dg.Output(pd.DataFrame(columns=CANDIDATE_COLUMNS), data_version=dg.DataVersion("none"),
                             metadata={"configured": False, "candidates": 0,
                                       "note": f"questions are generated on {evaluation.dataset}'s own partition"})
        config = generation_config(dataset_meta(paths, dataset), dataset_dir / "dataset.yaml")
        if config is None:
            return dg.Output(pd.DataFrame(columns=CANDIDATE_COLUMNS), data_version=dg.DataVersion("none"),
                             metadata={"configured": False, "candidates": 0})
        chunks = [Chunk.model_validate(row) for row in corpus.to_dict("records")]
        graph = graph_from_snapshot(graph_entities, snapshot_metadata(context.instance, dataset))
        existing = load_questions(dataset_dir, set(corpus["chunk_id"])) if question_files(dataset_dir) else []
        settings = llm.settings(config.judge_model) if config.generator == "llm" and llm.configured else None
        rows, dropped = generate_candidates(config, dataset_dir, chunks, graph, existing, embedder.embedder, settings)
        rows = apply_decisions(rows, read_decisions(dataset_dir))
    frame = pd.DataFrame(rows, columns=CANDIDATE_COLUMNS)
    status = Counter(frame["status"])
    return dg.Output(frame, data_version=content_version(frame), metadata={
        "configured": True, "generator": config.generator,
        **({"judge_model": settings.model} if settings else {}),
        "candidates": len(frame), **{s: status.get(s, 0) for s in (PENDING, ACCEPTED, "rejected", FILTERED)},
        "filtered_by_reason": dg.MetadataValue.json(dict(Counter(
            r.split(":")[0] for r in frame.loc[frame["status"] == FILTERED, "reason"]))),
        **({"dropped_by_llm_generator": dg.MetadataValue.json(dropped)} if dropped else {}),
        "pending_questions": dg.MetadataValue.md("\n".join(table(
            ["key", "type", "question"],
            frame.loc[frame["status"] == PENDING, ["key", "question_type", "question"]].head(20).values.tolist()))),
    })


@dg.asset(partitions_def=datasets, group_name="questions", kinds={"parquet"}, code_version=code_version("questions"))
def question_set(context: dg.AssetExecutionContext, paths: ProjectPaths, corpus: pd.DataFrame,
                 generated_questions: pd.DataFrame) -> dg.Output[pd.DataFrame]:
    """The questions of one dataset, imported from CSV/JSON/JSONL/XLSX files under `questions/`,
    each with its ground-truth answer and the ids of the chunks that hold it, and the generated
    questions a person accepted; or, for a dataset of recorded live traffic (`ragpipe serve
    --record`), the recorded questions; or, for a named evaluation, the files of the question
    set it names (docs/evaluations.md)."""
    dataset_dir = paths.dataset_dir(context.partition_key)
    accepted = accepted_questions(generated_questions.to_dict("records"))
    with input_failure():
        if evaluation := paths.evaluation(context.partition_key):  # a named evaluation: its question set's files
            questions = check_question_files(list(evaluation.question_files), dataset_dir, set(corpus["chunk_id"]),
                                             f"{dataset_dir / 'dataset.yaml'} question_sets.{evaluation.question_set}")
        elif has_recording(dataset_dir):
            questions = recorded_questions(dataset_dir)
        else:  # a dataset of generated questions only needs no question file
            written = load_questions(dataset_dir, set(corpus["chunk_id"])) if question_files(dataset_dir) or not accepted else []
            questions = written + accepted
    frame = pd.DataFrame([q.model_dump(mode="json") for q in questions])
    types = Counter(frame["question_type"])
    return dg.Output(frame, data_version=content_version(frame), metadata={
        "questions": len(frame),
        "by_type": dg.MetadataValue.json(dict(types)),
        "files": dg.MetadataValue.json(sorted({s.split(":")[0] for s in frame["source"]})),
        "summary": dg.MetadataValue.md("\n".join(table(
            ["question_id", "type", "question"], frame[["question_id", "question_type", "question"]].head(20).values.tolist()))),
        "site": dg.MetadataValue.path(str(paths.reports / INDEX_PAGE)),
        "provenance": dg.MetadataValue.json(question_provenance(questions)),
    })


def question_provenance(questions) -> dict[str, dict[str, int]]:
    """Per file, how many questions were written by hand and how many each generator made
    (``generator model=… prompt=name@version:hash``, the origin without its source chunks)."""
    out: dict[str, Counter] = {}
    for q in questions:
        made_by = q.origin.split(" from ")[0] if q.origin else "written"
        out.setdefault(q.source.split(":")[0], Counter())[made_by] += 1
    return {file: dict(counts) for file, counts in sorted(out.items())}


GRAPH_CHECK = "graph_available"
GRAPH_COLUMNS = ["name", "type", "aliases"]


@dg.asset(partitions_def=datasets, group_name="corpus", kinds={"parquet"}, code_version=code_version("graph"),
          check_specs=[partitioned_check(GRAPH_CHECK, "graph_entities", datasets,
                                         description="the configured knowledge graph could be read")])
def graph_entities(context: dg.AssetExecutionContext, paths: ProjectPaths, graph: GraphResource):
    """The knowledge-graph entities (name, type, aliases) of one dataset as the score assets
    used them: from the dataset's embedded `graph/` files, or from Neo4j when configured.
    Its data version is a hash of the entity set, so scores re-run only when it changes.
    When the graph cannot be read the snapshot is empty, says why, and the entity metrics
    downstream are unmeasured with that reason (the other metrics are still computed)."""
    with input_failure():
        dataset = paths.dataset_dir(context.partition_key).name  # a named evaluation reads its dataset's graph
    source = graph.source(paths.data / "datasets")
    frame = pd.DataFrame(columns=GRAPH_COLUMNS)
    error = None
    try:
        with input_failure():
            snapshot = source.read(dataset)
    except GraphUnavailable as exc:
        snapshot, error = None, str(exc)
        context.log.warning(error)
    if snapshot is not None:
        frame = pd.DataFrame(snapshot.entities, columns=GRAPH_COLUMNS)
    # The score assets read status, source and error from this materialization's metadata.
    status = "ok" if snapshot is not None else "unavailable" if error else "absent"
    counts = snapshot.counts() if snapshot else {"entities": 0, "aliases": 0, "types": 0, "relations": 0}
    yield dg.Output(frame, data_version=dg.DataVersion(snapshot.version() if snapshot else status), metadata={
        **counts, "source": source.description, "status": status,
        **({"error": error} if error else {}),
        "by_type": dg.MetadataValue.json(dict(Counter(frame["type"]))),
    })
    yield dg.AssetCheckResult(
        check_name=GRAPH_CHECK, passed=error is None, severity=dg.AssetCheckSeverity.ERROR,
        metadata={"source": source.description, "status": status,
                  **({"error": error} if error else {}),
                  **({"note": "this dataset has no knowledge graph"} if status == "absent" else {})})


def snapshot_metadata(instance: dg.DagsterInstance, dataset: str) -> dict:
    """status, source and error (when unavailable) of the dataset's newest graph_entities
    snapshot, from its materialization's metadata."""
    records = instance.fetch_materializations(
        dg.AssetRecordsFilter(dg.AssetKey("graph_entities"), asset_partitions=[dataset]), limit=1).records
    metadata = records[0].asset_materialization.metadata if records else {}
    return {key: metadata[key].value for key in ("status", "source", "error") if key in metadata}


def graph_version(frame: pd.DataFrame, metadata: dict) -> str:
    """Changes with the entity set and with its status (a graph that became unavailable)."""
    return f"{metadata.get('status')}:{content_version(frame).value}"


def graph_from_snapshot(frame: pd.DataFrame, metadata: dict) -> GraphEntities | None:
    """The GraphEntities a graph_entities snapshot stands for: None when the dataset has no
    graph, an unavailable graph (with the reason) when it could not be read."""
    if metadata.get("status") == "unavailable":
        return GraphEntities.unavailable(metadata.get("error") or "knowledge graph unavailable")
    if frame.empty:
        return None
    return GraphEntities.from_records([{"name": r["name"], "type": r["type"], "aliases": list(r["aliases"])}
                                       for r in frame.to_dict("records")])
