"""Parquet IO manager: one file per partition, e.g.
``<base>/scores/faithfulness/<bot>/<dataset>.parquet`` (multi-partition dimensions in
name order), readable with ``pandas.read_parquet`` outside Dagster. The path scheme is
defined here only: code that reads another partition than its run's inputs asks
``stored``."""

from __future__ import annotations

import io
from collections.abc import Sequence

import dagster as dg
import pandas as pd
from upath import UPath

from ragpipe.core.storage import atomic_write, location


class ParquetIOManager(dg.UPathIOManager):
    extension = ".parquet"

    def __init__(self, base_path: UPath):
        super().__init__(base_path=base_path)
        self.base = base_path

    def partition_file(self, asset_key: Sequence[str], partition: str | dg.MultiPartitionKey) -> UPath:
        """The file of one partition of an asset. A multi-partition key is written
        "<bot>|<dataset>" (Dagster's string form) or "<bot>/<dataset>" (as Dagster hands it
        to ``get_path_for_partition``): both are folders in dimension name order."""
        location = self.make_safe_partition_path(self.base.joinpath(*asset_key), str(partition).replace("|", "/"))
        return location.with_name(location.name + self.extension)

    def get_path_for_partition(self, context, path: UPath, partition: str) -> UPath:
        file = self.partition_file(context.asset_key.path, partition)
        return file.with_name(file.name.removesuffix(self.extension))  # Dagster adds the extension

    def partitions(self, asset_key: Sequence[str]) -> list[str]:
        """The partitions stored of an asset partitioned in one dimension."""
        folder = self.base.joinpath(*asset_key)
        return sorted(p.name.removesuffix(self.extension) for p in folder.glob(f"*{self.extension}"))

    def stored(self, asset_key: Sequence[str], partition: str | dg.MultiPartitionKey) -> pd.DataFrame | None:
        """One stored partition, or None when it was never materialized."""
        file = self.partition_file(asset_key, partition)
        return self._read(file) if file.exists() else None

    def dump_to_path(self, context: dg.OutputContext, obj: pd.DataFrame, path: UPath) -> None:
        if not isinstance(obj, pd.DataFrame):
            raise TypeError(f"{context.asset_key.to_user_string()} must return a pandas DataFrame, got {type(obj)}")
        buffer = io.BytesIO()
        obj.to_parquet(buffer, index=False)
        # Two runs writing one partition: a reader sees one whole file or the other.
        atomic_write(path, buffer.getvalue())
        context.add_output_metadata({"rows": len(obj)})  # the base class adds the path

    def load_from_path(self, context: dg.InputContext, path: UPath) -> pd.DataFrame:
        return self._read(path)

    @staticmethod
    def _read(path: UPath) -> pd.DataFrame:
        with path.open("rb") as handle:
            return pd.read_parquet(handle)


class ParquetIOManagerFactory(dg.ConfigurableIOManagerFactory):
    """``base_path`` is a local folder or any fsspec URL (s3://…)."""

    base_path: str

    def create_io_manager(self, context) -> ParquetIOManager:
        return ParquetIOManager(base_path=location(self.base_path))
