"""Entity verification against the knowledge graph: matching, the embedded and Neo4j
sources, `ragpipe graph load`, and the graph_entities asset, against a real Bolt server
(ArcadeDB from arcadedb-embedded) started on loopback."""

import logging
import re
import shutil

import dagster as dg
import neo4j
import pandas as pd
import pytest

from ragpipe.cli import main
from ragpipe.core.evidence.entities import GraphEntities
from ragpipe.core.inputs.graph import EmbeddedGraph, GraphSnapshot, GraphUnavailable, Neo4jGraph, redact_uri
from ragpipe.core.schemas import InputError
from ragpipe.defs.definitions import build_defs
from ragpipe.defs.instance import prepare_dagster_home
from ragpipe.defs.jobs import DATASET_ASSETS, EVALUATION_ASSETS
from ragpipe.defs.partitions import sync_partitions
from ragpipe_tests.bolt_server import bolt_server
from ragpipe_tests.conftest import REPO, sample_data
from ragpipe_tests.pg_server import free_port

DATASETS = sample_data() / "datasets"
ENTITY_METRICS = ["entity_coverage", "context_sufficiency", "unverified_entity_ratio", "hallucination_rate"]
OTHER_METRICS = ["faithfulness", "context_recall"]
SAMPLE = EmbeddedGraph(DATASETS).read("policy_zh")


# --- matching ---------------------------------------------------------------------------

def test_normalisation_folds_width_case_punctuation_and_spaces():
    graph = GraphEntities.from_records([{"name": "《中华人民共和国企业所得税法》第二十八条", "type": "article"},
                                        {"name": "FHA贷款", "type": "policy"}], fuzzy_threshold=1.0)
    assert graph.canonical("中华人民共和国企业所得税法 第二十八条") == "《中华人民共和国企业所得税法》第二十八条"
    assert graph.canonical("“中华人民共和国企业所得税法”第二十八条。") == "《中华人民共和国企业所得税法》第二十八条"
    assert graph.canonical("ＦＨＡ 贷款") == graph.canonical("fha贷款") == "FHA贷款"
    assert graph.canonical("FHB贷款") is None


def test_aliases_map_to_the_canonical_name():
    graph = SAMPLE.graph(fuzzy_threshold=1.0)
    assert graph.canonical("中华人民共和国财政部") == "财政部" == graph.canonical("财政部")
    assert graph.canonical("税务总局") == "国家税务总局"
    assert graph.canonical("深圳") == "深圳市" and graph.canonical("小巨人企业") == "专精特新“小巨人”企业"


def test_fuzzy_matching_follows_its_threshold():
    strict, loose = SAMPLE.graph(fuzzy_threshold=1.0), SAMPLE.graph(fuzzy_threshold=0.8)
    typo = "国家税务总居"  # 局 mistyped: similarity 5/6
    assert strict.canonical(typo) is None and loose.canonical(typo) == "国家税务总局"
    assert SAMPLE.graph(fuzzy_threshold=0.9).canonical(typo) is None
    assert loose.canonical("小型微利企业所得税优惠政策") == "小型微利企业所得税优惠"
    assert loose.canonical("苏州人力资源和社会保障局") == "苏州市人力资源和社会保障局"


def test_fuzzy_matching_never_crosses_a_numeral_or_a_place():
    loose = SAMPLE.graph(fuzzy_threshold=0.8)
    assert loose.canonical("企业所得税法第二十九条") is None  # not article 28, though 10 of 11 characters agree
    assert loose.canonical("南京市人力资源和社会保障局") is None  # not 苏州市's agency (similarity 0.85)
    assert loose.canonical("杭州市人力资源和社会保障局") == "杭州市人力资源和社会保障局"


def test_fuzzy_threshold_comes_from_evaluation_yaml(tmp_path, monkeypatch):
    custom = tmp_path / "eval.yaml"
    text = (REPO / "ragpipe" / "core" / "evaluation.yaml").read_text(encoding="utf-8")
    custom.write_text(text.replace("fuzzy_threshold: 0.8", "fuzzy_threshold: 0.95"), encoding="utf-8")
    with monkeypatch.context() as env:
        env.setenv("RAGPIPE_EVAL_CONFIG", str(custom))
        assert SAMPLE.graph().fuzzy_threshold == 0.95 and SAMPLE.graph().canonical("国家税务总居") is None
    assert SAMPLE.graph().fuzzy_threshold == 0.8


# --- the embedded source and snapshots ---------------------------------------------------

def test_sample_graph_covers_every_kind_and_matches_its_documents():
    counts = SAMPLE.counts()
    assert counts["entities"] >= 60 and counts["relations"] >= 50 and counts["aliases"] >= 40
    assert {e["type"] for e in SAMPLE.entities} == {"agency", "policy", "region", "article", "industry"}
    docs = "\n".join(p.read_text(encoding="utf-8") for p in (DATASETS / "policy_zh" / "docs").glob("*.md"))
    graph = SAMPLE.graph(fuzzy_threshold=1.0)
    named = set(graph.find_in(docs))
    # Every entity of the graph is named in the documents (by its name or an alias)...
    assert named == set(graph.names), sorted(set(graph.names) - named)
    # ...and every city agency and law the documents name is in the graph.
    agencies = set(re.findall(r"(?:深圳|广州|杭州|苏州|成都)市[\u4e00-\u9fff]{1,12}?(?:局|办公室)", docs))
    laws = set(re.findall(r"《[^》]+法》", docs))
    assert len(agencies) >= 15 and [a for a in agencies | laws if graph.canonical(a) is None] == []


def test_relations_must_name_known_entities(tmp_path):
    folder = tmp_path / "d" / "graph"
    folder.mkdir(parents=True)
    (folder / "entities.jsonl").write_text('{"name": "财政部", "type": "agency"}\n', encoding="utf-8")
    (folder / "relations.jsonl").write_text('{"source": "财政部", "relation": "ISSUED_BY", "target": "发改委"}\n',
                                            encoding="utf-8")
    with pytest.raises(InputError) as caught:
        EmbeddedGraph(tmp_path).read("d")
    assert (caught.value.line, caught.value.field) == (1, "target") and "发改委" in str(caught.value)
    assert EmbeddedGraph(tmp_path).read("no_such_dataset") is None


@pytest.mark.parametrize("file, data, field, line", [
    ("entities.jsonl", '{"name": "财政部"}\n'.encode("gbk"), "encoding", None),
    ("entities.jsonl", b'{"name": "a"}\n' + b"[" * 100_000 + b"]" * 100_000 + b"\n", "json", 2),
    ("entities.jsonl", '{"name": "财政部", "aliases": [1, {"x": 2}]}\n'.encode(), "aliases", 1),
    ("entities.jsonl", '{"name": "财政部", "aliases": "MOF"}\n'.encode(), "aliases", 1),
    ("entities.jsonl", '{"name": "财政部", "type": ["agency"]}\n'.encode(), "type", 1),
    ("entities.jsonl", '{"name": "财政部"}\n["not", "an", "object"]\n'.encode(), "json", 2),
    ("entities.jsonl", '{"name": "财政\u2028部", "aliases": ["MOF"]}\n{"name": 7}\n'.encode(), "name", 2),
    ("relations.jsonl", b'{"source": "\xff\xfe"}\n', "encoding", None),
    ("relations.jsonl", '{"source": "财政部", "relation": ["ISSUED_BY"], "target": "财政部"}\n'.encode(), "relation", 1),
])
def test_bad_graph_files_are_input_errors_naming_the_file(tmp_path, file, data, field, line):
    folder = tmp_path / "d" / "graph"
    folder.mkdir(parents=True)
    (folder / "entities.jsonl").write_text('{"name": "财政部", "type": "agency"}\n', encoding="utf-8")
    (folder / file).write_bytes(data)
    with pytest.raises(InputError) as caught:
        EmbeddedGraph(tmp_path).read("d")
    assert (caught.value.file, caught.value.field, caught.value.line) == (str(folder / file), field, line)


def test_graph_files_linking_outside_the_dataset_are_not_read(tmp_path):
    folder = tmp_path / "d" / "graph"
    folder.mkdir(parents=True)
    (folder / "entities.jsonl").symlink_to("/etc/hostname")
    with pytest.raises(InputError, match="outside its folder"):
        EmbeddedGraph(tmp_path).read("d")
    (folder / "entities.jsonl").unlink()
    (folder / "entities.jsonl").symlink_to(folder / "missing.jsonl")  # dangling: not a dataset without a graph
    with pytest.raises(InputError, match="cannot be resolved"):
        EmbeddedGraph(tmp_path).read("d")


def test_snapshot_version_follows_the_entity_set_only():
    shuffled = GraphSnapshot(list(reversed(SAMPLE.entities)), SAMPLE.relations[:3], source="bolt://elsewhere")
    assert shuffled.version() == SAMPLE.version()  # order, relations and source do not enter it
    renamed = [dict(e, aliases=[*e["aliases"], "财长办"]) if e["name"] == "财政部" else e for e in SAMPLE.entities]
    assert GraphSnapshot(renamed).version() != SAMPLE.version()


# --- Neo4j: retries, secrets -------------------------------------------------------------

def _retries(caplog) -> int:
    """How often the driver said it would retry a transaction."""
    return sum("will be retried" in r.getMessage() for r in caplog.records if r.name.startswith("neo4j"))


def test_the_driver_retries_an_unreachable_server_within_its_budget(caplog):
    uri = f"bolt://127.0.0.1:{free_port()}"  # nothing listens there
    caplog.set_level(logging.WARNING, logger="neo4j")
    with pytest.raises(GraphUnavailable, match=re.escape(uri)) as caught:
        Neo4jGraph(uri, password="pw-xyz", retry_seconds=1.5, timeout=3).read("policy_zh")
    assert _retries(caplog) >= 1 and "pw-xyz" not in str(caught.value)


def test_a_wrong_password_is_not_retried_and_never_shown(bolt, caplog):
    caplog.set_level(logging.WARNING, logger="neo4j")
    with pytest.raises(GraphUnavailable) as caught:
        Neo4jGraph(bolt.uri, bolt.user, "pw-wrong-xyz", bolt.database, retry_seconds=30).read("policy_zh")
    assert _retries(caplog) == 0 and "pw-wrong-xyz" not in str(caught.value)


def test_uri_credentials_and_password_stay_out_of_descriptions():
    assert redact_uri("neo4j://alice:hunter2@db.example:7687") == "neo4j://db.example:7687"
    graph = Neo4jGraph("bolt://127.0.0.1:7687", password="hunter2", database="kg")
    assert "hunter2" not in repr(graph) and graph.description == "bolt://127.0.0.1:7687 (database kg)"


def test_server_down_is_a_clear_error_naming_the_uri():
    uri = f"bolt://127.0.0.1:{free_port()}"  # nothing listens there
    with pytest.raises(GraphUnavailable) as caught:
        Neo4jGraph(uri, password="pw-down", retry_seconds=0, timeout=3).read("policy_zh")
    message = str(caught.value)
    assert uri in message and "could not be read" in message and "pw-down" not in message


# --- a real Bolt server --------------------------------------------------------------------

@pytest.fixture(scope="module")
def bolt():
    with bolt_server() as server:
        yield server


@pytest.fixture
def neo4j_env(bolt, monkeypatch):
    for name, value in {"URI": bolt.uri, "USER": bolt.user, "PASSWORD": bolt.password,
                        "DATABASE": bolt.database, "RETRY_SECONDS": "1", "TIMEOUT": "10"}.items():
        monkeypatch.setenv(f"RAGPIPE_NEO4J_{name}", value)
    return bolt


def _count(bolt, query: str) -> int:
    with neo4j.GraphDatabase.driver(bolt.uri, auth=(bolt.user, bolt.password)) as driver:
        records, _, _ = driver.execute_query(query, dataset="policy_zh", database_=bolt.database)
    return records[0]["n"]


def test_graph_load_writes_the_sample_graph_idempotently(neo4j_env, capsys):
    argv = ["graph", "--data-dir", str(sample_data()), "--dataset", "policy_zh", "load"]
    assert main(argv) == 0 and main(argv) == 0  # twice: MERGE, no duplicates
    assert f"{SAMPLE.counts()['entities']} entities" in capsys.readouterr().out
    assert _count(neo4j_env, "MATCH (e:Entity {dataset: $dataset}) RETURN count(e) AS n") == SAMPLE.counts()["entities"]
    assert _count(neo4j_env, "MATCH (:Entity {dataset: $dataset})-[r]->(:Entity) RETURN count(r) AS n") == \
        SAMPLE.counts()["relations"]
    source = Neo4jGraph(neo4j_env.uri, neo4j_env.user, neo4j_env.password, neo4j_env.database)
    read = source.read("policy_zh")
    assert read.entities == SAMPLE.entities and read.relations == SAMPLE.relations
    assert read.version() == SAMPLE.version()
    # A smaller graph replaces the larger one: removed entities and relations go.
    kept = SAMPLE.entities[:-2]
    names = {e["name"] for e in kept}
    smaller = GraphSnapshot(kept, [r for r in SAMPLE.relations if {r["source"], r["target"]} <= names][1:])
    source.write("policy_zh", smaller)
    assert source.read("policy_zh").counts() == smaller.counts()
    assert main(argv) == 0 and source.read("policy_zh").relations == SAMPLE.relations
    with pytest.raises(GraphUnavailable, match="holds no entities for dataset 'absent'"):
        source.read("absent")


def _evaluate(project, graph_env: dict, monkeypatch) -> dict:
    """graph_entities and a subset of the score assets for policy_zh × refbot@v1 (BM25),
    through Dagster with the graph resource configured from ``graph_env``. Returns the
    score frames, graph_entities' metadata and data version, and its check's verdict."""
    for name in ("URI", "USER", "PASSWORD", "DATABASE", "RETRY_SECONDS", "TIMEOUT"):
        monkeypatch.delenv(f"RAGPIPE_NEO4J_{name}", raising=False)
    for name, value in graph_env.items():
        monkeypatch.setenv(f"RAGPIPE_NEO4J_{name}", value)
    prepare_dagster_home(project)
    defs = build_defs(project)
    assets = [*DATASET_ASSETS, *EVALUATION_ASSETS]
    selection = ["rag_responses", *(f"scores/{m}" for m in ENTITY_METRICS + OTHER_METRICS)]
    with dg.DagsterInstance.get() as instance:
        sync_partitions(instance, project / "data")
        dataset_run = dg.materialize(assets, selection=DATASET_ASSETS, partition_key="policy_zh", instance=instance,
                                     resources=defs.resources, raise_on_error=False)
        assert dataset_run.success
        run = dg.materialize(assets, selection=selection, instance=instance, resources=defs.resources,
                             partition_key=dg.MultiPartitionKey({"dataset": "policy_zh", "bot": "refbot@v1"}),
                             raise_on_error=False)
        assert run.success  # an unreachable graph costs the entity metrics, never the run
        materialization = instance.get_latest_materialization_event(dg.AssetKey("graph_entities")).asset_materialization
    warehouse = project / ".ragpipe" / "warehouse"
    return {
        "scores": {m: pd.read_parquet(warehouse / "scores" / m / "refbot@v1" / "policy_zh.parquet")
                   for m in ENTITY_METRICS + OTHER_METRICS},
        "graph": {k: v.value for k, v in materialization.metadata.items()},
        "version": materialization.tags["dagster/data_version"],
        "graph_available": [c.passed for c in dataset_run.get_asset_check_evaluations()
                            if c.check_name == "graph_available"],
    }


def _means(frames) -> dict[str, float]:
    return {m: round(float(frames[m]["value"].mean()), 4) for m in ENTITY_METRICS}


def test_entity_metrics_are_identical_through_neo4j_and_embedded(project, neo4j_env, monkeypatch, capsys):
    assert main(["graph", "--data-dir", str(project / "data"), "--dataset", "policy_zh", "load"]) == 0
    embedded = _evaluate(project, {}, monkeypatch)
    assert embedded["graph"]["source"] == "embedded" and embedded["graph"]["entities"] == SAMPLE.counts()["entities"]
    bolt_env = {"URI": neo4j_env.uri, "USER": neo4j_env.user, "PASSWORD": neo4j_env.password,
                "DATABASE": neo4j_env.database}
    through_neo4j = _evaluate(project, bolt_env, monkeypatch)
    meta = through_neo4j["graph"]
    assert meta["source"] == f"{neo4j_env.uri} (database ragpipe)" and meta["status"] == "ok"
    assert {k: meta[k] for k in ("entities", "aliases", "types", "relations")} == SAMPLE.counts()
    assert through_neo4j["graph_available"] == embedded["graph_available"] == [True]
    # The same entity set is the same data version, wherever it was read from.
    assert through_neo4j["version"] == embedded["version"] == SAMPLE.version()
    for metric in ENTITY_METRICS:
        pd.testing.assert_frame_equal(through_neo4j["scores"][metric], embedded["scores"][metric], obj=metric)
        assert embedded["scores"][metric]["value"].notna().sum() > 0, metric
    with capsys.disabled():
        print(f"\nentity metric means, policy_zh x refbot@v1: embedded {_means(embedded['scores'])}; "
              f"neo4j {_means(through_neo4j['scores'])}")
    _assert_no_secret(project, neo4j_env.password)


def test_graph_server_down_leaves_entity_metrics_nan_and_the_rest_measured(project, monkeypatch):
    uri = f"bolt://127.0.0.1:{free_port()}"  # nothing listens there
    password = "pw-never-shown-7"
    result = _evaluate(project, {"URI": uri, "PASSWORD": password, "RETRY_SECONDS": "0", "TIMEOUT": "3"}, monkeypatch)
    for metric in ENTITY_METRICS:
        frame = result["scores"][metric]
        assert frame["value"].isna().all(), metric
        assert frame["error"].str.contains(f"knowledge graph at {uri}", regex=False).all(), metric
    for metric in OTHER_METRICS:
        frame = result["scores"][metric]
        assert frame["value"].notna().sum() > len(frame) / 2, metric
    assert result["graph"]["status"] == "unavailable" and uri in result["graph"]["error"]
    assert result["graph"]["entities"] == 0 and result["graph_available"] == [False]
    assert result["version"] == "unavailable"
    _assert_no_secret(project, password)


def _assert_no_secret(project, password: str) -> None:
    """The password is nowhere in what ragpipe or Dagster wrote: event log, metadata,
    stored values, reports, logs."""
    needle = password.encode("utf-8")
    leaks = [p for p in project.rglob("*") if p.is_file() and needle in p.read_bytes()]
    assert not leaks, leaks


def test_a_dataset_without_graph_snapshots_as_absent_and_its_check_passes(project, monkeypatch):
    monkeypatch.delenv("RAGPIPE_NEO4J_URI", raising=False)
    shutil.rmtree(project / "data" / "datasets" / "product_en" / "graph")
    prepare_dagster_home(project)
    defs = build_defs(project)
    with dg.DagsterInstance.get() as instance:
        sync_partitions(instance, project / "data")
        result = dg.materialize([*DATASET_ASSETS], selection=["graph_entities"], partition_key="product_en",
                                instance=instance, resources=defs.resources)
    materialization = result.asset_materializations_for_node("graph_entities")[0]
    assert materialization.metadata["status"].value == "absent" and materialization.metadata["entities"].value == 0
    check = result.get_asset_check_evaluations()[0]
    assert check.passed and "no knowledge graph" in check.metadata["note"].value
    frame = result.output_for_node("graph_entities")
    assert frame.empty
