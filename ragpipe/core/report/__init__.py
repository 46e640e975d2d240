"""The static report site: page data (data.py), inline SVG charts (charts.py), pages
(render.py, templates/) and Markdown summaries for the Dagster UI (summaries.py)."""

from ragpipe.core.report.data import comparison_data, evaluation_data
from ragpipe.core.report.render import build_site, page_url, script_json, write_comparison, write_evaluation

__all__ = ["build_site", "comparison_data", "evaluation_data", "page_url", "script_json", "write_comparison",
           "write_evaluation"]
