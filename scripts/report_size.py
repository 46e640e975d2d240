"""How the report of one evaluation grows with its answers: builds the detail page(s) of
an evaluation the pipeline stored (its question set, answers and scores in the warehouse
of PROJECT) with every question repeated COPIES times under new ids, into a fresh folder,
and prints the files' sizes and the peak memory the build added.

    python scripts/report_size.py PROJECT DATASET BOT [COPIES]

Runs with whichever ragpipe is on PYTHONPATH, so one checkout's report code can be
compared with another's on the same stored evaluation."""

from __future__ import annotations

import inspect
import resource
import sys
import tempfile
from pathlib import Path

import pandas as pd

from ragpipe.core.diagnosis.rules import diagnose_evaluation
from ragpipe.core.metrics import REGISTRY
from ragpipe.core.report import evaluation_data, write_evaluation
from ragpipe.defs.evaluation.assets import aggregate_rows


def copies_of(frame: pd.DataFrame, copies: int) -> pd.DataFrame:
    return pd.concat([frame.assign(question_id=frame["question_id"] + f"#{k}") for k in range(copies)],
                     ignore_index=True)


def main(project: Path, dataset: str, bot: str, copies: int) -> None:
    warehouse = project / ".ragpipe" / "warehouse"
    read = lambda *parts: pd.read_parquet(warehouse.joinpath(*parts))  # noqa: E731
    question_set = copies_of(read("question_set", f"{dataset}.parquet"), copies)
    responses = copies_of(read("rag_responses", bot, f"{dataset}.parquet"), copies)
    scores = {name: copies_of(read("scores", name, bot, f"{dataset}.parquet"), copies) for name in REGISTRY}
    aggregates = pd.DataFrame(aggregate_rows(scores))
    per_question = question_set.merge(responses, on="question_id", how="left")
    for name in REGISTRY:
        per_question[name] = per_question["question_id"].map(scores[name].set_index("question_id")["value"])
    diagnosis = diagnose_evaluation(dict(zip(aggregates["metric"], aggregates["mean"])), per_question, scores,
                                    language="en")
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    reports = Path(tempfile.mkdtemp(prefix="ragpipe-report-size-"))
    data = evaluation_data(dataset, bot, "en", question_set, responses, aggregates, scores, diagnosis, bot, {})
    if "cards" in inspect.signature(write_evaluation).parameters:  # cards in pages
        from ragpipe.core.report.data import evaluation_cards
        write_evaluation(reports, data, evaluation_cards(question_set, responses, scores, diagnosis))
    else:
        write_evaluation(reports, data)
    added_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    files = [p for p in (reports / dataset / bot).iterdir()]
    html = [p.stat().st_size for p in files if p.suffix == ".html"]
    json_sizes = [p.stat().st_size for p in files if p.suffix == ".json"]
    n = len(question_set)
    print(f"{n} answers: {len(html)} pages, largest {max(html) / 1e6:.2f} MB ({max(html) / n / 1e3:.1f} KB/answer), "
          f"all pages {sum(html) / 1e6:.2f} MB; {len(json_sizes)} data files, largest {max(json_sizes) / 1e6:.2f} MB "
          f"({max(json_sizes) / n / 1e3:.1f} KB/answer); build peak memory +{added_mb:.0f} MB")


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4]) if len(sys.argv) > 4 else 1)
