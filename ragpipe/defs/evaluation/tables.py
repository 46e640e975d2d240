"""Metadata tables for the Dagster UI (MetadataValue.table): the UI shows and sorts them,
so scores are rounded to what a reader compares, not float noise."""

import math

import dagster as dg
import pandas as pd

DIGITS = 3


def rounded(value):
    """A score for a table: rounded, NaN as None (an empty cell)."""
    if isinstance(value, float):
        return None if math.isnan(value) else round(value, DIGITS)
    return value


def scores_table(rows: list[dict]) -> dg.TableMetadataValue:
    """The aggregates: per metric mean, CI95, n, unmeasured, pass rate, and with human labels the
    prediction-powered mean and CI95."""
    return dg.MetadataValue.table(
        [dg.TableRecord({k: rounded(v) for k, v in r.items()}) for r in rows],
        schema=dg.TableSchema(columns=[dg.TableColumn("metric", "string"), dg.TableColumn("higher_is_better", "bool"),
                                       *(dg.TableColumn(c, "float") for c in ("mean", "ci95_low", "ci95_high")),
                                       dg.TableColumn("n", "int"), dg.TableColumn("n_unmeasured", "int"),
                                       dg.TableColumn("pass_rate", "float"),
                                       *(dg.TableColumn(c, "float") for c in ("ppi_mean", "ppi_ci95_low", "ppi_ci95_high")),
                                       dg.TableColumn("n_labels", "int")]))


def findings_table(findings) -> dg.TableMetadataValue:
    """The rule engine's findings: metric, severity, mean and the threshold it crossed."""
    return dg.MetadataValue.table(
        [dg.TableRecord({"metric": f.metric, "severity": f.severity, "mean": rounded(f.mean_score),
                         "threshold": f.threshold}) for f in findings],
        schema=dg.TableSchema(columns=[dg.TableColumn("metric", "string"), dg.TableColumn("severity", "string"),
                                       dg.TableColumn("mean", "float"), dg.TableColumn("threshold", "float")]))


def leaderboard_table(shown: pd.DataFrame) -> dg.TableMetadataValue:
    """The leaderboard as shown, scores rounded; the CI95 columns stay in its Markdown."""
    text = {"rank": "int", "bot_version": "string", "baseline": "string", "failed_checks": "string",
            "significant_drops": "string"}
    return dg.MetadataValue.table(
        [dg.TableRecord({c: v if c in text else rounded(v) for c, v in r.items()}) for r in shown.to_dict("records")],
        schema=dg.TableSchema(columns=[dg.TableColumn(c, text.get(c, "float")) for c in shown.columns]))
