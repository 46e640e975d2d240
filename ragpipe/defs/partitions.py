"""Partitions: one per dataset folder and named evaluation (data/evaluations/<name>.yaml),
one per bot config file, and their product."""

import re
import warnings
from collections import Counter
from pathlib import Path

import dagster as dg
import sqlalchemy.exc

from ragpipe.core.inputs.bot_config import BOT_KEY, MAX_NAME
from ragpipe.core.inputs.evaluations import Evaluation, evaluation_files, load_evaluation
from ragpipe.core.metrics import REGISTRY
from ragpipe.core.schemas import InputError, InputErrors

datasets = dg.DynamicPartitionsDefinition(name="datasets")
bot_versions = dg.DynamicPartitionsDefinition(name="bot_versions")
# String keys read "bot|dataset": Dagster sorts the dimensions by name.
evaluations = dg.MultiPartitionsDefinition({"dataset": datasets, "bot": bot_versions})

# Evaluation assets read dataset-level assets through this mapping. It is beta in Dagster
# 1.13, and its warning says only that, in every process that loads the definitions (each
# code server `ragpipe backfill` and `dagster dev` start).
with warnings.catch_warnings():
    warnings.simplefilter("ignore", dg.BetaWarning)
    BY_DATASET = dg.MultiToSingleDimensionPartitionMapping(partition_dimension_name="dataset")

# Partition keys may not contain | [ ] , (Dagster's multi-partition syntax); a name is also a
# file name (<dataset>.parquet, reports/<dataset>/…), which the file system bounds.
DATASET_KEY = re.compile(rf"^[A-Za-z0-9_.-]{{1,{MAX_NAME}}}$")


def partitioned_check(name: str, asset: str, partitions_def: dg.PartitionsDefinition, **spec) -> dg.AssetCheckSpec:
    """A check on a partitioned asset whose results are kept per partition, so the UI shows
    each partition's own result rather than the latest of any partition. Partitioned
    checks are a preview feature of Dagster 1.13; its warning says only that."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", dg.PreviewWarning)
        return dg.AssetCheckSpec(name, asset=asset, partitions_def=partitions_def, **spec)


def _dataset_dirs(data_dir: Path) -> list[Path]:
    """Hidden folders (.ipynb_checkpoints, .git) are no datasets."""
    root = data_dir / "datasets"
    return sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")) if root.is_dir() else []


def _bot_files(data_dir: Path) -> list[Path]:
    """Hidden files (._refbot@v1.yaml from macOS, editor backups) are no configs."""
    root = data_dir / "bots"
    return sorted(p for p in root.glob("*.y*ml") if not p.name.startswith(".")) if root.is_dir() else []


def dataset_keys(data_dir: Path) -> list[str]:
    """The dataset folders, then the valid named evaluations: each a key of `datasets`."""
    return [p.name for p in _dataset_dirs(data_dir) if DATASET_KEY.fullmatch(p.name)] + list(named_evaluations(data_dir))


def named_evaluations(data_dir: Path) -> dict[str, Evaluation]:
    return {name: found for name, found in _evaluations(data_dir).items() if isinstance(found, Evaluation)}


def invalid_evaluations(data_dir: Path) -> dict[str, str]:
    """Evaluation files that cannot be evaluated, and why (file and fields named)."""
    return {name: found for name, found in _evaluations(data_dir).items() if isinstance(found, str)}


def _evaluations(data_dir: Path) -> dict[str, Evaluation | str]:
    found, bots = {}, bot_version_keys(data_dir)
    for file in evaluation_files(data_dir):
        try:
            found[file.stem] = load_evaluation(file, data_dir, bots, list(REGISTRY))
        except (InputError, InputErrors) as exc:
            found[file.stem] = str(exc)
    return found


def bot_version_keys(data_dir: Path) -> list[str]:
    """Bot versions with exactly one config file (two, such as .yaml and .yml, are ambiguous)."""
    keys = Counter(p.stem for p in _bot_files(data_dir) if BOT_KEY.fullmatch(p.stem))
    return [key for key, files in keys.items() if files == 1]


def misnamed_inputs(data_dir: Path) -> list[Path]:
    """Dataset folders and bot files whose names are no valid partition key: reported
    to the user, never silently skipped."""
    return ([p for p in _dataset_dirs(data_dir) if not DATASET_KEY.fullmatch(p.name)]
            + [p for p in _bot_files(data_dir) if not BOT_KEY.fullmatch(p.stem)])


def ambiguous_bot_files(data_dir: Path) -> dict[str, str]:
    """Bot versions with more than one config file (such as .yaml and .yml), and the
    problem to report: neither file is evaluated until one is removed."""
    by_key: dict[str, list[Path]] = {}
    for path in _bot_files(data_dir):
        by_key.setdefault(path.stem, []).append(path)
    return {key: ambiguity(key, files) for key, files in by_key.items() if len(files) > 1}


def ambiguity(bot_version: str, files: list[Path]) -> str:
    return (f"{bot_version} has {len(files)} config files ({', '.join(p.name for p in files)}): "
            "not evaluated until all but one are removed")


def sync_partitions(instance: dg.DagsterInstance, data_dir: Path) -> tuple[list[str], list[str]]:
    """Register the datasets and bot versions found on disk; returns both key lists."""
    found = dataset_keys(data_dir), bot_version_keys(data_dir)
    for definition, keys in zip((datasets, bot_versions), found):
        _add_missing(instance, definition.name, keys)
    return found


def _add_missing(instance: dg.DagsterInstance, name: str, keys: list[str], attempts: int = 3) -> None:
    # Dagster reads the known keys, then inserts the others: two processes starting at once
    # (two `ragpipe run`s, a sensor) can both insert a key, and the later insert fails on the
    # table's unique constraint. Asking again then finds the key and inserts only the rest.
    for attempt in range(attempts):
        known = set(instance.get_dynamic_partitions(name))
        new = [k for k in keys if k not in known]
        if not new:
            return
        try:
            instance.add_dynamic_partitions(name, new)
            return
        except sqlalchemy.exc.IntegrityError:
            if attempt == attempts - 1:
                raise
