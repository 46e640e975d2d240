"""Dataset-level assets: the chunked corpus and the imported question set."""

import hashlib
from collections import Counter

import dagster as dg
import pandas as pd
import yaml

from ragpipe.core.corpus import load_corpus
from ragpipe.core.questions import load_questions
from ragpipe.core.site.render import INDEX_PAGE
from ragpipe.core.site.summaries import table
from ragpipe.defs.errors import input_failure
from ragpipe.defs.partitions import datasets
from ragpipe.defs.resources import ProjectPaths


def _content_version(frame: pd.DataFrame) -> dg.DataVersion:
    """Changes only when the content does, so downstream re-runs only then."""
    digest = hashlib.sha256(pd.util.hash_pandas_object(frame.astype(str), index=False).values.tobytes())
    return dg.DataVersion(digest.hexdigest()[:16])


def dataset_language(paths: ProjectPaths, dataset: str) -> str:
    meta = paths.dataset_dir(dataset) / "dataset.yaml"
    config = yaml.safe_load(meta.read_text(encoding="utf-8")) if meta.exists() else None
    return (config or {}).get("language", "en")


@dg.asset(partitions_def=datasets, group_name="datasets", kinds={"parquet"}, automation_condition=dg.AutomationCondition.eager())
def corpus(context: dg.AssetExecutionContext, paths: ProjectPaths) -> dg.Output[pd.DataFrame]:
    """The documents of one dataset (data/datasets/<dataset>/docs/), split into chunks with
    stable ids ``<document>#<n>``."""
    with input_failure():
        chunks = load_corpus(paths.dataset_dir(context.partition_key))
    frame = pd.DataFrame([c.model_dump() for c in chunks])
    return dg.Output(frame, data_version=_content_version(frame), metadata={
        "documents": frame["doc_id"].nunique(),
        "chunks": len(frame),
        "language": dataset_language(paths, context.partition_key),
        "summary": dg.MetadataValue.md("\n".join(table(
            ["document", "title", "chunks"],
            frame.groupby(["doc_id", "title"]).size().reset_index().values.tolist()))),
        "site": dg.MetadataValue.path(str(paths.reports / INDEX_PAGE)),
    })


@dg.asset(partitions_def=datasets, group_name="datasets", kinds={"parquet"}, automation_condition=dg.AutomationCondition.eager())
def question_set(context: dg.AssetExecutionContext, paths: ProjectPaths, corpus: pd.DataFrame) -> dg.Output[pd.DataFrame]:
    """The questions of one dataset, imported from CSV/JSON/JSONL files under questions/,
    each with its ground-truth answer and the ids of the chunks that hold it."""
    with input_failure():
        questions = load_questions(paths.dataset_dir(context.partition_key), set(corpus["chunk_id"]))
    frame = pd.DataFrame([q.model_dump(mode="json") for q in questions])
    types = Counter(frame["question_type"])
    return dg.Output(frame, data_version=_content_version(frame), metadata={
        "questions": len(frame),
        "by_type": dg.MetadataValue.json(dict(types)),
        "files": dg.MetadataValue.json(sorted({s.split(":")[0] for s in frame["source"]})),
        "summary": dg.MetadataValue.md("\n".join(table(
            ["question_id", "type", "question"], frame[["question_id", "question_type", "question"]].head(20).values.tolist()))),
        "site": dg.MetadataValue.path(str(paths.reports / INDEX_PAGE)),
    })
