"""Load a dataset's documents and split them into chunks with stable ids.

Chunk id: ``<document stem>#<n>``, n counting from 0 over the document's blocks. A block
is text between blank lines; a block holding only a Markdown heading is joined to the
block after it, so a heading never stands alone. Blocks longer than ``MAX_CHUNK_CHARS``
are cut at sentence ends, each piece taking the next number. The ids depend only on the
file's text, so ground-truth contexts can name them.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

from ragpipe.core.schemas import Chunk, InputError
from ragpipe.core.text import split_sentences

MAX_CHUNK_CHARS = 1200
DOC_SUFFIXES = (".md", ".txt", ".html", ".htm")


def _html_to_text(raw: str) -> str:
    raw = re.sub(r"(?is)<(script|style)\b.*?</\1>", " ", raw)
    raw = re.sub(r"(?i)<\s*(br|/p|/div|/h[1-6]|/li)\s*/?>", "\n\n", raw)
    return html.unescape(re.sub(r"<[^>]+>", " ", raw))


def _blocks(text: str) -> list[str]:
    blocks: list[str] = []
    pending_heading = ""
    for block in re.split(r"\n\s*\n", text.replace("\r\n", "\n")):
        block = block.strip()
        if not block:
            continue
        if re.fullmatch(r"#{1,6}\s.*", block):
            pending_heading = f"{pending_heading}\n{block}".strip()
            continue
        blocks.append(f"{pending_heading}\n{block}".strip() if pending_heading else block)
        pending_heading = ""
    if pending_heading:
        blocks.append(pending_heading)
    return blocks


def _split_long(block: str) -> list[str]:
    if len(block) <= MAX_CHUNK_CHARS:
        return [block]
    pieces, current = [], ""
    for sentence in split_sentences(block):
        if current and len(current) + len(sentence) > MAX_CHUNK_CHARS:
            pieces.append(current)
            current = ""
        current += sentence if not current else " " + sentence
    return pieces + ([current] if current else [])


def _title(stem: str, text: str) -> str:
    first = text.strip().splitlines()[0] if text.strip() else stem
    return first.lstrip("# ").strip() or stem


def chunk_document(path: Path) -> list[Chunk]:
    try:
        raw = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(str(path), "encoding", f"not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    text = _html_to_text(raw) if path.suffix.lower() in (".html", ".htm") else raw
    title = _title(path.stem, text)
    pieces = [piece for block in _blocks(text) for piece in _split_long(block)]
    return [
        Chunk(chunk_id=f"{path.stem}#{n}", doc_id=path.stem, title=title, position=n, text=piece)
        for n, piece in enumerate(pieces)
    ]


def load_corpus(dataset_dir: Path) -> list[Chunk]:
    docs_dir = dataset_dir / "docs"
    if not docs_dir.is_dir():
        raise InputError(str(docs_dir), "docs", "dataset has no docs/ folder")
    paths = sorted(p for p in docs_dir.iterdir() if p.suffix.lower() in DOC_SUFFIXES)
    if not paths:
        raise InputError(str(docs_dir), "docs", f"no documents ({', '.join(DOC_SUFFIXES)})")
    stems = [p.stem for p in paths]
    duplicates = sorted({s for s in stems if stems.count(s) > 1})
    if duplicates:
        raise InputError(str(docs_dir), "docs", f"documents share a name, chunk ids would clash: {duplicates}")
    return [chunk for path in paths for chunk in chunk_document(path)]
