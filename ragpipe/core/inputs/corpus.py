"""Load a dataset's documents and split them into chunks with stable ids.

Chunk id: ``<document stem>#<n>``, n counting from 0 over the document's blocks. A block
is text between blank lines; a block holding only a Markdown heading is joined to the
block after it, so a heading never stands alone. Blocks longer than the chunk limit
(``limits.max_chunk_chars`` of the evaluation settings) are cut at sentence ends, and a
sentence longer than that at the limit, each piece taking the next number. The ids depend
only on the file's text, so ground-truth contexts can name them.

Only regular files inside the dataset folder are read: a document that links elsewhere,
is no regular file or is larger than ``limits.max_file_bytes`` is skipped and reported.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

from ragpipe.core.config import load_config
from ragpipe.core.inputs.files import candidates, read_bytes
from ragpipe.core.schemas import Chunk, InputError, InputErrors
from ragpipe.core.text import split_sentences

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


def _split_long(block: str, most: int) -> list[str]:
    if len(block) <= most:
        return [block]
    pieces, current = [], ""
    for sentence in split_sentences(block):
        # a sentence without an end (a one-line dump, a table row) is cut at the limit
        for start in range(0, len(sentence), most):
            part = sentence[start:start + most]
            if current and len(current) + 1 + len(part) > most:
                pieces.append(current)
                current = ""
            current += part if not current else " " + part
    return pieces + ([current] if current else [])


def _title(stem: str, text: str) -> str:
    first = text.strip().splitlines()[0] if text.strip() else stem
    return first.lstrip("# ").strip() or stem


def chunk_document(path: Path, root: Path | None = None) -> list[Chunk]:
    """The chunks of one document, which must be a regular file inside ``root`` (default:
    its own folder)."""
    limits = load_config().limits
    data = read_bytes(path, root or path.parent, limits.max_file_bytes)
    try:
        raw = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(str(path), "encoding", f"not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    text = _html_to_text(raw) if path.suffix.lower() in (".html", ".htm") else raw
    title = _title(path.stem, text)
    pieces = [piece for block in _blocks(text) for piece in _split_long(block, limits.max_chunk_chars)]
    return [
        Chunk(chunk_id=f"{path.stem}#{n}", doc_id=path.stem, title=title, position=n, text=piece)
        for n, piece in enumerate(pieces)
    ]


def load_corpus(dataset_dir: Path, skipped: list[InputError] | None = None) -> list[Chunk]:
    """The chunks of every document under ``docs/``. A document that is not read (see the
    module docstring) is appended to ``skipped`` with the reason; without that list it is
    an error."""
    docs_dir = dataset_dir / "docs"
    if not docs_dir.is_dir():
        raise InputError(str(docs_dir), "docs", "dataset has no docs/ folder")
    paths = candidates(docs_dir, DOC_SUFFIXES)
    if not paths:
        raise InputError(str(docs_dir), "docs", f"no documents ({', '.join(DOC_SUFFIXES)})")
    stems = [p.stem for p in paths]
    duplicates = sorted({s for s in stems if stems.count(s) > 1})
    if duplicates:
        raise InputError(str(docs_dir), "docs", f"documents share a name, chunk ids would clash: {duplicates}")
    chunks, unread = [], []
    for path in paths:
        try:
            chunks.extend(chunk_document(path, dataset_dir))
        except InputError as exc:
            if skipped is None or exc.field != "file":
                raise
            unread.append(exc)
    if unread and len(unread) == len(paths):
        raise InputErrors(unread)
    if unread:
        skipped.extend(unread)
    return chunks
