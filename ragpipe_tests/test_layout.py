"""The package's layering: the installed package never needs the tests, and the core needs
neither Dagster nor the layers built on it."""

import ast
import subprocess
import sys
import tomllib

from setuptools import find_packages

from ragpipe_tests.conftest import REPO, SAMPLE_FILES, copy_sample


def imported_modules(folder) -> dict[str, set[str]]:
    """Every module a .py file under folder imports, by file."""
    found = {}
    for path in folder.rglob("*.py"):
        names = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                names.add(node.module)
        found[str(path.relative_to(REPO))] = names
    return found


def offenders(folder, banned: tuple[str, ...]) -> dict[str, list[str]]:
    return {path: sorted(n for n in names if n.split(".")[0] in banned or n.startswith(banned))
            for path, names in imported_modules(folder).items()
            if any(n.split(".")[0] in banned or n.startswith(banned) for n in names)}


def test_the_package_never_imports_the_tests():
    assert offenders(REPO / "ragpipe", ("ragpipe_tests",)) == {}


def test_the_core_imports_neither_dagster_nor_the_layers_above_it():
    banned = ("dagster", "ragpipe.defs", "ragpipe.cli", "ragpipe.bench", "ragpipe.testing")
    assert offenders(REPO / "ragpipe" / "core", banned) == {}


def test_the_wheel_holds_the_package_but_not_the_tests():
    find = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]
    packages = find_packages(str(REPO), include=find["include"])
    assert "ragpipe_tests" not in packages
    assert {"ragpipe", "ragpipe.cli", "ragpipe.testing", "ragpipe.core.metrics"} <= set(packages)


def test_python_m_ragpipe_cli_runs_the_command_line():
    done = subprocess.run([sys.executable, "-m", "ragpipe.cli", "metrics"], capture_output=True, text=True,
                          cwd=REPO, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == (REPO / "docs" / "metrics.md").read_text(encoding="utf-8")


def test_the_tests_read_the_sample_as_shipped_not_what_a_team_adds_to_data(tmp_path):
    data = copy_sample(REPO / "data", tmp_path / "live")
    # What the README's workflows add: a bot config, a question file, labels from the page.
    added = ["bots/refbot@v3.yaml", "datasets/product_en/questions/team.jsonl",
             "datasets/product_en/labels/page.jsonl"]
    for name in added:
        (data / name).write_text("{}\n", encoding="utf-8")
    copied = copy_sample(data, tmp_path / "copy")
    assert not [name for name in added if (copied / name).exists()]
    shipped = sorted(str(p.relative_to(REPO / "data")) for pattern in SAMPLE_FILES for p in (REPO / "data").glob(pattern))
    assert sorted(str(p.relative_to(copied)) for p in copied.rglob("*") if p.is_file()) == shipped
