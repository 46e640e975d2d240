"""`ragpipe score` on rows written with ragpipe's, RAGAS's or DeepEval's field names: the same
scores, warnings for keys nobody knows, one clear line for bad input, progress, the judge."""

import json
import math

import pytest

from ragpipe.cli import main
from ragpipe.testing.fake_judge import fake_llm
from ragpipe.testing.openai_server import OpenAIServer

QUESTION, ANSWER = "How much does the grant pay each shop?", "The grant pays 500 dollars to each shop."
CONTEXTS, REFERENCE = ["The city grant pays 500 dollars to each shop on the harbour."], "500 dollars per shop."
ROWS = [  # one case, three vocabularies
    {"id": "ours", "question": QUESTION, "answer": ANSWER, "retrieved_contexts": CONTEXTS,
     "ground_truth_answer": REFERENCE},
    {"id": "ragas", "user_input": QUESTION, "response": ANSWER, "retrieved_contexts": CONTEXTS, "reference": REFERENCE},
    {"id": "deepeval", "input": QUESTION, "actual_output": ANSWER, "retrieval_context": CONTEXTS,
     "expected_output": REFERENCE, "ground_truth": REFERENCE},
]
METRICS = ["faithfulness", "answer_correctness", "answer_relevancy"]


def _score(tmp_path, cache, rows, *extra):
    source, out = tmp_path / "rows.jsonl", tmp_path / "scores.jsonl"
    source.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows), encoding="utf-8")
    code = main(["score", "--input", str(source), "--output", str(out), "--cache-dir", str(cache), *extra])
    scored = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()] if out.exists() else []
    return code, source, scored


def test_ragas_and_deepeval_field_names_score_as_ours(tmp_path, embedding_cache, capsys, monkeypatch):
    monkeypatch.delenv("RAGPIPE_LLM_BASE_URL", raising=False)
    code, _, scored = _score(tmp_path, embedding_cache, ROWS, "--metrics", *METRICS)
    assert code == 0
    values = [{m: s["scores"][m]["value"] for m in METRICS} for s in scored]
    assert [s["id"] for s in scored] == ["ours", "ragas", "deepeval"]
    assert all(v is not None and not math.isnan(v) for v in values[0].values()), scored[0]
    assert values[1] == values[0] and values[2] == values[0]
    err = capsys.readouterr().err
    assert "scored 3/3 rows" in err.splitlines()  # progress as lines: stderr is no terminal here
    assert "warning" not in err


def test_unknown_keys_warn_once_and_bad_input_is_one_line(tmp_path, embedding_cache, capsys, monkeypatch):
    monkeypatch.delenv("RAGPIPE_LLM_BASE_URL", raising=False)
    rows = [{**ROWS[0], "contxt": CONTEXTS}, {**ROWS[1], "id": "r2", "contxt": CONTEXTS, "score": 1},
            {"question": QUESTION, "answer": ANSWER, "retrieved_contexts": CONTEXTS[0]}, ROWS[2]]
    code, source, scored = _score(tmp_path, embedding_cache, rows, "--metrics", "faithfulness")
    err = capsys.readouterr().err
    assert err.count("unknown field 'contxt' is ignored") == 1 and f"{source}:1: warning: unknown field 'contxt'" in err
    assert f"{source}:2: warning: unknown field 'score'" in err
    # a wrong type stops at its line, naming it, after the rows before it are written
    assert code == 2 and [s["id"] for s in scored] == ["ours", "r2"]
    assert f"{source}:3: field 'retrieved_contexts': expected a list of strings, got str" in err
    assert "Traceback" not in err

    code, source, scored = _score(tmp_path, embedding_cache, [ROWS[0], '["not", "an", "object"]'])
    assert code == 2 and f"{source}:2: field 'row': expected a JSON object, got list" in capsys.readouterr().err
    code, source, scored = _score(tmp_path, embedding_cache, [{**ROWS[0], "user_input": "Other?"}],
                                  "--metrics", "answer_relevancy")
    assert code == 0 and f"{source}:1: warning: field 'user_input' is ignored: 'question' gives question another " \
        "value" in capsys.readouterr().err
    missing = tmp_path / "nowhere.jsonl"
    assert main(["score", "--input", str(missing), "--output", str(tmp_path / "o.jsonl")]) == 2
    assert capsys.readouterr().err.strip() == f"{missing}: cannot be read: No such file or directory"


@pytest.mark.parametrize("offline", [False, True])
def test_the_judge_is_used_when_configured_as_in_the_pipeline(tmp_path, capsys, monkeypatch, offline):
    with OpenAIServer(route=fake_llm) as server:
        monkeypatch.setenv("RAGPIPE_LLM_BASE_URL", server.base_url)
        monkeypatch.setenv("RAGPIPE_LLM_MODEL", "judge-model")
        monkeypatch.setenv("RAGPIPE_LLM_API_KEY", "sk-test-score-cli")
        code, _, scored = _score(tmp_path, tmp_path / "cache", ROWS[1:2], "--metrics", "llm_judge",
                                 *(["--offline"] if offline else []))
        requests = len(server.requests)
    assert code == 0
    judged = scored[0]["scores"]["llm_judge"]
    if offline:
        assert judged["value"] is None and requests == 0
    else:
        assert 1 <= judged["value"] <= 5 and requests >= 1, judged
        err = capsys.readouterr().err
        assert "LLM judge: model judge-model" in err and f"LLM judge: {requests} call(s), 0 from the cache" in err


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_a_csv_or_parquet_output_is_a_flat_table_with_the_inputs(tmp_path, embedding_cache, monkeypatch, suffix):
    import pandas as pd

    monkeypatch.delenv("RAGPIPE_LLM_BASE_URL", raising=False)
    code, source, detailed = _score(tmp_path, embedding_cache, ROWS[1:2], "--metrics", *METRICS)
    table = tmp_path / f"scores{suffix}"
    assert main(["score", "--input", str(source), "--output", str(table), "--cache-dir", str(embedding_cache),
                 "--metrics", *METRICS, "context_precision"]) == code == 0
    frame = pd.read_csv(table) if suffix == ".csv" else pd.read_parquet(table)
    assert len(frame) == 1 and list(frame.columns)[:3] == ["question_id", "question", "answer"]
    row = frame.iloc[0]
    assert (row["question_id"], row["question"], row["answer"]) == ("ragas", QUESTION, ANSWER)
    contexts = json.loads(row["retrieved_contexts"]) if suffix == ".csv" else list(row["retrieved_contexts"])
    assert contexts == CONTEXTS
    assert {m: row[m] for m in METRICS} == pytest.approx({m: detailed[0]["scores"][m]["value"] for m in METRICS})
    # context_precision needs ground-truth contexts this row lacks: NaN, with the reason beside it.
    assert math.isnan(row["context_precision"]) and "context_precision" in json.loads(row["unmeasured"])


@pytest.mark.parametrize("output", ["same", "relative", "symlink", "hardlink"])
def test_an_output_that_is_the_input_is_refused_and_the_input_kept(tmp_path, monkeypatch, capsys, output):
    source = tmp_path / "rows.jsonl"
    text = "".join(json.dumps({**ROWS[0], "id": f"r{i}"}) + "\n" for i in range(3))
    source.write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    target = {"same": str(source), "relative": "./rows.jsonl"}.get(output, str(tmp_path / "alias.jsonl"))
    if output == "symlink":
        (tmp_path / "alias.jsonl").symlink_to(source)
    elif output == "hardlink":
        (tmp_path / "alias.jsonl").hardlink_to(source)
    assert main(["score", "--input", str(source), "--output", target, "--offline"]) == 2
    assert source.read_text(encoding="utf-8") == text
    assert f"--output {target} is the input file {source}" in capsys.readouterr().err


def test_hostile_lines_stop_at_their_line_with_a_clear_error(tmp_path, embedding_cache, capsys, monkeypatch):
    monkeypatch.delenv("RAGPIPE_LLM_BASE_URL", raising=False)
    deep = '{"question": "q?", "answer": ' + "[" * 100_000 + "]" * 100_000 + "}"
    code, source, scored = _score(tmp_path, embedding_cache, [ROWS[0], deep], "--metrics", "faithfulness")
    err = capsys.readouterr().err
    assert code == 2 and [s["id"] for s in scored] == ["ours"]
    assert f"{source}:2: field 'json': nested too deeply to parse" in err and "Traceback" not in err

    monkeypatch.setattr("ragpipe.cli.score.MAX_LINE_BYTES", 4096)  # the cap, small enough for a test
    long = json.dumps({"question": "q?", "answer": "x" * 10_000})
    (tmp_path / "long").mkdir()
    code, source, scored = _score(tmp_path / "long", embedding_cache, [ROWS[0], ROWS[1], long], "--metrics",
                                  "faithfulness")
    assert code == 2 and scored == []  # refused before anything is scored
    assert f"{source}:3: field 'row': the line is longer than 4,096 bytes" in capsys.readouterr().err


def test_lone_surrogates_are_replaced_and_the_row_scored(tmp_path, embedding_cache, capsys, monkeypatch):
    monkeypatch.delenv("RAGPIPE_LLM_BASE_URL", raising=False)
    bad = ('{"id": "s", "question": "Who pays?", "answer": "The grant \\ud800 pays.", '
           '"retrieved_contexts": ["x \\udfff"]}')
    code, source, scored = _score(tmp_path, embedding_cache, [ROWS[0], bad], "--metrics", "faithfulness")
    assert code == 0 and [s["id"] for s in scored] == ["ours", "s"]
    assert f"{source}:2: warning: lone surrogates in answer, retrieved_contexts replaced by U+FFFD" \
        in capsys.readouterr().err


def test_unmeasured_values_are_null_with_a_reason_never_nan(tmp_path, embedding_cache, monkeypatch):
    monkeypatch.delenv("RAGPIPE_LLM_BASE_URL", raising=False)
    rows = [{"id": "empty", "question": "q?", "answer": "", "retrieved_contexts": []}, ROWS[0]]
    code, source, _ = _score(tmp_path, embedding_cache, rows)
    text = (tmp_path / "scores.jsonl").read_text(encoding="utf-8")

    def no_constant(name):
        raise AssertionError(f"{name} is not JSON")

    scored = [json.loads(line, parse_constant=no_constant) for line in text.splitlines()]
    assert code == 0 and len(scored) == 2
    reasons = [s["error"] for s in scored[0]["scores"].values() if s["value"] is None]
    assert reasons and all(reasons)  # null, with the reason beside it
    assert None in scored[1]["scores"]["overall_score"]["details"]["dimension_scores"].values()  # was a NaN token


def test_the_pipeline_limits_apply_to_a_row(tmp_path, embedding_cache, capsys, monkeypatch):
    from ragpipe.core.config import load_config

    monkeypatch.delenv("RAGPIPE_LLM_BASE_URL", raising=False)
    limits = load_config().limits
    many = {**ROWS[0], "id": "many", "retrieved_contexts": [f"The grant pays shop {i}." for i in range(20_000)]}
    long = {**ROWS[0], "id": "long", "answer": "word " * limits.max_answer_chars}
    code, source, scored = _score(tmp_path, embedding_cache, [many, long], "--metrics", "faithfulness",
                                  "context_relevance")
    err = capsys.readouterr().err
    assert code == 0 and [s["id"] for s in scored] == ["many", "long"]
    assert f"{source}:1: warning: retrieved_contexts: {20_000 - limits.max_contexts} contexts past " \
           f"limits.max_contexts ({limits.max_contexts})" in err
    assert len(scored[0]["scores"]["context_relevance"]["details"]["contexts"]) == limits.max_contexts
    refused = scored[1]["scores"]["faithfulness"]
    assert refused["value"] is None and refused["error"].startswith("answer too long:")
