"""Shared state by URL: the warehouse and the report site on an fsspec filesystem other than
the local disk (memory://, as s3:// or gs:// would be), written whole or not at all."""

import dagster as dg
import pandas as pd
from upath import UPath

from ragpipe.defs.definitions import build_defs
from ragpipe.defs.io_manager import ParquetIOManager
from ragpipe.defs.runner import materialize_all


def test_io_manager_on_memory_filesystem():
    base = UPath("memory://cluster-test/warehouse")
    manager = ParquetIOManager(base)
    frame = pd.DataFrame({"question_id": ["q1", "q2"], "value": [0.5, 1.0]})
    for partition in ("product_en", "policy_zh"):
        manager.handle_output(dg.build_output_context(asset_key=dg.AssetKey(["corpus"]), partition_key=partition),
                              frame)
    assert manager.partitions(["corpus"]) == ["policy_zh", "product_en"]
    assert manager.stored(["corpus"], "product_en").equals(frame)
    assert sorted(p.name for p in base.joinpath("corpus").iterdir()) == ["policy_zh.parquet", "product_en.parquet"]


def test_whole_evaluation_with_warehouse_and_reports_at_urls(project, monkeypatch):
    warehouse, reports = "memory://ragpipe-e2e/warehouse", "memory://ragpipe-e2e/reports"
    monkeypatch.setenv("RAGPIPE_WAREHOUSE_URL", warehouse)
    monkeypatch.setenv("RAGPIPE_REPORTS_URL", reports)
    defs = build_defs(project)
    with dg.DagsterInstance.ephemeral() as instance:
        outcomes = materialize_all(defs, instance, only_datasets=["product_en"], only_bots=["refbot@v2"],
                                   progress=lambda _: None)
    assert [o.success for o in outcomes] == [True, True, True], [o.error for o in outcomes]
    scores = pd.read_parquet(UPath(warehouse, "scores", "faithfulness", "refbot@v2", "product_en.parquet").open("rb"))
    assert len(scores) and scores["value"].notna().any()
    assert "refbot@v2" in UPath(reports, "index.html").read_text(encoding="utf-8")
    assert UPath(reports, "product_en", "refbot@v2", "diagnosis.json").exists()
    assert UPath(reports, "product_en", "compare.html").exists()
    assert not (project / ".ragpipe" / "warehouse").exists() and not (project / ".ragpipe" / "reports").exists()
