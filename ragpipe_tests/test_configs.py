"""Hostile and changed configs: YAML that expands past any bound, two files for one bot
version, transport settings that change no answer, a deleted dataset, and a version
whose config became invalid."""

import json
import shutil
from pathlib import Path

import dagster as dg
import pandas as pd
import pytest

from ragpipe.core.config import load_config
from ragpipe.core.inputs.bot_config import load_bot_config
from ragpipe.core.schemas import InputError
from ragpipe.core.yaml_input import MAX_ALIASES, read_yaml
from ragpipe.defs.definitions import build_defs
from ragpipe.defs.instance import prepare_dagster_home
from ragpipe.defs.runner import materialize_all
from ragpipe_tests.conftest import sensor_resources

DATASET = "product_en"


def bomb(levels: int = 9, fan_out: int = 9) -> str:
    """Billion laughs: each level lists the previous one ``fan_out`` times (9**9 strings)."""
    lines = ['l0: &l0 "lol"']
    for level in range(1, levels + 1):
        lines.append(f"l{level}: &l{level} [{', '.join([f'*l{level - 1}'] * fan_out)}]")
    return "\n".join(lines) + "\n"


def bomb_bot_config() -> str:
    """An HTTP bot whose request body is the bomb (about 800 bytes)."""
    body = "\n".join("    " + line for line in bomb().splitlines())
    return (f"name: bomb\nversion: v1\nkind: http\nhttp:\n  endpoint: http://127.0.0.1:9/ask\n  request:\n{body}\n"
            f"    question: '{{question}}'\n")


def small_project(project: Path, n_questions: int = 3) -> Path:
    """The sample project cut to one dataset of a few questions."""
    questions = project / "data" / "datasets" / DATASET / "questions" / "questions.jsonl"
    questions.write_text("".join(questions.read_text(encoding="utf-8").splitlines(keepends=True)[:n_questions]),
                         encoding="utf-8")
    return project


def run(project: Path, bots: list[str], datasets: list[str] | None = None):
    prepare_dagster_home(project)
    with dg.DagsterInstance.get() as instance:
        return materialize_all(build_defs(project), instance, datasets or [DATASET], bots, progress=lambda _: None)


# ---- YAML that expands past any bound ------------------------------------------------------------

def test_alias_bomb_in_a_bot_config_is_refused_naming_the_file(tmp_path):
    path = tmp_path / "bomb@v1.yaml"
    path.write_text(bomb_bot_config(), encoding="utf-8")
    assert len(path.read_bytes()) < 1000
    with pytest.raises(InputError, match=r"bomb@v1\.yaml: field 'yaml': refused: expands to more than") as caught:
        load_bot_config(path)
    assert caught.value.file == str(path)


@pytest.mark.parametrize("text, problem", [
    (bomb(levels=3, fan_out=MAX_ALIASES // 3 + 1), f"more than {MAX_ALIASES} aliases"),
    ("big: &big '" + "x" * 20_000 + "'\nlist: [" + ", ".join(["*big"] * 60) + "]\n", "more than 1,000,000 characters"),
    ("a: &a [1, *a]\n", "recursive"),
    ("a: " + "[" * 60 + "]" * 60 + "\n", "nested deeper than 50"),
    ("a: " + "[" * 20_000 + "]" * 20_000 + "\n", "nested deeper than 50"),
    ("a: &a " + "[" * 30 + "x" + "]" * 30 + "\nb: " + "[" * 30 + "*a" + "]" * 30 + "\n", "once aliases are expanded"),
])
def test_yaml_past_a_bound_is_refused(tmp_path, text, problem):
    path = tmp_path / "config.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match="refused: .*" + problem):
        read_yaml(path)


def test_anchors_within_bounds_still_load(tmp_path):
    path = tmp_path / "config.yaml"
    path.write_text("defaults: &defaults {top_k: 2, method: bm25}\nfast: {<<: *defaults, top_k: 1}\n"
                    "both: [*defaults, *defaults]\n", encoding="utf-8")
    assert read_yaml(path) == {"defaults": {"top_k": 2, "method": "bm25"}, "fast": {"top_k": 1, "method": "bm25"},
                               "both": [{"top_k": 2, "method": "bm25"}] * 2}


def test_alias_bomb_in_dataset_yaml_and_evaluation_settings_is_refused(tmp_path, monkeypatch):
    from ragpipe.defs.datasets.assets import dataset_language
    from ragpipe.defs.resources import ProjectPaths

    dataset = tmp_path / "data" / "datasets" / "ds"
    dataset.mkdir(parents=True)
    (dataset / "dataset.yaml").write_text("language: en\n" + bomb(), encoding="utf-8")
    paths = ProjectPaths(data_dir=str(tmp_path / "data"), output_dir=str(tmp_path), warehouse_dir=str(tmp_path))
    with pytest.raises(dg.Failure, match=r"dataset\.yaml: field 'yaml': refused"):
        dataset_language(paths, "ds")
    settings = tmp_path / "evaluation.yaml"
    settings.write_text(bomb(), encoding="utf-8")
    with pytest.raises(InputError, match=r"evaluation\.yaml: field 'yaml': refused"):
        load_config(str(settings))


def test_alias_bomb_bot_fails_alone_in_a_run(project):
    """The bomb's evaluation fails naming its file; the reference bot's goes to the end."""
    small_project(project)
    (project / "data" / "bots" / "bomb@v1.yaml").write_text(bomb_bot_config(), encoding="utf-8")
    outcomes = run(project, ["bomb@v1", "refbot@v1"])
    failed = {o.partition: o.error for o in outcomes if not o.success}
    assert list(failed) == [f"bomb@v1|{DATASET}"]
    assert "bomb@v1.yaml: field 'yaml': refused: expands to more than" in failed[f"bomb@v1|{DATASET}"]
    assert {o.partition for o in outcomes if o.success} == {DATASET, f"refbot@v1|{DATASET}"}


# ---- two files for one bot version ---------------------------------------------------------------

def test_two_files_for_one_bot_version_fail_that_version_alone(project):
    small_project(project)
    bots = project / "data" / "bots"
    (bots / "refbot@v1.yml").write_text((bots / "refbot@v1.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    outcomes = run(project, ["refbot@v1", "refbot@v2"])
    failed = {o.partition: o.error for o in outcomes if not o.success}
    assert failed == {"refbot@v1": f"{bots}: refbot@v1 has 2 config files (refbot@v1.yaml, refbot@v1.yml): "
                                   "not evaluated until all but one are removed"}
    assert {o.partition for o in outcomes if o.success} >= {f"refbot@v2|{DATASET}"}
    paths = build_defs(project).resources["paths"]
    with pytest.raises(InputError, match="refbot@v1 has 2 config files"):  # a run launched from the UI
        paths.bot_file("refbot@v1")


def test_the_sensor_registers_neither_file_of_an_ambiguous_bot_version(project):
    from ragpipe.defs.automation import ragpipe_sensor

    bots = project / "data" / "bots"
    (bots / "refbot@v1.yml").write_text((bots / "refbot@v1.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    with dg.instance_for_test() as instance:
        result = ragpipe_sensor(dg.build_sensor_context(instance=instance,
                                                        resources=sensor_resources(build_defs(project))))
    added = {r.partitions_def_name: list(r.partition_keys) for r in result.dynamic_partitions_requests}
    assert added["bot_versions"] == ["refbot@v2"]
    assert "2 config files" in json.loads(result.cursor)["bots/refbot@v1"]  # logged once, not on every tick


# ---- transport settings ask nothing again ----------------------------------------------------------

def test_changing_only_timeout_or_concurrency_asks_no_question_again(tmp_path):
    from ragpipe.core.inputs.bot_config import BotConfig
    from ragpipe.core.inputs.bots import BotSetting, answer_all, make_bot
    from ragpipe.testing.bot_server import BotServer
    from ragpipe_tests.conftest import SAMPLE

    questions = [(f"q{i}", f"What is programme {i}?") for i in range(6)]
    with BotServer(SAMPLE / "datasets", failure_rate=0.0, slow_rate=0.0) as server:
        config = json.loads(server.bot_yaml(timeout=2.0))

        def answers(**http) -> tuple[list[dict], int]:
            bot = make_bot(BotSetting(BotConfig.model_validate({**config, "http": {**config["http"], **http}}),
                                      DATASET, [], None, tmp_path))
            try:
                return answer_all(bot, questions), bot.cache_hits
            finally:
                bot.close()

        first, _ = answers()
        assert server.total() == len(questions)
        again, hits = answers(timeout=7.5, concurrency=1, max_retries=0, backoff_base=2.0)
        assert server.total() == len(questions) and hits == len(questions) and again == first
        answers(request={"question": "{question}", "question_id": "{question_id}", "dataset": "{dataset}", "n": 2})
        assert server.total() == 2 * len(questions)  # what the bot is sent is part of what it answers


# ---- results of a config or dataset that is gone ----------------------------------------------------

def test_stale_versions_and_deleted_datasets_are_not_shown_as_current(project, capsys):
    from ragpipe.cli import main
    from ragpipe.defs.automation import ragpipe_sensor
    from ragpipe.defs.evaluation.assets import baseline_of

    small_project(project)
    shutil.rmtree(project / "data" / "datasets" / "policy_zh")
    outcomes = run(project, ["refbot@v1", "refbot@v2"])
    assert all(o.success or o.blocked for o in outcomes), [o.error for o in outcomes]
    defs = build_defs(project)
    paths = defs.resources["paths"]
    assert baseline_of(paths, "refbot@v2") == "refbot@v1"

    # v1's config becomes invalid: its scores are stale, it is neither ranked nor the baseline,
    # and the daemon's sensor sees the leaderboard is due again.
    with dg.DagsterInstance.get() as instance:
        def due() -> list[tuple[str, str]]:
            requests = ragpipe_sensor(dg.build_sensor_context(instance=instance, resources=sensor_resources(defs)))
            return [(r.job_name, r.partition_key) for r in requests.run_requests]

        assert due() == []  # after `ragpipe run` nothing is
        (project / "data" / "bots" / "refbot@v1.yaml").write_text("name: refbot\nversion: v1\nkind: reference\n",
                                                                  encoding="utf-8")
        assert baseline_of(paths, "refbot@v2") == "refbot@v2"
        assert due() == [("rank_bot_versions", DATASET)]
        result = defs.resolve_job_def("rank_bot_versions").execute_in_process(
            instance=instance, partition_key=DATASET, raise_on_error=False)
    assert result.success
    board = pd.read_parquet(project / ".ragpipe" / "warehouse" / "leaderboard" / f"{DATASET}.parquet")
    assert list(board["bot_version"]) == ["refbot@v2"] and list(board["baseline"]) == ["refbot@v2"]
    assert "field 'retrieval'" in board.attrs["stale"]["refbot@v1"]
    metadata = result.asset_materializations_for_node("leaderboard")[0].metadata
    assert list(metadata["stale_versions"].value) == ["refbot@v1"]

    # The dataset folder is deleted: no run, and no leaderboard shown as if it were current.
    shutil.rmtree(project / "data" / "datasets" / DATASET)
    capsys.readouterr()
    assert main(["run", "--project-dir", str(project)]) == 1
    out, err = capsys.readouterr()
    assert f"{DATASET}: " not in out.replace(f"No leaderboard for {DATASET}: ", "")
    assert f"No leaderboard for {DATASET}: its folder {project / 'data' / 'datasets' / DATASET} is gone" in out
    assert "no dataset folder (deleted?)" in err
    assert main(["run", "--project-dir", str(project), "--dataset", DATASET]) == 1
    assert f"{project / 'data' / 'datasets' / DATASET}: no dataset folder (deleted?)" in capsys.readouterr().err
