"""Live traffic recorded by the service, then scored, aggregated and diagnosed by the
pipeline like any evaluation (a bot config of kind: recorded replays the recording)."""

import json
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import dagster as dg
import pandas as pd
import pytest

from ragpipe.core.inputs.recorded import Recorder, read_recording, recorded_questions
from ragpipe.core.report.render import load_evaluation
from ragpipe.core.schemas import InputErrors
from ragpipe.service import ServiceSettings, create_app
from ragpipe_tests.conftest import REPO
from ragpipe_tests.test_service import running

CONTEXT = ["《中小企业发展促进办法》第十二条：小型微利企业年应纳税所得额不超过300万元的部分，减按25%计入应纳税所得额，按20%的税率缴纳企业所得税。",
           "申请研发费用补贴的企业，应当在每年3月31日前向市科技局提交申请材料。"]
TRAFFIC = [
    {"question": "小型微利企业的所得税税率是多少？", "answer": "按20%的税率缴纳企业所得税。", "context": CONTEXT},
    {"question": "研发费用补贴什么时候申请？", "answer": "每年3月31日前向市科技局提交申请。", "context": CONTEXT},
    {"question": "研发费用补贴什么时候申请？", "answer": "每年6月30日前向省财政厅申请，补贴50万元。", "context": CONTEXT},
    {"question": "小型微利企业的应纳税所得额怎么算？", "answer": "不超过300万元的部分减按25%计入应纳税所得额。",
     "context": CONTEXT, "ground_truth": "不超过300万元的部分，减按25%计入应纳税所得额。"},
    {"question": "外资企业可以享受哪些补贴？", "answer": "根据提供的文档无法回答。", "context": CONTEXT},
    {"question": "谁受理研发费用补贴申请？", "answer": "市科技局。", "context": CONTEXT[1]},
]


def test_concurrent_appends_from_threads_and_processes_keep_every_line_whole(tmp_path):
    recorder = Recorder(tmp_path / "online")
    long_answer = "答" * 70_000  # far past one page and PIPE_BUF: still one line
    with ThreadPoolExecutor(8) as pool:
        ids = list(pool.map(lambda i: recorder.append(f"问题{i}", long_answer, ["上下文"] * 3), range(40)))
    script = ("import sys; from pathlib import Path; from ragpipe.core.inputs.recorded import Recorder; "
              "r = Recorder(Path(sys.argv[1])); [r.append(f'进程{i}', 'x' * 70000, []) for i in range(20)]")
    children = [subprocess.Popen([sys.executable, "-c", script, str(tmp_path / "online")], cwd=REPO) for _ in range(2)]
    assert [child.wait(120) for child in children] == [0, 0]
    records = read_recording(tmp_path / "online")
    assert len(records) == 80 and len({r["id"] for _, r in records}) == 80
    assert {r["id"] for _, r in records} >= set(ids)
    assert all(r["answer"] in (long_answer, "x" * 70000) for _, r in records)


@pytest.mark.parametrize("bad", ["link out", "fifo", "folder linked out"])
def test_a_recording_that_is_no_regular_file_of_its_dataset_is_refused_never_written_through(tmp_path, bad):
    """`ragpipe serve --record`: a recording linked out of its dataset, a FIFO in its place, or its
    folder linked elsewhere is refused with the file named; nothing outside is written, no wait."""
    import os

    from ragpipe.core.schemas import InputError

    dataset, outside = tmp_path / "online", tmp_path / "outside"
    dataset.mkdir()
    outside.mkdir()
    (outside / "victim.txt").write_text("kept\n", encoding="utf-8")
    if bad == "folder linked out":
        (dataset / "recorded").symlink_to(outside, target_is_directory=True)
        with pytest.raises(InputError, match="outside its dataset"):
            Recorder(dataset)
    else:
        (dataset / "recorded").mkdir()
        answers = dataset / "recorded" / "answers.jsonl"
        answers.symlink_to(outside / "victim.txt") if bad == "link out" else os.mkfifo(answers)
        with pytest.raises(InputError, match="answers.jsonl"):
            Recorder(dataset).append("q?", "a", ["c"])
    assert (outside / "victim.txt").read_text(encoding="utf-8") == "kept\n"
    assert [p.name for p in outside.iterdir()] == ["victim.txt"]


def test_a_bad_recorded_line_is_named_with_its_line_and_field(tmp_path):
    recorder = Recorder(tmp_path / "online")
    recorder.append("问题", "答案", ["上下文"])
    with open(recorder.path, "a", encoding="utf-8") as handle:
        handle.write(json.dumps({"id": "x", "question": "q", "answer": 5, "contexts": []}) + "\n")
    with pytest.raises(InputErrors) as caught:
        recorded_questions(tmp_path / "online")
    assert caught.value.problems[0].line == 2 and caught.value.problems[0].field == "answer"


def test_serve_refuses_to_record_into_a_folder_that_is_no_dataset(project):
    cli = subprocess.run([sys.executable, "-m", "ragpipe.cli", "serve", "--record", "online", "--project-dir",
                          str(project)], check=False, cwd=REPO, capture_output=True, text=True, timeout=300)
    assert cli.returncode == 2
    assert "datasets/online has no dataset.yaml or docs" in cli.stderr and "graph/" in cli.stderr
    assert not (project / "data" / "datasets" / "online").exists()


def test_recorded_traffic_is_aggregated_and_diagnosed_for_its_partition(project, embedder):
    from ragpipe.defs.definitions import build_defs
    from ragpipe.defs.instance import prepare_dagster_home
    from ragpipe.defs.partitions import sync_partitions
    from ragpipe.defs.runner import QUIET

    online = project / "data" / "datasets" / "online"
    online.mkdir()
    (online / "dataset.yaml").write_text("name: online\nlanguage: zh\n", encoding="utf-8")
    shutil.copytree(project / "data" / "datasets" / "policy_zh" / "docs", online / "docs")  # the bot's documents
    (project / "data" / "bots" / "live@v1.yaml").write_text("name: live\nversion: v1\nkind: recorded\n", encoding="utf-8")

    with running(create_app(ServiceSettings(), embedder, Recorder(online))) as client:
        assert client.get("/healthz").json()["recording"] == "online"
        with ThreadPoolExecutor(4) as pool:  # concurrent requests, each recorded
            singles = list(pool.map(lambda item: client.post("/v1/evaluate", json=item), TRAFFIC[:4]))
        batch = client.post("/v1/evaluate", json=TRAFFIC[4:])
    replies = [r.json() for r in singles] + batch.json()
    assert all(r.status_code == 200 for r in singles) and batch.status_code == 200

    prepare_dagster_home(project)
    defs = build_defs(project)
    with dg.DagsterInstance.get() as instance:
        sync_partitions(instance, project / "data")
        assert defs.resolve_job_def("prepare_dataset").execute_in_process(
            instance=instance, partition_key="online", run_config=QUIET).success
        result = defs.resolve_job_def("evaluate_bot_version").execute_in_process(
            instance=instance, partition_key=dg.MultiPartitionKey({"dataset": "online", "bot": "live@v1"}),
            run_config=QUIET, raise_on_error=False)
    failed = [e.event_specific_data.error.to_string() for e in result.all_events if e.is_step_failure]
    assert not failed, failed

    warehouse = project / ".ragpipe" / "warehouse"
    questions = pd.read_parquet(warehouse / "question_set" / "online.parquet")
    assert sorted(questions["question"]) == sorted(item["question"] for item in TRAFFIC)
    responses = pd.read_parquet(warehouse / "rag_responses" / "live@v1" / "online.parquet")
    assert responses["error"].isna().all()
    assert sorted(responses["answer"]) == sorted(item["answer"] for item in TRAFFIC)

    # The pipeline's per-answer overall score is the one the service replied with.
    by_answer = {item["answer"]: reply["overall_score"] for item, reply in zip(TRAFFIC, replies)}
    overall = pd.read_parquet(warehouse / "scores" / "overall_score" / "live@v1" / "online.parquet")
    pipeline = dict(zip(responses.set_index("question_id").loc[overall["question_id"], "answer"], overall["value"]))
    for answer, value in pipeline.items():
        assert value == pytest.approx(by_answer[answer], abs=1e-4), answer

    aggregate = pd.read_parquet(warehouse / "aggregate_scores" / "live@v1" / "online.parquet").set_index("metric")
    assert aggregate.loc["overall_score", "n"] == len(TRAFFIC)
    assert aggregate.loc["overall_score", "mean"] == pytest.approx(sum(by_answer.values()) / len(by_answer), abs=1e-4)
    assert aggregate.loc["answer_correctness", "n"] == 1  # the one request that sent a ground truth
    page_data = project / ".ragpipe" / "reports" / "online" / "live@v1" / "diagnosis.json"
    data = load_evaluation(page_data)
    assert data["n_questions"] == len(data["cards"]) == len(TRAFFIC)
    flagged = {qid for finding in data["diagnosis"]["findings"] for qid in
               (sample["question_id"] for sample in finding["low_samples"])}
    flagged |= {qid for finding in data["diagnosis"]["sample_findings"] for qid in finding["question_ids"]}
    assert flagged and flagged <= set(questions["question_id"])  # the diagnosis is of the recorded answers
