"""Sensors and schedules, evaluated with build_*_context against a real (temporary) instance."""

import json
from datetime import datetime, timezone

import dagster as dg
import pytest

from ragpipe.defs.automation import (
    bot_config_sensor,
    dataset_sensor,
    newest_versions,
    nightly_newest_versions,
    weekly_full_reevaluation,
)
from ragpipe.defs.partitions import bot_versions, datasets
from ragpipe.defs.resources import ProjectPaths


@pytest.fixture
def instance():
    with dg.instance_for_test() as instance:
        yield instance


def tick(sensor, instance, project, cursor=None):
    paths = ProjectPaths(data_dir=str(project / "data"), output_dir=str(project / ".ragpipe"),
                         warehouse_dir=str(project / ".ragpipe" / "warehouse"))
    context = dg.build_sensor_context(instance=instance, cursor=cursor, resources={"paths": paths})
    result = sensor(context)
    for request in result.dynamic_partitions_requests:
        instance.add_dynamic_partitions(request.partitions_def_name, list(request.partition_keys))
    return result


def test_new_bot_config_becomes_a_partition_once(project, instance):
    instance.add_dynamic_partitions(datasets.name, ["policy_zh", "product_en"])
    first = tick(bot_config_sensor, instance, project)
    assert first.dynamic_partitions_requests[0].partition_keys == ["refbot@v1", "refbot@v2"]
    assert first.run_requests == []  # automation evaluates newly missing partitions
    (project / "data" / "bots" / "refbot@v3.yaml").write_text(
        "name: refbot\nversion: v3\nkind: reference\nretrieval: {method: embedding, top_k: 3}\n", encoding="utf-8")
    second = tick(bot_config_sensor, instance, project, first.cursor)
    assert second.dynamic_partitions_requests[0].partition_keys == ["refbot@v3"]
    third = tick(bot_config_sensor, instance, project, second.cursor)
    assert third.dynamic_partitions_requests == [] and third.run_requests == []
    assert instance.get_dynamic_partitions(bot_versions.name) == ["refbot@v1", "refbot@v2", "refbot@v3"]


def test_changed_config_reevaluates_that_version_on_every_dataset(project, instance):
    instance.add_dynamic_partitions(datasets.name, ["policy_zh", "product_en"])
    first = tick(bot_config_sensor, instance, project)
    config = project / "data" / "bots" / "refbot@v2.yaml"
    config.write_text(config.read_text(encoding="utf-8").replace("top_k: 4", "top_k: 5"), encoding="utf-8")
    second = tick(bot_config_sensor, instance, project, first.cursor)
    assert sorted(str(r.partition_key) for r in second.run_requests) == ["refbot@v2|policy_zh", "refbot@v2|product_en"]
    assert len({r.run_key for r in second.run_requests}) == 2
    assert second.dynamic_partitions_requests == []


def test_deleted_and_malformed_configs_start_nothing(project, instance):
    first = tick(bot_config_sensor, instance, project)
    (project / "data" / "bots" / "refbot@v1.yaml").unlink()
    (project / "data" / "bots" / "refbot@v9.yaml").write_text("name: refbot\nversion: v9\nkind: [\n", encoding="utf-8")
    second = tick(bot_config_sensor, instance, project, first.cursor)
    assert second.run_requests == [] and second.dynamic_partitions_requests == []
    assert set(json.loads(second.cursor)) == {"refbot@v2", "refbot@v9"}  # the deletion is not reported twice
    assert "refbot@v9" not in instance.get_dynamic_partitions(bot_versions.name)


def test_dataset_sensor_registers_new_and_reprepares_changed(project, instance):
    first = tick(dataset_sensor, instance, project)
    assert first.dynamic_partitions_requests[0].partition_keys == ["policy_zh", "product_en"]
    doc = project / "data" / "datasets" / "product_en" / "docs" / "new_programme.md"
    doc.write_text("# New programme\n\nGrants of $1,000.\n", encoding="utf-8")
    second = tick(dataset_sensor, instance, project, first.cursor)
    assert [r.partition_key for r in second.run_requests] == ["product_en"]


def test_schedules_pick_newest_versions_and_everything(project, instance):
    instance.add_dynamic_partitions(datasets.name, ["policy_zh", "product_en"])
    instance.add_dynamic_partitions(bot_versions.name, ["refbot@v2", "refbot@v10", "other@1.9", "other@1.10"])
    assert newest_versions(instance.get_dynamic_partitions(bot_versions.name)) == ["other@1.10", "refbot@v10"]
    when = datetime(2026, 11, 22, 2, tzinfo=timezone.utc)
    nightly = nightly_newest_versions(dg.build_schedule_context(instance=instance, scheduled_execution_time=when))
    assert sorted(str(r.partition_key) for r in nightly) == [
        "other@1.10|policy_zh", "other@1.10|product_en", "refbot@v10|policy_zh", "refbot@v10|product_en"]
    weekly = weekly_full_reevaluation(dg.build_schedule_context(instance=instance, scheduled_execution_time=when))
    assert len(weekly) == 8 and len({r.run_key for r in weekly}) == 8
