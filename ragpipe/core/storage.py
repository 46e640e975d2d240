"""Shared state by URL: a local folder or any fsspec URL (s3://, gs://, memory://…) through
universal-pathlib, and writes that a reader never sees half done."""

from __future__ import annotations

import os
import uuid
from pathlib import Path

from upath import UPath

LOCAL_PROTOCOLS = ("", "file", "local")


def location(url: str | os.PathLike) -> UPath:
    """A path of any fsspec filesystem; a plain path is a local one."""
    return UPath(url)


def local_path(path: UPath | Path) -> Path | None:
    """The local file behind ``path``, or None on a remote filesystem."""
    if not isinstance(path, UPath):
        return Path(path)
    return Path(path.path) if path.protocol in LOCAL_PROTOCOLS else None


def atomic_write(path: UPath | Path, data: bytes) -> None:
    """Writes ``data`` whole or not at all. Locally under a temporary name of its own (two
    writers never share one) and then renamed over the target, which is atomic; on an object
    store in one put, since an object becomes visible only once it is complete."""
    local = local_path(path)
    if local is None:
        path.fs.pipe_file(path.path, data)
        return
    local.parent.mkdir(parents=True, exist_ok=True)
    tmp = local.with_name(f".{local.name}.{uuid.uuid4().hex}.tmp")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, local)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
