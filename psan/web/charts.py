"""Server-side SVG charts: the geometry of small line and bar charts, drawn by ``templates/_charts.html``.

Why server-side: the CSP forbids third-party scripts and inline code, and a dashboard chart is a
handful of shapes; computing them here keeps the page script-free and every label is escaped by
Jinja (no markup is built from strings).  Each chart is shown beside a table of the same numbers.
"""
from __future__ import annotations

from dataclasses import dataclass, field

WIDTH = 420
HEIGHT = 220
#: room for the axis labels (left, bottom) and a little air (top, right)
LEFT, BOTTOM, TOP, RIGHT = 44, 28, 12, 12


@dataclass(frozen=True, slots=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    series: int
    label: str
    value: int


@dataclass(frozen=True, slots=True)
class Tick:
    x: float
    y: float
    text: str


@dataclass(slots=True)
class Chart:
    """What the template draws: bars or a polyline per series, axis ticks, the series' names."""

    title: str
    width: int = WIDTH
    height: int = HEIGHT
    bars: list[Bar] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    points: list[list[tuple[float, float, str]]] = field(default_factory=list)
    x_ticks: list[Tick] = field(default_factory=list)
    y_ticks: list[Tick] = field(default_factory=list)
    series: list[str] = field(default_factory=list)
    empty: bool = False


def _nice_max(value: float) -> int:
    """The axis maximum: four equal integer steps, each 1, 2 or 5 × a power of ten, covering ``value``."""
    step = max(1.0, value / 4)
    magnitude = 10 ** (len(str(int(step))) - 1)
    for nice in (1, 2, 5, 10):
        if step <= nice * magnitude:
            return 4 * nice * magnitude
    return 40 * magnitude  # pragma: no cover - the loop always returns


def _y_ticks(top: int, plot_h: float) -> list[Tick]:
    return [Tick(LEFT - 6, TOP + plot_h - plot_h * i / 4, f"{top * i // 4}") for i in range(5)]


def bar_chart(title: str, labels: list[str], series: list[str], values: list[list[int]]) -> Chart:
    """Grouped vertical bars: ``values[s][i]`` is series ``s`` at category ``labels[i]``."""
    chart = Chart(title, series=series)
    top = _nice_max(max((v for row in values for v in row), default=0))
    chart.empty = not labels or all(v == 0 for row in values for v in row)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    chart.y_ticks = _y_ticks(top, plot_h)
    group = plot_w / max(1, len(labels))
    bar_w = group * 0.8 / max(1, len(series))
    for i, label in enumerate(labels):
        x0 = LEFT + group * i + group * 0.1
        chart.x_ticks.append(Tick(LEFT + group * (i + 0.5), HEIGHT - BOTTOM + 16, label))
        for s, row in enumerate(values):
            h = plot_h * row[i] / top
            chart.bars.append(Bar(round(x0 + bar_w * s, 1), round(TOP + plot_h - h, 1), round(bar_w, 1),
                                  round(h, 1), s, label, row[i]))
    return chart


def line_chart(title: str, labels: list[str], series: list[str], values: list[list[int]]) -> Chart:
    """Lines over ``labels`` (days): ``values[s][i]`` is series ``s`` at ``labels[i]``; at most 6 x labels."""
    chart = Chart(title, series=series)
    top = _nice_max(max((v for row in values for v in row), default=0))
    chart.empty = not labels
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    chart.y_ticks = _y_ticks(top, plot_h)
    n = len(labels)
    step = plot_w / max(1, n - 1)
    every = max(1, -(-n // 6))
    for i, label in enumerate(labels):
        if i % every == 0 or i == n - 1:
            chart.x_ticks.append(Tick(LEFT + step * i if n > 1 else LEFT + plot_w / 2, HEIGHT - BOTTOM + 16, label))
    for row in values:
        pts = [(round(LEFT + step * i if n > 1 else LEFT + plot_w / 2, 1), round(TOP + plot_h - plot_h * v / top, 1),
                f"{labels[i]}: {v}") for i, v in enumerate(row)]
        chart.points.append(pts)
        chart.lines.append(" ".join(f"{x},{y}" for x, y, _ in pts))
    return chart
