"""Input that expands: a bot reply that is a gzip bomb or a huge body, an XLSX question or
label file whose sheet expands to millions of cells, and an answer with characters UTF-8
cannot hold. Each is refused or cleaned with its reason, within bounded memory."""

import gzip
import io
import json
import tracemalloc
import zipfile

import httpx
import openpyxl
import pandas as pd
import pytest

from ragpipe.core.inputs.answers import AnswerCache
from ragpipe.core.inputs.bot_config import BotConfig
from ragpipe.core.inputs.bots import HttpBot
from ragpipe.core.inputs.questions import load_question_file
from ragpipe.core.labels.reading import read_label_file
from ragpipe.core.schemas import InputErrors
from ragpipe_tests.test_inputs import limits  # noqa: F401 (the fixture)

CAP = 1_000_000  # the reply limit these tests give the transport


def _bot(cache=None) -> HttpBot:
    config = BotConfig.model_validate({"name": "b", "version": "v1", "kind": "http", "http": {
        "endpoint": "http://bot.invalid/ask", "max_retries": 0}})
    return HttpBot(config, "d", cache)


def _serve(bot: HttpBot, reply) -> None:
    """Sends the bot's requests to ``reply(request) -> httpx.Response``, streamed through
    the bot's own client (which decompresses, as it would from the network)."""
    bot._transport._http = httpx.AsyncClient(transport=httpx.MockTransport(reply))
    bot._transport.max_reply_bytes = CAP


def _gzip_bomb(size: int) -> bytes:
    """A JSON reply whose answer is ``size`` spaces, gzipped (about 1,000 to 1)."""
    out = io.BytesIO()
    with gzip.GzipFile(fileobj=out, mode="wb") as packed:
        packed.write(b'{"answer": "')
        for _ in range(size // 1_000_000):
            packed.write(b" " * 1_000_000)
        packed.write(b'", "contexts": []}')
    return out.getvalue()


@pytest.mark.parametrize("case", ["gzip bomb", "huge body", "declared length"])
def test_a_reply_past_the_limit_is_refused_while_it_streams(case):
    bomb = _gzip_bomb(200_000_000)  # 200 MB inflated from about 200 KB
    replies = {
        "gzip bomb": lambda request: httpx.Response(200, headers={"content-encoding": "gzip"},
                                                    stream=httpx.ByteStream(bomb)),
        "huge body": lambda request: httpx.Response(200, stream=httpx.ByteStream(b" " * 30_000_000)),
        "declared length": lambda request: httpx.Response(200, headers={"content-length": "100000000000"},
                                                          stream=httpx.ByteStream(b"{}")),
    }
    bot = _bot()
    _serve(bot, replies[case])
    tracemalloc.start()
    try:
        response = bot.ask("q1", "How much?")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
        bot.close()
    assert response.answer is None
    assert response.error.startswith("reply too large: the reply from http://bot.invalid/ask "), response.error
    assert "1,000,000" in response.error and response.error.endswith("not read")
    assert peak < 35_000_000 if case == "huge body" else peak < 10_000_000  # the old code held all 200 MB


def test_a_reply_within_the_limit_still_decompresses():
    body = gzip.compress(json.dumps({"answer": "Fine.", "contexts": ["c"]}).encode())
    bot = _bot()
    _serve(bot, lambda request: httpx.Response(200, headers={"content-encoding": "gzip"},
                                               stream=httpx.ByteStream(body)))
    try:
        response = bot.ask("q1", "How much?")
    finally:
        bot.close()
    assert (response.answer, response.retrieved_contexts, response.error) == ("Fine.", ["c"], None)
    assert response.latency_ms >= 0


def test_lone_surrogates_in_an_answer_are_replaced_and_said_so_fresh_or_cached(tmp_path):
    """The old code kept them, and the Parquet file of rag_responses could not be written."""
    reply = b'{"answer": "5,000 dollars \\ud800 a year.", "contexts": ["Grants \\udfff."]}'
    cache = AnswerCache(tmp_path / "answers")
    bot = _bot(cache)
    _serve(bot, lambda request: httpx.Response(200, stream=httpx.ByteStream(reply)))
    try:
        fresh = bot.ask("q1", "How much?")
        cache.put(bot.cache_key("q2", "And then?", bot.round_id),  # as an older version cached it
                  {"question_id": "q2", "answer": "Then \ud800.", "retrieved_contexts": [], "retrieved_ids": [],
                   "latency_ms": 1.0})
        cached = bot.ask("q2", "And then?")
    finally:
        bot.close()
    assert (fresh.answer, fresh.retrieved_contexts) == ("5,000 dollars \ufffd a year.", ["Grants \ufffd."])
    assert fresh.truncated == "2 lone surrogates (no UTF-8 character) replaced with U+FFFD"
    assert cached.answer == "Then \ufffd." and cached.truncated.startswith("1 lone surrogates")
    frame = pd.DataFrame([fresh.model_dump(), cached.model_dump()])
    frame.to_parquet(tmp_path / "rag_responses.parquet")
    assert pd.read_parquet(tmp_path / "rag_responses.parquet")["answer"].tolist() == [fresh.answer, cached.answer]


def _workbook_with_sheet(sheet_xml: str) -> bytes:
    """A real workbook whose first sheet's XML is replaced by ``sheet_xml``."""
    book = openpyxl.Workbook()
    book.active.append(["id", "question", "answer"])
    plain = io.BytesIO()
    book.save(plain)
    out = io.BytesIO()
    with zipfile.ZipFile(plain) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            data = source.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
                data = sheet_xml.encode()
            target.writestr(item.filename, data)
    return out.getvalue()


def _sheet(rows: str) -> str:
    return ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
            '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
            f'<dimension ref="A1:XFD1048576"/><sheetData>{rows}</sheetData></worksheet>')


def _cell_row(n: int, column: str = "A") -> str:
    return f'<row r="{n}"><c r="{column}{n}" t="inlineStr"><is><t>q{n}</t></is></c></row>'


BOMBS = {
    # 12 MB of XML from a small zip: past 10 x limits.max_file_bytes (1 MB here)
    "expands": (lambda: _sheet(_cell_row(1) + "<row/>" * 2_000_000), "expands to"),
    # one cell a million rows down: every row before it is a row
    "rows": (lambda: _sheet(_cell_row(1) + _cell_row(1_048_576)), "more than 100,000 rows"),
    # 100 rows with one cell each in the last column: 1.6 million cells
    "cells": (lambda: _sheet("".join(_cell_row(n, "XFD") for n in range(1, 101))), "cells"),
}


@pytest.mark.parametrize("bomb", list(BOMBS))
def test_an_xlsx_question_or_label_file_that_expands_too_far_is_refused_naming_it(tmp_path, limits, bomb):
    limits(max_file_bytes=1_000_000)
    sheet, why = BOMBS[bomb]
    raw = _workbook_with_sheet(sheet())
    assert len(raw) < 1_000_000
    (tmp_path / "questions.xlsx").write_bytes(raw)
    (tmp_path / "labels.xlsx").write_bytes(raw)
    with pytest.raises(InputErrors) as caught:
        load_question_file(tmp_path / "questions.xlsx")
    problem, = caught.value.problems
    assert (problem.file, problem.field) == (str(tmp_path / "questions.xlsx"), "xlsx")
    assert why in problem.problem and "not read" in problem.problem
    labels, problems = read_label_file(tmp_path / "labels.xlsx", tmp_path)
    assert labels == [] and [(p.file, p.field) for p in problems] == [(str(tmp_path / "labels.xlsx"), "xlsx")]
    assert why in problems[0].problem
