"""YAML written by users (bot configs, dataset.yaml, evaluation settings), read with bounds.

A few hundred bytes of YAML can describe gigabytes: anchors and aliases share nodes, so a
"billion laughs" file loads as a small graph of shared references and expands only when
something walks it (a hash of the config, a JSON dump, a request body). Every file is
therefore measured as it would expand, before any of it is used, and refused with an
error naming it when it is past one of the limits below. safe_load semantics: tags such
as !!python/object are refused, never constructed.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

import yaml

from ragpipe.core.inputs.files import read_bytes
from ragpipe.core.schemas import InputError

# A config is a few dozen lines; these leave ample room for anchors used to share settings.
MAX_BYTES = 256 * 1024
MAX_ALIASES = 100
MAX_DEPTH = 50
MAX_NODES = 100_000  # every scalar, list and mapping, counted as often as aliases repeat it
MAX_CHARS = 1_000_000  # the characters of every scalar, counted likewise


class _TooLarge(Exception):
    pass


class _BoundedLoader(yaml.SafeLoader):
    """SafeLoader that counts aliases and nesting while composing the node graph."""

    def __init__(self, stream):
        super().__init__(stream)
        self.aliases = self.depth = 0

    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            self.aliases += 1
            if self.aliases > MAX_ALIASES:
                raise _TooLarge(f"more than {MAX_ALIASES} aliases (*name)")
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise _TooLarge(f"nested deeper than {MAX_DEPTH} levels")
        try:
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


def _expanded(node: yaml.Node, depth: int, sizes: dict[int, tuple[int, int, int]], open_: set[int]):
    """(nodes, characters, height) of ``node`` with every alias expanded; each shared node
    is measured once, so a bomb is measured in microseconds."""
    if id(node) in sizes:
        nodes, chars, height = sizes[id(node)]
    else:
        if id(node) in open_:
            raise _TooLarge("an alias refers to a node that contains it (a recursive structure)")
        if isinstance(node, yaml.ScalarNode):
            nodes, chars, height = 1, len(node.value), 0
        else:
            open_.add(id(node))
            children = [c for pair in node.value for c in pair] if isinstance(node, yaml.MappingNode) else node.value
            measured = [_expanded(child, depth + 1, sizes, open_) for child in children]
            open_.discard(id(node))
            nodes = 1 + sum(m[0] for m in measured)
            chars = sum(m[1] for m in measured)
            height = 1 + max((m[2] for m in measured), default=0)
        sizes[id(node)] = nodes, chars, height
    if depth + height > MAX_DEPTH:
        raise _TooLarge(f"nested deeper than {MAX_DEPTH} levels once aliases are expanded")
    if nodes > MAX_NODES:
        raise _TooLarge(f"expands to more than {MAX_NODES:,} values (aliases repeating aliases)")
    if chars > MAX_CHARS:
        raise _TooLarge(f"expands to more than {MAX_CHARS:,} characters (aliases repeating aliases)")
    return nodes, chars, height


def read_yaml(path: Path, max_bytes: int = MAX_BYTES, root: Path | None = None):
    """A YAML file's data, or an InputError naming the file (and the line, for a syntax
    error) when it is no regular file inside ``root`` (default: its own folder), no valid
    YAML or past the limits of this module. A file that does not exist raises
    FileNotFoundError, as open() would."""
    if not os.path.lexists(path):
        raise FileNotFoundError(errno.ENOENT, "no such file", str(path))
    raw = read_bytes(path, root or path.parent, max_bytes)
    try:
        loader = _BoundedLoader(raw.decode("utf-8"))
        try:
            node = loader.get_single_node()
            if node is None:
                return None
            _expanded(node, 0, {}, set())
            return loader.construct_document(node)
        finally:
            loader.dispose()
    except _TooLarge as exc:
        raise InputError(str(path), "yaml", f"refused: {exc}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        raise InputError(str(path), "yaml", f"invalid YAML: {getattr(exc, 'problem', exc)}", line) from exc
    except UnicodeDecodeError as exc:
        raise InputError(str(path), "encoding", "not UTF-8 text") from exc
