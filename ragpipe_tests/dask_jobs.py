"""Small jobs for the Dask executor's tests (workers import them by name): two steps, each
leaving a file named by its run and partition under RAGPIPE_TEST_MARKS; the first one takes
RAGPIPE_TEST_STEP_S seconds, so that another run can overlap it."""

import os
import time
from pathlib import Path

import dagster as dg

from ragpipe.defs.cluster import executor_from_env


def _job(name: str, partitions: dg.PartitionsDefinition) -> dg.JobDefinition:
    def mark(context: dg.AssetExecutionContext, step: str) -> None:
        folder = Path(os.environ["RAGPIPE_TEST_MARKS"])
        (folder / f"{context.run_id}.{context.partition_key}.{step}").write_text(step, encoding="utf-8")

    @dg.asset(name=f"{name}_first", partitions_def=partitions)
    def first(context: dg.AssetExecutionContext) -> None:
        mark(context, "first")
        time.sleep(float(os.environ.get("RAGPIPE_TEST_STEP_S", "0")))

    @dg.asset(name=f"{name}_second", partitions_def=partitions, deps=[first])
    def second(context: dg.AssetExecutionContext) -> None:
        mark(context, "second")

    return dg.Definitions(assets=[first, second], jobs=[dg.define_asset_job(name, partitions_def=partitions)],
                          executor=executor_from_env()).resolve_job_def(name)


def dynamic_job() -> dg.JobDefinition:
    """Its runs carry a partitions subset, as the daemon's runs of prepare_dataset do."""
    return _job("dynamic_job", dg.DynamicPartitionsDefinition(name="letters"))


def static_job() -> dg.JobDefinition:
    return _job("static_job", dg.StaticPartitionsDefinition(["a", "b"]))
