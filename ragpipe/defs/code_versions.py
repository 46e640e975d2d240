"""Each asset's code version (Dagster's ``code_version``): a hash of the core's files its
values can come from, so that a change marks stale only the assets it touches.

A family's files are the modules its assets call (FAMILIES) and everything they import
within the core, read from the source, so a new import joins its module to the family with
no list of files to keep up. Importing a module runs its packages' ``__init__``: those
count too. A data file (weights, rules, templates, page labels) counts with the modules
that name it, and with its package when none does. So editing a chart changes the
reports' version only and editing a bot client the responses' only: the score cache and
the sensor's evaluation hash key on the scores' version, so neither re-scores anything
(docs/layers.md, docs/automation.md)."""

from __future__ import annotations

import hashlib
import importlib.util
import re
from functools import cache
from pathlib import Path

import ragpipe.core

# Per family, the core modules (below ragpipe.core) its assets call to compute their values.
# What they only show in Dagster's metadata (Markdown summaries, page links) is left out.
FAMILIES = {
    "corpus": ("inputs.corpus",),  # corpus: documents read and chunked
    "graph": ("inputs.graph", "evidence.entities"),  # graph_entities
    "questions": ("inputs.generation", "inputs.questions", "inputs.recorded", "inputs.evaluations"),
    "responses": ("inputs.bots",),  # rag_responses: the bot kinds, recorded answers, the answer cache
    # scores/<metric>: the metrics, the judge the step builds, the calibration applied to the values
    "scores": ("metrics", "judged", "labels.calibration"),
    # human_labels, aggregate_scores, diagnosis_report, leaderboard
    "reports": ("verdict", "diagnosis.rules", "labels.agreement", "labels.calibration", "labels.reading",
                "labels.views", "report", "report.summaries"),
}
SOURCE_SUFFIXES = frozenset({".py", ".json", ".yaml", ".j2", ".js", ".css", ".html"})


def files_hash(core: Path, files: list[Path]) -> str:
    digest = hashlib.sha256()
    for path in files:
        digest.update(str(path.relative_to(core)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


# An import statement at the start of a line, indented too (in a function): ``import a.b as c, d``,
# ``from .m import (x, y)``, ``from m import *``. The tests check the files found against grimp's import graph.
IMPORT = re.compile(r"^[ \t]*(?:import[ \t]+([\w., \t]+)|from[ \t]+([.\w]+)[ \t]+import[ \t]+(\([^)]*\)|[\w*, \t]+))",
                    re.MULTILINE)


def imported_names(source: str, package: str) -> set[str]:
    """The names the module's import statements name, made absolute; for ``from m import n``
    also ``m.n`` (n may be a submodule)."""
    names = set()
    for plain, base, members in IMPORT.findall(source):
        if base:
            base = importlib.util.resolve_name(base, package)
            names.update([base, *(f"{base}.{m.split()[0]}" for m in members.strip("()").split(",") if m.split())])
        else:
            names.update(m.split()[0] for m in plain.split(",") if m.split())
    return names


def family_files(core: Path | None = None) -> dict[str, list[Path]]:
    """Per family, its files in the core (the installed one unless named)."""
    core = core or Path(ragpipe.core.__file__).parent
    files = sorted(p for p in core.rglob("*")
                   if p.suffix in SOURCE_SUFFIXES and p.is_file() and "__pycache__" not in p.parts)
    modules, packages = {}, {}  # module name: its file; package folder: its name
    for path in (p for p in files if p.suffix == ".py"):
        parts = path.relative_to(core).with_suffix("").parts
        name = ".".join(("ragpipe.core", *(parts[:-1] if parts[-1] == "__init__" else parts)))
        modules[name] = path
        if path.name == "__init__.py":
            packages[path.parent] = name
    data = [p for p in files if p.suffix != ".py"]
    # A data file is named by its file name or by a folder it is in below its package (as
    # render.py names "templates"), in quotes.
    data_names = {p: {p.name, *p.relative_to(next(d for d in p.parents if d in packages)).parts[:-1]} for p in data}
    needs = {}  # module: the modules importing it runs, and the data files it names
    for name, path in modules.items():
        source = path.read_text(encoding="utf-8")
        imports = imported_names(source, name if path.name == "__init__.py" else name.rpartition(".")[0])
        parents = {name.rsplit(".", n)[0] for n in range(1, name.count("."))}  # their __init__ runs first
        needs[name] = ({n for n in imports | parents if n in modules},
                       {p for p in data if any(f"{q}{n}{q}" in source for n in data_names[p] for q in "'\"")})
    for path in data:  # one no module names counts with its package
        if not any(path in named for _, named in needs.values()):
            needs[packages[next(d for d in path.parents if d in packages)]][1].add(path)
    families = {}
    for family, entries in FAMILIES.items():
        reached, todo = set(), [f"ragpipe.core.{entry}" for entry in entries]
        while todo:
            name = todo.pop()
            if name not in reached:
                reached.add(name)
                todo += needs[name][0]  # a KeyError here: an entry of FAMILIES that is no module
        families[family] = sorted({modules[name] for name in reached} | {p for name in reached for p in needs[name][1]})
    return families


def code_versions(core: Path | None = None) -> dict[str, str]:
    """Per family, the hash of its files in the core (the installed one unless named)."""
    core = core or Path(ragpipe.core.__file__).parent
    return {family: files_hash(core, files) for family, files in family_files(core).items()}


@cache
def installed_versions() -> dict[str, str]:
    """This installation's versions, read once a process (six families, one reading)."""
    return code_versions()


def code_version(family: str) -> str:
    """This installation's version of ``family`` (a key of FAMILIES)."""
    return installed_versions()[family]
