"""What `ragpipe run` and `ragpipe eval` share: their options (re-asking, forcing, the release
gate and its files), the exit, and the command that opens the Dagster UI on the same runs."""

from __future__ import annotations

import argparse
import os
import re
import shlex
import sys
import textwrap
from pathlib import Path

from ragpipe.cli.summary import WIDTH, Version, gate_lines, verdict_line, write_ci_files
from ragpipe.core.gate import DEFAULT_FAIL_ON, parse_fail_on
from ragpipe.core.secrets import carries_credential

REASK_HELP = ("ask HTTP bots every question again, in a new answer round, instead of re-scoring the answers "
              "they gave before (earlier rounds are kept; the report shows what changed)")
FORCE_HELP = ("run everything again, also what is fresh (by default a run whose inputs, the dataset's files and the "
              "bot config, have not changed since its last run is not repeated)")
# Settings a code location reads when it loads the definitions or runs a step; the UI
# command carries those set now, so the UI opens the instance and outputs the runs used.
CARRIED = ("RAGPIPE_", "DAGSTER_PG_")
SECRET = re.compile(r"KEY|PASSWORD|TOKEN|SECRET|^RAGPIPE_BOT_")  # named, never printed: the shell fills it in


def add_run_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--project-dir", default=".", help="folder holding data/ and dagster.yaml (default: .)")
    parser.add_argument("--reask", action="store_true", help=REASK_HELP)
    parser.add_argument("--force", action="store_true", help=FORCE_HELP)
    parser.add_argument("--fail-on", type=_fail_on, default=DEFAULT_FAIL_ON, metavar="critical,warning,regression",
                        help="checks that fail the command (exit 3): a critical or any (warning) threshold crossed, "
                             "a significant drop against the baseline (default: regression,critical)")
    parser.add_argument("--junit-xml", metavar="FILE", help="write the checks as JUnit XML (one case per check)")
    parser.add_argument("--summary-md", metavar="FILE", help="write the summary and the gate's verdict as Markdown")


def _fail_on(text: str) -> tuple[str, ...]:
    try:
        return parse_fail_on(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def ui_command(home: Path, project_dir: Path) -> str:
    """The shell line that opens the Dagster UI on this project's runs: DAGSTER_HOME, the
    project folder and every RAGPIPE_* and DAGSTER_PG_* variable set now. A secret, or a URL
    holding one (RAGPIPE_CACHE_URL's password), is passed on by name ("$DAGSTER_PG_PASSWORD"),
    never written out."""
    env = {"DAGSTER_HOME": str(home), "RAGPIPE_PROJECT_DIR": str(project_dir)}
    env |= {k: v for k, v in sorted(os.environ.items()) if k.startswith(CARRIED) and k not in env}
    words = [f'{k}="${k}"' if SECRET.search(k) or carries_credential(v) else f"{k}={shlex.quote(v)}"
             for k, v in env.items()]
    dagster = Path(sys.executable).parent / "dagster"
    words += [shlex.quote(str(dagster)), "dev", "-w", shlex.quote(str(project_dir / "workspace.yaml"))]
    lines = [""]
    for word in words:  # continued lines of at most WIDTH columns, so a copy pastes as one command
        if lines[-1] and len(lines[-1]) + len(word) + 3 > WIDTH - 4:
            lines.append("")
        lines[-1] += (" " if lines[-1] else "") + word
    return " \\\n    ".join(lines)


def finish(outcomes, versions: list[Version], args: argparse.Namespace) -> int:
    """Report the runs that failed and the checks that block, write the CI files, and
    return the exit code (``versions``: the evaluations the gate judges): 1 when a run failed for another reason than a blocking check, 3
    when a check named by --fail-on failed, else 0."""
    from ragpipe.defs.runner import EXIT_BLOCKED, EXIT_FAILED

    write_ci_files(versions, args.fail_on, args.junit_xml, args.summary_md)
    blocked = gate_lines(versions, args.fail_on)
    print(f"\nRelease gate (fails on {', '.join(args.fail_on)}): {'FAILED' if blocked else 'passed'}")
    for version in versions:  # each evaluation's verdict, as the exit code reads it
        print(textwrap.fill(verdict_line(version, args.fail_on), WIDTH, initial_indent="  ", subsequent_indent="    "))
    if blocked:
        print("\n".join(blocked))
    broken = [o for o in outcomes if not o.success and not o.blocked]
    if broken:
        print(f"\n{len(broken)} run(s) failed; the others completed:", file=sys.stderr)
        for outcome in broken:
            print(textwrap.indent(f"{outcome.job} [{outcome.partition}]: {outcome.error}", "  "), file=sys.stderr)
    return EXIT_FAILED if broken else EXIT_BLOCKED if blocked else 0

