"""One bad file in data/ (a FIFO, a link to /dev/zero or out of its folder, a huge sparse
file, a badly named or hidden folder) fails its own dataset or bot version with a message
naming it; the hashes that decide what is fresh, the sensor and every other dataset and bot
go on. No test here opens a FIFO for reading: the code under test must not either, and the
`unblock` fixture ends any read the old code started."""

import json
import os
import subprocess
import sys
import threading
import tracemalloc
from pathlib import Path

import dagster as dg
import pytest

from ragpipe.core.inputs.bot_config import load_bot_config
from ragpipe.core.inputs.recorded import read_recording
from ragpipe.core.labels.reading import load_labels
from ragpipe.core.schemas import InputError
from ragpipe.core.yaml_input import read_yaml
from ragpipe.defs.automation import file_hash, folder_hash, labels_changed_at, ragpipe_sensor
from ragpipe.defs.definitions import build_defs
from ragpipe.defs.partitions import dataset_keys, misnamed_inputs
from ragpipe.defs.resources import ProjectPaths
from ragpipe_tests.conftest import sensor_resources, trim_questions

WAIT = 60  # seconds: far more than any of these calls takes when it reads nothing it should not


@pytest.fixture
def unblock():
    """Makes FIFOs; afterwards opens each for writing and closes it, so a read of one that
    the code under test wrongly started (in a thread left behind) ends."""
    fifos = []

    def make(path: Path) -> Path:
        os.mkfifo(path)
        fifos.append(path)
        return path

    yield make
    for path in fifos:
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
        except OSError:  # no reader waits on it
            pass


def within(seconds: float, call, *args):
    """``call(*args)`` in a thread; fails the test when it has not returned in time (a read
    of a FIFO that waits for a writer)."""
    outcome = {}

    def run():
        try:
            outcome["value"] = call(*args)
        except BaseException as exc:  # noqa: BLE001 (handed to the test)
            outcome["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert outcome, f"{getattr(call, '__name__', call)} still running after {seconds} s"
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def sparse(path: Path, size: int) -> Path:
    with open(path, "wb") as handle:
        handle.truncate(size)
    return path


def test_input_hashes_open_no_fifo_device_or_outside_link_and_read_no_file_past_the_limit(tmp_path, unblock):
    dataset = tmp_path / "ds"
    (dataset / "docs").mkdir(parents=True)
    (dataset / "docs" / "a.md").write_text("# A\n\nText.\n", encoding="utf-8")
    (tmp_path / "secret.txt").write_text("root:x:0:0\n", encoding="utf-8")
    before = folder_hash(dataset)
    unblock(dataset / "docs" / "pipe.md")
    (dataset / "docs" / "zero.md").symlink_to("/dev/zero")
    (dataset / "docs" / "leak.md").symlink_to(tmp_path / "secret.txt")
    (dataset / "root").symlink_to("/")  # a link to a folder is not walked
    huge = sparse(dataset / "docs" / "huge.md", 64_000_000)  # past limits.max_file_bytes (5 MB)
    tracemalloc.start()
    try:
        first = within(WAIT, folder_hash, dataset)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 10_000_000  # the old code read the 64 MB file whole
    assert first != before
    sparse(huge, 65_000_000)  # a file not read still changes the hash when it changes
    grown = within(WAIT, folder_hash, dataset)
    assert grown != first
    (tmp_path / "secret.txt").write_text("root:y:0:0\n", encoding="utf-8")  # outside: not read, so no change
    assert within(WAIT, folder_hash, dataset) == grown

    bots = tmp_path / "bots"
    bots.mkdir()
    unblock(bots / "pipe@v1.yaml")
    (bots / "zero@v1.yaml").symlink_to("/dev/zero")
    assert within(WAIT, file_hash, bots / "pipe@v1.yaml") != within(WAIT, file_hash, bots / "zero@v1.yaml")
    with pytest.raises(InputError, match=r"pipe@v1.yaml: field 'file': is a FIFO"):
        within(WAIT, load_bot_config, bots / "pipe@v1.yaml")
    with pytest.raises(InputError, match=r"zero@v1.yaml: field 'file': links to /dev/zero, outside its folder"):
        within(WAIT, load_bot_config, bots / "zero@v1.yaml")
    (bots / "big@v1.yaml").write_text("name: big\n" + "#" * 300_000 + "\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"big@v1.yaml: field 'file': larger than 262,144 bytes"):
        read_yaml(bots / "big@v1.yaml")


def test_label_files_that_are_fifos_or_dangling_links_leave_the_label_time_readable(tmp_path, unblock):
    dataset = tmp_path / "datasets" / "ds"
    (dataset / "labels").mkdir(parents=True)
    unblock(dataset / "labels" / "pipe.csv")
    (dataset / "labels" / "gone.jsonl").symlink_to(tmp_path / "missing.jsonl")  # the old code's stat failed
    paths = ProjectPaths(data_dir=str(tmp_path), output_dir=str(tmp_path / "out"),
                         warehouse_dir=str(tmp_path / "out" / "warehouse"))
    assert within(WAIT, labels_changed_at, paths, "ds") > 0
    labels, problems = within(WAIT, load_labels, dataset)
    assert labels.empty
    assert sorted((Path(p.file).name, p.problem.split(":")[0]) for p in problems) == [
        ("gone.jsonl", "cannot be resolved"), ("pipe.csv", "is a FIFO, not a regular file")]


def test_a_recording_that_links_out_or_is_a_fifo_is_named_not_read(tmp_path, unblock):
    dataset = tmp_path / "ds"
    (dataset / "recorded").mkdir(parents=True)
    secret = tmp_path / "secret.jsonl"
    secret.write_text(json.dumps({"id": "x", "question": "Key?", "answer": "sk-live-123", "contexts": []}) + "\n",
                      encoding="utf-8")
    (dataset / "recorded" / "answers.jsonl").symlink_to(secret)
    with pytest.raises(InputError, match=r"answers.jsonl: field 'file': links to .*secret.jsonl, outside its folder"):
        read_recording(dataset)
    (dataset / "recorded" / "answers.jsonl").unlink()
    unblock(dataset / "recorded" / "answers.jsonl")
    with pytest.raises(InputError, match=r"answers.jsonl: field 'file': is a FIFO"):
        within(WAIT, read_recording, dataset)


def test_hidden_and_overlong_names_are_no_partitions_and_are_reported(tmp_path):
    datasets = tmp_path / "datasets"
    for name in ("good", ".ipynb_checkpoints", "d" * 230):
        (datasets / name).mkdir(parents=True)
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "._refbot@v1.yaml").write_bytes(b"\x00\x05\x16\x07")  # macOS metadata, not YAML
    assert dataset_keys(tmp_path) == ["good"]
    assert sorted(p.name for p in misnamed_inputs(tmp_path)) == ["d" * 230]


def test_the_sensor_ticks_and_a_run_goes_on_past_bad_files(project, unblock):
    """The sensor tick returns and registers the good bot versions; `ragpipe run` fails the
    bad dataset and bot versions naming their files, evaluates the rest and prints its
    summary."""
    data = project / "data"
    trim_questions(data / "datasets" / "product_en", 3)
    (data / "bots" / "refbot@v2.yaml").unlink()
    unblock(data / "bots" / "refbot@v2.yaml")
    (data / "bots" / "refbot@v3.yaml").symlink_to("/dev/zero")
    (data / "datasets" / "policy_zh" / "dataset.yaml").unlink()
    unblock(data / "datasets" / "policy_zh" / "dataset.yaml")
    (data / "datasets" / ".ipynb_checkpoints").mkdir()
    (data / "datasets" / ("d" * 230)).mkdir()
    defs = build_defs(project)
    with dg.instance_for_test() as instance:
        context = dg.build_sensor_context(instance=instance, resources=sensor_resources(defs))
        result = within(WAIT, ragpipe_sensor, context)
    assert list(result.dynamic_partitions_requests[0].partition_keys) == ["policy_zh", "product_en"]
    assert list(result.dynamic_partitions_requests[1].partition_keys) == ["refbot@v1"]
    assert sorted(r.partition_key for r in result.run_requests) == ["policy_zh", "product_en"]

    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    try:
        done = subprocess.run([sys.executable, "-m", "ragpipe.cli", "run", "--project-dir", str(project)],
                              capture_output=True, text=True, timeout=600, env=env)
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"`ragpipe run` still running after {exc.timeout} s")
    out = done.stdout + done.stderr
    assert done.returncode == 1, out
    assert "runs succeeded" in out
    assert f"{data / 'datasets' / 'policy_zh' / 'dataset.yaml'}: field 'file': is a FIFO" in out
    assert f"{data / 'bots' / 'refbot@v2.yaml'}: field 'file': is a FIFO" in out
    assert f"{data / 'bots' / 'refbot@v3.yaml'}: field 'file': links to /dev/zero" in out
    assert "ok     evaluate_bot_version [refbot@v1|product_en]" in out
    assert "at most 100 characters" in out and ".ipynb_checkpoints" not in out
    assert "Traceback" not in out and "MemoryError" not in out
