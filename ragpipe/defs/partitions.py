"""Partitions: one per dataset folder, one per bot config file, and their product."""

from pathlib import Path

import dagster as dg

from ragpipe.core.bots import BOT_KEY

datasets = dg.DynamicPartitionsDefinition(name="datasets")
bot_versions = dg.DynamicPartitionsDefinition(name="bot_versions")
# String keys read "bot|dataset": Dagster sorts the dimensions by name.
evaluations = dg.MultiPartitionsDefinition({"dataset": datasets, "bot": bot_versions})

# Evaluation assets read dataset-level assets through this mapping.
BY_DATASET = dg.MultiToSingleDimensionPartitionMapping(partition_dimension_name="dataset")

_FORBIDDEN = set("|[],")


def valid_key(key: str) -> bool:
    return bool(key) and not (_FORBIDDEN & set(key))


def dataset_keys(data_dir: Path) -> list[str]:
    root = data_dir / "datasets"
    return sorted(p.name for p in root.iterdir() if p.is_dir() and valid_key(p.name)) if root.is_dir() else []


def bot_files(data_dir: Path) -> list[Path]:
    root = data_dir / "bots"
    return sorted(root.glob("*.y*ml")) if root.is_dir() else []


def bot_version_keys(data_dir: Path) -> list[str]:
    return [p.stem for p in bot_files(data_dir) if BOT_KEY.fullmatch(p.stem)]


def misnamed_bot_files(data_dir: Path) -> list[Path]:
    """Bot files whose name is no valid partition key; reported, never silently skipped."""
    return [p for p in bot_files(data_dir) if not BOT_KEY.fullmatch(p.stem)]


def sync_partitions(instance: dg.DagsterInstance, data_dir: Path) -> tuple[list[str], list[str]]:
    """Register the datasets and bot versions found on disk; returns both key lists."""
    found = dataset_keys(data_dir), bot_version_keys(data_dir)
    for definition, keys in zip((datasets, bot_versions), found):
        known = set(instance.get_dynamic_partitions(definition.name))
        new = [k for k in keys if k not in known]
        if new:
            instance.add_dynamic_partitions(definition.name, new)
    return found
