"""The package's layering, as the import-linter contracts of pyproject.toml state it: the
installed package never needs the tests, the core needs neither Dagster nor the layers built
on it, and the core's packages stand in the order of the flow (text -> evidence -> scores ->
verdict -> reports), no arrow from a lower layer to a higher one."""

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

from setuptools import find_packages

from ragpipe_tests.conftest import REPO, SAMPLE_FILES, copy_sample

LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def lint_imports(root: Path) -> subprocess.CompletedProcess:
    """import-linter over the checkout at root, with its pyproject.toml's contracts."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run([str(LINT_IMPORTS), "--no-cache", "--config", str(root / "pyproject.toml")],
                          capture_output=True, text=True, cwd=root, env=env, timeout=120)


def test_the_import_contracts_hold():
    done = lint_imports(REPO)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def test_the_contracts_catch_an_arrow_up_the_flow(tmp_path):
    """A metric that imports the report layer breaks the layers contract, naming the import."""
    for part in ("ragpipe", "ragpipe_tests"):
        shutil.copytree(REPO / part, tmp_path / part, ignore=shutil.ignore_patterns("__pycache__", "data"))
    shutil.copy(REPO / "pyproject.toml", tmp_path)
    base = tmp_path / "ragpipe" / "core" / "metrics" / "base.py"
    base.write_text(base.read_text(encoding="utf-8") + "\nfrom ragpipe.core.report import data  # noqa\n",
                    encoding="utf-8")
    done = lint_imports(tmp_path)
    assert done.returncode != 0
    assert "ragpipe.core.metrics.base -> ragpipe.core.report.data" in done.stdout


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
