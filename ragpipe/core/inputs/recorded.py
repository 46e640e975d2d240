"""Live traffic recorded by the evaluation service, and its replay in the pipeline.

`ragpipe serve --record DATASET` appends every answer it evaluates to
``data/datasets/<DATASET>/recorded/answers.jsonl``: one JSON line per answer (``id``,
``recorded_at``, ``question``, ``answer``, ``contexts``, ``ground_truth`` or null). The
dataset is otherwise like any other (``dataset.yaml``, ``docs/``, optionally ``graph/``,
whose entities the entity metrics verify against). Where the recording exists it is the
dataset's question set (a recorded question may lack a ground truth: the metrics that need
one are then unmeasured, with that reason), and a bot config of ``kind: recorded``
answers each question with the recorded answer and contexts. So the graph scores,
aggregates and diagnoses live traffic like any other evaluation.

Appends are whole lines written under an exclusive file lock (so two requests, or two
service processes, never interleave) and readers take one too (so they never see a
line half written). A recording is read only when it is a regular file inside its dataset
folder of at most MAX_RECORDING_BYTES.
"""

from __future__ import annotations

import json
import os
import secrets
import stat
import threading
import time
from pathlib import Path

from filelock import lock_descriptor
from pydantic import Field

from ragpipe.core.inputs.files import json_lines, open_regular
from ragpipe.core.schemas import InputError, InputErrors, Question, RagResponse

RECORDING = Path("recorded") / "answers.jsonl"
ORIGIN = "recorded by ragpipe serve"
# Read whole into memory: a recording is one line per answer, so this is many thousands of answers.
MAX_RECORDING_BYTES = 200_000_000


class RecordedQuestion(Question):
    """A question of live traffic: a ground truth only when the caller sent one."""

    ground_truth_answer: str | None = Field(default=None, max_length=20000)


def recording_of(dataset_dir: Path) -> Path:
    return dataset_dir / RECORDING


def has_recording(dataset_dir: Path) -> bool:
    """Whether there is one, of whatever kind: read_recording says why one is not read."""
    return os.path.lexists(recording_of(dataset_dir))


def recording_problem(dataset_dir: Path) -> str | None:
    """Why live traffic cannot be recorded into this dataset folder, or None."""
    missing = [name for name in ("dataset.yaml", "docs") if not (dataset_dir / name).exists()]
    if missing:
        return (f"{dataset_dir} has no {' or '.join(missing)}: a dataset of recorded traffic is a dataset like any "
                "other; give it dataset.yaml (its language), docs/ (the bot's documents) and, to verify entities, "
                "graph/")
    return None


class Recorder:
    """Appends evaluated answers to a dataset's recording (see the module docstring)."""

    def __init__(self, dataset_dir: Path):
        self.dataset = dataset_dir.name
        self.path = recording_of(dataset_dir)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        folder, inside = os.path.realpath(self.path.parent), os.path.realpath(dataset_dir)
        if os.path.commonpath([folder, inside]) != inside:
            raise InputError(str(self.path.parent), "file", f"links to {folder}, outside its dataset: nothing is recorded")
        self._lock = threading.Lock()  # the file lock is per open file, so threads of one process queue here first

    def append(self, question: str, answer: str, contexts: list[str], ground_truth: str | None = None) -> str:
        """Records one answer; returns its question id."""
        record_id = f"live-{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}-{secrets.token_hex(4)}"
        record = {"id": record_id, "recorded_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                  "question": question, "answer": answer, "contexts": contexts, "ground_truth": ground_truth}
        line = memoryview((json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8"))
        with self._lock:
            # No link followed (O_NOFOLLOW), no wait on a FIFO (O_NONBLOCK): a recording that
            # is not a regular file of the dataset is refused, never written through.
            try:
                fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK, 0o644)
            except OSError as exc:
                raise InputError(str(self.path), "file", f"cannot be written: {exc.strerror or exc}") from None
            try:
                if not stat.S_ISREG(os.fstat(fd).st_mode):
                    raise InputError(str(self.path), "file", "is not a regular file: nothing is recorded")
                lock_descriptor(fd)
                while line:
                    line = line[os.write(fd, line):]
                os.fsync(fd)  # recorded means on disk: the reply is sent after this
            finally:
                os.close(fd)  # releases the lock
        return record_id


def read_recording(dataset_dir: Path) -> list[tuple[int, dict]]:
    """(line, record) of every recorded answer; InputErrors naming the line and field of bad ones."""
    path = recording_of(dataset_dir)
    with os.fdopen(open_regular(path, dataset_dir, MAX_RECORDING_BYTES), "rb") as handle:
        lock_descriptor(handle.fileno())  # no half-written line is read
        raw = handle.read(MAX_RECORDING_BYTES + 1)
    if len(raw) > MAX_RECORDING_BYTES:
        raise InputError(str(path), "file", f"larger than {MAX_RECORDING_BYTES:,} bytes: not read")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(str(path), "encoding", f"not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    records, problems = [], []
    for line, record in json_lines(path, text):
        if not isinstance(record, dict):
            problems.append(InputError(str(path), "answer", "expected an object", line))
            continue
        bad = [name for name, kind in (("id", str), ("question", str), ("answer", str), ("contexts", list))
               if not isinstance(record.get(name), kind)]
        problems += [InputError(str(path), name, "missing or of the wrong type", line) for name in bad]
        if not bad:
            records.append((line, record))
    if problems:
        raise InputErrors(problems)
    return records


def recorded_questions(dataset_dir: Path) -> list[RecordedQuestion]:
    """The recording as the dataset's question set."""
    return [RecordedQuestion(question_id=r["id"], question=r["question"], ground_truth_answer=r.get("ground_truth") or None,
                             origin=ORIGIN, source=f"{RECORDING.name}:{line}")
            for line, r in read_recording(dataset_dir)]


class RecordedBot:
    """``kind: recorded``: answers each question of a recorded dataset with what was recorded."""

    concurrency, keeps_rounds = 1, False

    def __init__(self, dataset_dir: Path):
        if not has_recording(dataset_dir):
            raise InputError(str(recording_of(dataset_dir)), "recorded",
                             "this dataset has no recorded answers (`ragpipe serve --record DATASET` writes them)")
        self.answers = {r["id"]: r for _, r in read_recording(dataset_dir)}

    def ask(self, question_id: str, question: str) -> RagResponse:
        record = self.answers.get(question_id)
        if record is None or record["question"] != question:
            return RagResponse(question_id=question_id, answer=None, retrieved_contexts=[], retrieved_ids=[],
                               latency_ms=float("nan"), error="not recorded: no recorded answer to this question")
        return RagResponse(question_id=question_id, answer=record["answer"], retrieved_contexts=record["contexts"],
                           retrieved_ids=[], latency_ms=float("nan"))

    def close(self) -> None:
        pass
