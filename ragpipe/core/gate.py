"""The release gate: which checks of an evaluation block a release, said with the numbers,
and the same verdict as a JUnit XML file and a Markdown summary for a CI job. An
evaluation is the report data of one bot version on one dataset (diagnosis.json)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

FAIL_ON = ("critical", "warning", "regression")
DEFAULT_FAIL_ON = ("regression", "critical")
REGRESSION_CHECK = "no_regression_vs_baseline"


def parse_fail_on(text: str) -> tuple[str, ...]:
    """'critical,regression' -> ('critical', 'regression'); an unknown name is an error."""
    names = tuple(n.strip() for n in text.split(",") if n.strip())
    unknown = [n for n in names if n not in FAIL_ON]
    if unknown or not names:
        raise ValueError(f"--fail-on {text!r}: expected a comma-separated list of {', '.join(FAIL_ON)}")
    return names


def blocks(check: dict, fail_on: tuple[str, ...]) -> bool:
    if check["passed"]:
        return False
    if check["name"] == REGRESSION_CHECK:
        return "regression" in fail_on
    return "warning" in fail_on or (check["severity"] == "critical" and "critical" in fail_on)


def explain(check: dict, evaluation: dict) -> str:
    """What failed and by how much, in one line."""
    if check["name"] == REGRESSION_CHECK:
        drops = [f"{m} {d['mean_diff']:+.3f} (CI95 [{d['ci95_low']:+.3f}, {d['ci95_high']:+.3f}])"
                 for m, d in evaluation["comparison"].items() if m in check["drops"]]
        return f"significantly worse than {check['baseline']}: {', '.join(drops)}"
    if check.get("unmeasured"):
        return f"{check['metric']} unmeasured: no question gave it a value"
    higher = next(a["higher_is_better"] for a in evaluation["aggregates"] if a["metric"] == check["metric"])
    side = "below" if higher else "above"
    return (f"{check['metric']} {check['mean']:.3f} is {side} its {check['severity']} threshold "
            f"{check['threshold']:.3f} by {abs(check['mean'] - check['threshold']):.3f}")


def failures(evaluation: dict, fail_on: tuple[str, ...]) -> list[tuple[str, str]]:
    """(check name, explanation) of every blocking check that failed."""
    return [(c["name"], explain(c, evaluation)) for c in evaluation["checks"] if blocks(c, fail_on)]


def junit_xml(evaluations: list[dict], fail_on: tuple[str, ...]) -> str:
    """One test suite per evaluation, one test case per check; a blocking failure is a
    <failure>, a failed check that does not block is a passing case that says so."""
    root = ET.Element("testsuites", name="ragpipe")
    for evaluation in evaluations:
        blocked = dict(failures(evaluation, fail_on))
        suite = ET.SubElement(root, "testsuite", name=f"{evaluation['dataset']}/{evaluation['bot_version']}",
                              tests=str(len(evaluation["checks"])), failures=str(len(blocked)))
        for check in evaluation["checks"]:
            case = ET.SubElement(suite, "testcase", classname=f"{evaluation['dataset']}.{evaluation['bot_version']}",
                                 name=check["name"])
            if check["name"] in blocked:
                ET.SubElement(case, "failure", message=blocked[check["name"]], type=check["severity"] or "failed")
            elif not check["passed"]:
                ET.SubElement(case, "system-out").text = f"not blocking: {explain(check, evaluation)}"
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"
