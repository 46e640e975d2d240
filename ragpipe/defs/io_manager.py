"""Parquet IO manager: one file per partition, e.g.
``<base>/scores/faithfulness/<bot>/<dataset>.parquet`` (multi-partition dimensions in
name order), readable with ``pandas.read_parquet`` outside Dagster."""

from __future__ import annotations

import dagster as dg
import pandas as pd
from upath import UPath


class ParquetIOManager(dg.UPathIOManager):
    extension = ".parquet"

    def dump_to_path(self, context: dg.OutputContext, obj: pd.DataFrame, path: UPath) -> None:
        if not isinstance(obj, pd.DataFrame):
            raise TypeError(f"{context.asset_key.to_user_string()} must return a pandas DataFrame, got {type(obj)}")
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        with tmp.open("wb") as handle:
            obj.to_parquet(handle, index=False)
        tmp.rename(path)  # readers never see a half-written file
        context.add_output_metadata({"rows": len(obj)})  # the base class adds the path

    def load_from_path(self, context: dg.InputContext, path: UPath) -> pd.DataFrame:
        with path.open("rb") as handle:
            return pd.read_parquet(handle)


class ParquetIOManagerFactory(dg.ConfigurableIOManagerFactory):
    """``base_path`` is a local folder or any fsspec URL (s3://…)."""

    base_path: str

    def create_io_manager(self, context) -> ParquetIOManager:
        return ParquetIOManager(base_path=UPath(self.base_path))
