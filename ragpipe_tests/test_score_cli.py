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
