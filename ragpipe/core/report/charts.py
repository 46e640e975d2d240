"""Charts as inline SVG strings, drawn here so the pages need no script library and no
network. Every label is escaped; numbers are formatted, never user text."""

from __future__ import annotations

import math
import unicodedata
from html import escape

BLUE, RED, GREEN, GREY, AMBER = "#4f7cff", "#d64545", "#2f9e62", "#9aa3b2", "#e0a000"


def _ok(value) -> bool:
    return value is not None and not (isinstance(value, float) and math.isnan(value))


def _svg(width: float, height: float, body: str, label: str, cls: str) -> str:
    return (f"<svg class='chart {cls}' viewBox='0 0 {width:g} {height:g}' width='{width:g}' height='{height:g}' "
            f"role='img' aria-label='{escape(label)}'>{body}</svg>")


def oriented(value: float, low: float, high: float, higher_is_better: bool) -> float:
    """A value on [0, 1] with 1 best, so metrics of any range and direction share an axis
    (and average: the leaderboard's rank_score); NaN stays NaN."""
    if not _ok(value):
        return math.nan
    scaled = (value - low) / (high - low)
    return max(0.0, min(1.0, scaled if higher_is_better else 1 - scaled))


def text_width(text: str, font_size: float) -> float:
    """A generous estimate of the width a sans-serif font gives ``text``: a wide (CJK)
    character one em, any other 0.65 em (wider than any lower-case Latin letter but m and w)."""
    return sum(font_size * (1.0 if unicodedata.east_asian_width(c) in "WF" else 0.65) for c in text)


def radar(axes: list[dict], size: int = 400, font_size: int = 11) -> str:
    """axes: label, value (oriented, 0-1 with 1 best) and optional warning (oriented).
    The filled polygon is the evaluation; amber ticks mark the warning thresholds. The chart
    is as wide as its labels need, so the longest ("unverified_entity_ratio ↓") is not cut."""
    n = len(axes)
    radius = size / 2 - 40
    offset = lambda i, r: (r * radius * math.sin(2 * math.pi * i / n),  # noqa: E731
                           -r * radius * math.cos(2 * math.pi * i / n))
    labels = []  # (dx, dy, anchor, left edge, right edge) relative to the centre
    for i, axis in enumerate(axes):
        dx, dy = offset(i, 1.16)
        width = text_width(axis["label"], font_size)
        anchor = "middle" if abs(dx) < 8 else ("start" if dx > 0 else "end")
        left = {"middle": dx - width / 2, "start": dx, "end": dx - width}[anchor]
        labels.append((dx, dy, anchor, left, left + width))
    pad = 6
    reach_left = max(size / 2, -min(label[3] for label in labels)) + pad
    reach_right = max(size / 2, max(label[4] for label in labels)) + pad
    cx, cy = reach_left, size / 2
    point = lambda i, r: (cx + offset(i, r)[0], cy + offset(i, r)[1])  # noqa: E731
    parts = []
    for ring in (0.25, 0.5, 0.75, 1.0):
        pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in (point(i, ring) for i in range(n)))
        parts.append(f"<polygon points='{pts}' fill='none' stroke='#dde2ea'/>")
    for i, (axis, (dx, dy, anchor, _, _)) in enumerate(zip(axes, labels)):
        x, y = point(i, 1.0)
        parts.append(f"<line x1='{cx:.1f}' y1='{cy}' x2='{x:.1f}' y2='{y:.1f}' stroke='#dde2ea'/>"
                     f"<text x='{cx + dx:.1f}' y='{cy + dy:.1f}' text-anchor='{anchor}' dominant-baseline='middle' "
                     f"font-size='{font_size}'>{escape(axis['label'])}</text>")
    for i, axis in enumerate(axes):
        if _ok(axis.get("warning")):
            x, y = point(i, axis["warning"])
            parts.append(f"<circle class='threshold' cx='{x:.1f}' cy='{y:.1f}' r='4' fill='none' stroke='{AMBER}' "
                         f"stroke-width='2'><title>{escape(axis['label'])}: warning threshold</title></circle>")
    pts = [point(i, a["value"]) for i, a in enumerate(axes)]
    parts.append(f"<polygon class='series' points='{' '.join(f'{x:.1f},{y:.1f}' for x, y in pts)}' "
                 f"fill='{BLUE}' fill-opacity='.25' stroke='{BLUE}' stroke-width='2'/>")
    for (x, y), axis in zip(pts, axes):
        parts.append(f"<circle cx='{x:.1f}' cy='{y:.1f}' r='3.5' fill='{BLUE}'>"
                     f"<title>{escape(axis['label'])}: {escape(axis['text'])}</title></circle>")
    return _svg(math.ceil(reach_left + reach_right), size, "".join(parts), "radar chart of the metrics", "radar")


def bin_counts(values, low: float, high: float, bins: int = 10) -> list[int]:
    """How many of the measured values fall in each of ``bins`` equal bins over [low, high]."""
    counts = [0] * bins
    for v in values:
        if _ok(v):
            counts[min(bins - 1, max(0, int((v - low) / (high - low) * bins)))] += 1
    return counts


def histogram(counts: list[int], low: float, high: float, metric: str, width: int = 220, height: int = 90) -> str:
    """Bars of ``bin_counts``; each bar carries its bin so a click can filter the cards."""
    bins = len(counts)
    top = max(counts) or 1
    bar_w = (width - 10) / bins
    parts = [f"<line x1='5' y1='{height - 16}' x2='{width - 5}' y2='{height - 16}' stroke='#aab'/>"]
    for i, count in enumerate(counts):
        lo, hi = low + (high - low) * i / bins, low + (high - low) * (i + 1) / bins
        h = (height - 26) * count / top
        parts.append(f"<rect class='bin' data-metric='{escape(metric)}' data-lo='{lo:g}' data-hi='{hi:g}' "
                     f"x='{5 + i * bar_w + 1:.1f}' y='{height - 16 - h:.1f}' width='{bar_w - 2:.1f}' "
                     f"height='{max(h, 0.5):.1f}' fill='{BLUE}'><title>{lo:g}–{hi:g}: {count}</title></rect>")
    parts.append(f"<text x='5' y='{height - 3}' font-size='10'>{low:g}</text>"
                 f"<text x='{width - 5}' y='{height - 3}' font-size='10' text-anchor='end'>{high:g}</text>")
    return _svg(width, height, "".join(parts), f"distribution of {metric}", "histogram")


def ci_bar(mean, ci_low, ci_high, low: float, high: float, width: int = 120) -> str:
    """The mean as a bar and its CI95 as a whisker on the metric's range."""
    if not _ok(mean):
        return ""
    x = lambda v: 4 + max(0.0, min(1.0, (v - low) / (high - low))) * width  # noqa: E731
    body = f"<rect x='4' y='5' width='{x(mean) - 4:.1f}' height='10' rx='2' fill='{BLUE}'/>"
    if _ok(ci_low) and _ok(ci_high):
        body += (f"<line x1='{x(ci_low):.1f}' x2='{x(ci_high):.1f}' y1='10' y2='10' stroke='#222' stroke-width='2'/>"
                 f"<line x1='{x(ci_low):.1f}' x2='{x(ci_low):.1f}' y1='6' y2='14' stroke='#222'/>"
                 f"<line x1='{x(ci_high):.1f}' x2='{x(ci_high):.1f}' y1='6' y2='14' stroke='#222'/>")
    return _svg(width + 8, 20, body, f"mean {mean:.3f}", "cibar")


def trend(labels: list[str], points: list[tuple], low: float, high: float, title: str,
          width: int = 300, height: int = 150) -> str:
    """A metric's mean across bot versions (in version order) with CI95 whiskers."""
    left, right, top, bottom = 60, 40, 22, 30
    n = len(labels)
    x = lambda i: left + (width - left - right) * (i / (n - 1) if n > 1 else 0.5)  # noqa: E731
    y = lambda v: top + (height - top - bottom) * (1 - (v - low) / (high - low))  # noqa: E731
    parts = [f"<text x='4' y='13' font-size='12' font-weight='600'>{escape(title)}</text>"]
    for tick in (low, (low + high) / 2, high):
        parts.append(f"<line x1='{left}' x2='{width - right}' y1='{y(tick):.1f}' y2='{y(tick):.1f}' stroke='#eef0f4'/>"
                     f"<text x='{left - 4}' y='{y(tick) + 3:.1f}' font-size='9' text-anchor='end'>{tick:g}</text>")
    line = [(x(i), y(p[0])) for i, p in enumerate(points) if _ok(p[0])]
    if len(line) > 1:
        parts.append(f"<polyline class='series' points='{' '.join(f'{a:.1f},{b:.1f}' for a, b in line)}' "
                     f"fill='none' stroke='{BLUE}' stroke-width='2'/>")
    for i, (mean, ci_low, ci_high) in enumerate(points):
        parts.append(f"<text x='{x(i):.1f}' y='{height - 10}' font-size='10' text-anchor='middle'>{escape(labels[i])}</text>")
        if not _ok(mean):
            continue
        if _ok(ci_low) and _ok(ci_high):
            parts.append(f"<line x1='{x(i):.1f}' x2='{x(i):.1f}' y1='{y(ci_low):.1f}' y2='{y(ci_high):.1f}' stroke='#333'/>")
        parts.append(f"<circle cx='{x(i):.1f}' cy='{y(mean):.1f}' r='3.5' fill='{BLUE}'>"
                     f"<title>{escape(labels[i])}: {mean:.3f}</title></circle>")
    return _svg(width, height, "".join(parts), f"{title} across versions", "trend")


def forest(rows: list[dict], width: int = 520) -> str:
    """Paired differences from the baseline with CI95, one row per metric: green when the
    whole interval is on the better side of zero, red when on the worse side."""
    row_h, left, right = 22, 170, 60
    height = row_h * len(rows) + 24
    span = max([abs(v) for r in rows for v in (r["low"], r["high"]) if _ok(v)] + [0.05]) * 1.1
    x = lambda v: left + (width - left - right) * (v + span) / (2 * span)  # noqa: E731
    parts = [f"<line x1='{x(0):.1f}' x2='{x(0):.1f}' y1='4' y2='{height - 18}' stroke='#888' stroke-dasharray='3 3'/>",
             f"<text x='{x(-span):.1f}' y='{height - 4}' font-size='9'>{-span:+.2f}</text>",
             f"<text x='{x(0):.1f}' y='{height - 4}' font-size='9' text-anchor='middle'>0</text>",
             f"<text x='{x(span):.1f}' y='{height - 4}' font-size='9' text-anchor='end'>{span:+.2f}</text>"]
    for i, r in enumerate(rows):
        cy = 14 + i * row_h
        better = r["low"] > 0 if r["higher_is_better"] else r["high"] < 0
        worse = r["high"] < 0 if r["higher_is_better"] else r["low"] > 0
        color = GREEN if better else RED if worse else GREY
        parts.append(f"<text x='{left - 8}' y='{cy + 4}' font-size='11' text-anchor='end'>{escape(r['label'])}</text>"
                     f"<line x1='{x(r['low']):.1f}' x2='{x(r['high']):.1f}' y1='{cy}' y2='{cy}' stroke='{color}' "
                     f"stroke-width='3'/><circle cx='{x(r['diff']):.1f}' cy='{cy}' r='4' fill='{color}'>"
                     f"<title>{escape(r['label'])}: {r['diff']:+.3f} [{r['low']:+.3f}, {r['high']:+.3f}]</title></circle>"
                     f"<text x='{width - right + 6}' y='{cy + 4}' font-size='10'>{r['diff']:+.3f}</text>")
    return _svg(width, height, "".join(parts), "paired differences from the baseline", "forest")
