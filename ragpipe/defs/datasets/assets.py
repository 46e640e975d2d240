"""Dataset-level assets: the chunked corpus and the imported question set."""

import hashlib
from collections import Counter

import dagster as dg
import pandas as pd
import yaml

from ragpipe.core.corpus import load_corpus
from ragpipe.core.questions import load_questions
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
    })


@dg.asset(partitions_def=datasets, group_name="datasets", kinds={"parquet"}, automation_condition=dg.AutomationCondition.eager())
def question_set(context: dg.AssetExecutionContext, paths: ProjectPaths, corpus: pd.DataFrame) -> dg.Output[pd.DataFrame]:
    """The questions of one dataset, imported from CSV/JSON/JSONL/XLSX files under questions/,
    each with its ground-truth answer and the ids of the chunks that hold it."""
    with input_failure():
        questions = load_questions(paths.dataset_dir(context.partition_key), set(corpus["chunk_id"]))
    frame = pd.DataFrame([q.model_dump(mode="json") for q in questions])
    types = Counter(frame["question_type"])
    return dg.Output(frame, data_version=_content_version(frame), metadata={
        "questions": len(frame),
        "by_type": dg.MetadataValue.json(dict(types)),
        "files": dg.MetadataValue.json(sorted({s.split(":")[0] for s in frame["source"]})),
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
