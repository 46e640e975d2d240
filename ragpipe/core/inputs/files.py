"""Reading the files a user puts in data/ without trusting them: only regular files whose
real path lies inside their folder (the dataset folder, data/bots/) are read or hashed (a
symlink to /etc/passwd, /dev/zero or a FIFO is refused, never opened for reading), at most
a given number of bytes, checked before reading, and text is decoded without guessing
wrong on UTF-16. docs/inputs.md lists the callers' caps."""

from __future__ import annotations

import hashlib
import json
import os
import stat
import unicodedata
from pathlib import Path

from ragpipe.core.schemas import InputError


def candidates(folder: Path, suffixes: tuple[str, ...]) -> list[Path]:
    """The entries of ``folder`` whose names end in one of ``suffixes``, sorted, leaving out
    editor litter: Office lock files (``~$questions.xlsx``, there while a workbook is open)
    and hidden files (``._questions.csv`` from macOS)."""
    return sorted(p for p in folder.iterdir()
                  if p.suffix.lower() in suffixes and not p.name.startswith(("~$", ".")))


def open_regular(path: Path, root: Path, max_bytes: int) -> int:
    """A descriptor open for reading on ``path``, an InputError (field ``file``) saying why
    when it is not a regular file inside ``root`` or is larger than ``max_bytes``. Nothing
    is read; the size is the open file's, so a link cannot swap it after the check."""
    try:
        real = os.path.realpath(path, strict=True)
    except OSError as exc:  # a dangling link, a link loop, a permission problem
        raise InputError(str(path), "file", f"cannot be resolved: {exc.strerror or exc}") from exc
    inside = os.path.realpath(root)
    if os.path.commonpath([real, inside]) != inside:
        raise InputError(str(path), "file", f"links to {real}, outside its folder {inside}: not read")
    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer; the type is checked on the open file
        fd = os.open(real, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as exc:
        raise InputError(str(path), "file", f"cannot be opened: {exc.strerror or exc}") from exc
    info = os.fstat(fd)
    problem = None
    if not stat.S_ISREG(info.st_mode):
        kind = ("a directory" if stat.S_ISDIR(info.st_mode) else "a FIFO" if stat.S_ISFIFO(info.st_mode)
                else "a device or socket")
        problem = f"is {kind}, not a regular file: not read"
    elif info.st_size > max_bytes:
        problem = f"larger than {max_bytes:,} bytes ({info.st_size:,}): not read"
    if problem:
        os.close(fd)
        raise InputError(str(path), "file", problem)
    return fd


def read_bytes(path: Path, root: Path, max_bytes: int) -> bytes:
    """The bytes of ``path``, which must be a regular file inside ``root`` of at most
    ``max_bytes`` (see open_regular)."""
    with os.fdopen(open_regular(path, root, max_bytes), "rb") as handle:
        data = handle.read(max_bytes + 1)  # the file may grow after the check
    if len(data) > max_bytes:
        raise InputError(str(path), "file", f"larger than {max_bytes:,} bytes: not read")
    return data


HASH_CHUNK = 1 << 20


def hash_file(digest: "hashlib._Hash", path: Path, root: Path, max_bytes: int) -> None:
    """Feeds ``digest`` what changes when ``path`` does, without trusting it: the content of
    a regular file inside ``root`` of at most ``max_bytes``, read in chunks; for any other
    (a FIFO, a device, a link out of ``root``, a file too large) the reason it is not read,
    its size and its time, never its content. So a hash of inputs never blocks or fills
    memory, and the run it triggers reports the file."""
    try:
        with os.fdopen(open_regular(path, root, max_bytes), "rb") as handle:
            for _ in range(max_bytes // HASH_CHUNK + 1):  # the file may grow after the check
                if not (chunk := handle.read(HASH_CHUNK)):
                    break
                digest.update(chunk)
    except InputError as exc:
        try:
            info = os.lstat(path)
            seen = f"{info.st_size}:{info.st_mtime_ns}"
        except OSError:
            seen = "gone"
        digest.update(f"\0not read\0{exc.problem}\0{seen}".encode())


def decode(path: Path, raw: bytes, encodings: tuple[str, ...] = ("utf-8-sig", "gb18030")) -> str:
    """Text from ``raw``: UTF-16 (with or without a byte-order mark) is recognised by its
    byte-order mark or the pattern of its NUL bytes, which no text in the other encodings
    holds, or, with few NULs, by decoding to lines; then the first of ``encodings`` that
    fits and holds no NUL."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        encodings = ("utf-16",)
    elif b"\x00" in raw:
        # ASCII characters in UTF-16 have a NUL byte after them (little-endian) or before them;
        # a stray NUL in UTF-8 text is no such pattern, and that text is refused below
        even, odd = raw[0::2].count(0), raw[1::2].count(0)
        if max(even, odd) >= max(4, len(raw) / 40) and max(even, odd) >= 3 * min(even, odd):
            encodings = ("utf-16-le",) if odd > even else ("utf-16-be",)
        else:  # Chinese text has few ASCII characters, so few NULs: UTF-16 if it decodes to lines
            encodings = tuple(e for e in ("utf-16-le", "utf-16-be") if _utf16_lines(raw, e)) or encodings
    for encoding in encodings:
        try:
            text = raw.decode(encoding)
        except UnicodeDecodeError:
            continue
        if "\x00" not in text:
            return text
    raise InputError(str(path), "encoding", f"not {' or '.join(e.removesuffix('-sig').upper() for e in encodings)} text"
                     + (" (it holds NUL bytes: binary data?)" if b"\x00" in raw else ""))


# Control, private-use and unassigned characters: what bytes of another encoding, paired
# as UTF-16, turn into (a tenth of the code points are private use).
ODD_CHARACTERS = {"Cc", "Co", "Cn"}


def _utf16_lines(raw: bytes, encoding: str) -> bool:
    """``raw`` decodes to text with a line break and no control (but tab and line breaks),
    private-use or unassigned character."""
    try:
        text = raw.decode(encoding)
    except UnicodeDecodeError:
        return False
    return "\n" in text and not any(unicodedata.category(c) in ODD_CHARACTERS and c not in "\t\r\n" for c in text)


def json_lines(path: Path, text: str) -> list[tuple[int, object]]:
    """(line number, value) of each non-blank line. Lines end at \\n only: U+2028, U+0085
    or a form feed inside a JSON string is text, not a line break."""
    records = []
    for n, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        records.append((n, json_value(path, line, n)))
    return records


def json_value(path: Path, text: str, line: int | None = None) -> object:
    """The JSON value of ``text``; an InputError naming the file and line when it is none."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(str(path), "json", f"invalid JSON: {exc.msg}", line if line is not None else exc.lineno) from exc
    except RecursionError as exc:  # the decoder recurses once per nesting level
        raise InputError(str(path), "json", "nested too deeply", line) from exc
