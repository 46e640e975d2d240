"""The asset graph against a real PostgreSQL instance storage (dagster.yaml's DAGSTER_PG_* path)."""

import dagster as dg
import psycopg2
import pytest

from ragpipe.defs.definitions import build_defs
from ragpipe.defs.instance import prepare_dagster_home
from ragpipe.defs.runner import materialize_all
from ragpipe_tests.pg_server import postgres_cluster
from ragpipe_tests.test_cluster_pools import assert_one_claim_at_a_time


@pytest.fixture
def pg(project, monkeypatch):
    with postgres_cluster() as (host, port, user, db):
        for name, value in {"HOST": host, "PORT": str(port), "USER": user, "PASSWORD": "", "DB": db}.items():
            monkeypatch.setenv(f"DAGSTER_PG_{name}", value)
        yield psycopg2.connect(host=host, port=port, user=user, dbname=db)


def test_runs_and_materializations_land_in_postgres(project, pg):
    prepare_dagster_home(project)
    defs = build_defs(project)
    with dg.DagsterInstance.get() as instance:
        assert type(instance.run_storage).__name__ == "PostgresRunStorage"
        outcomes = materialize_all(defs, instance, only_datasets=["product_en"], only_bots=["refbot@v2"],
                                   progress=lambda _: None)
    assert [o.success for o in outcomes] == [True, True, True]

    with pg, pg.cursor() as cur:
        cur.execute("SELECT run_id, status FROM runs")
        runs = dict(cur.fetchall())
        cur.execute("SELECT asset_key, partition FROM event_logs WHERE dagster_event_type = 'ASSET_MATERIALIZATION'")
        materializations = set(cur.fetchall())
    assert {o.run_id for o in outcomes} <= set(runs) and set(runs.values()) == {"SUCCESS"}
    assert ('["corpus"]', "product_en") in materializations
    assert ('["scores", "faithfulness"]', "refbot@v2|product_en") in materializations
    assert ('["diagnosis_report"]', "refbot@v2|product_en") in materializations
    assert ('["leaderboard"]', "product_en") in materializations


def test_steps_claiming_a_one_slot_pool_at_the_same_moment_get_it_one_at_a_time(project, pg):
    """Dagster's own claim let two of them through in 7 of 20 tries (instance_storage.py)."""
    home = prepare_dagster_home(project)
    with dg.DagsterInstance.get() as instance:
        assert type(instance.event_log_storage).__name__ == "_PostgresEventLogStorage"
    assert_one_claim_at_a_time(str(home))
