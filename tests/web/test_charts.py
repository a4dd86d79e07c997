"""Geometry of the server-side SVG charts (psan.web.charts): bars and points are where their values say."""
from __future__ import annotations

from psan.web.charts import BOTTOM, HEIGHT, TOP, bar_chart, line_chart

PLOT = HEIGHT - TOP - BOTTOM


def test_bars_are_proportional_and_the_axis_has_integer_steps():
    chart = bar_chart("t", ["PERSON", "PLACE"], ["public", "private"], [[0, 4], [3, 1]])
    assert [t.text for t in chart.y_ticks] == ["0", "1", "2", "3", "4"]
    heights = {(b.label, b.series): (b.height, b.value) for b in chart.bars}
    assert heights[("PLACE", 0)] == (PLOT, 4) and heights[("PERSON", 1)] == (round(PLOT * 3 / 4, 1), 3)
    assert all(abs(b.y + b.height - (TOP + PLOT)) < 0.11 for b in chart.bars)  # every bar stands on the axis
    assert not chart.empty and [t.text for t in chart.x_ticks] == ["PERSON", "PLACE"]


def test_empty_and_line_charts():
    assert bar_chart("t", [], ["a"], [[]]).empty and bar_chart("t", ["x"], ["a"], [[0]]).empty
    chart = line_chart("t", ["d1", "d2", "d3"], ["decisions"], [[0, 10, 20]])
    xs, ys = zip(*[(x, y) for x, y, _ in chart.points[0]], strict=True)
    assert xs == tuple(sorted(xs)) and ys[0] == TOP + PLOT and ys[2] == TOP  # 20 is the axis maximum
    assert chart.lines[0].count(",") == 3 and chart.points[0][1][2] == "d2: 10"
