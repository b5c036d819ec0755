"""The strategy-space chart as a projector shows it: the plot takes the column's width (the legend under it, the
colour bar in the right margin), no word sits on the field, tick labels stay clear of the corners, and the rest
points' eigenvalues read as a reader writes them."""

import numpy as np
import pytest

import rmcore
from rmcore.plotting import fields
from rmcore.plotting import space as space_figure

RPS_START = ((70, 20, 10), (70, 20, 10))
#: The strategy chart's width in a half-width column of the page at 1280x720 (the sidebar open): 410 pixels.
HALF_COLUMN_AT_1280 = 410


def _setups():
    pennies, rps = rmcore.preset("matching-pennies"), rmcore.preset("rps")
    return {
        "square": (pennies, fields.field_setup(pennies, "hedge", start=pennies.start)),
        "triangle": (rps, fields.field_setup(rps, "hedge", start=RPS_START)),
        "best response": (rps, fields.field_setup(rps, "fictitious-play", start=RPS_START)),
    }


def _chart(name):
    game, setup = _setups()[name]
    return space_figure.strategy_space(
        game, setup, (), list(game.equilibria) or [rmcore.Equilibrium((1 / 3,) * 3, (1 / 3,) * 3)]
    )


def _hover(figure, stability):
    (trace,) = [t for t in figure["data"] if t.get("name") == f"rest point: {stability}"]
    return trace["hovertext"]


@pytest.mark.parametrize("name", ["square", "triangle", "best response"])
def test_at_1280_the_plot_is_most_of_a_half_column_wide_with_the_legend_under_it(name):
    layout = _chart(name)["layout"]
    margin = layout["margin"]
    across = HALF_COLUMN_AT_1280 - margin["l"] - margin["r"]
    tall = layout["height"] - margin["t"] - margin["b"]
    assert min(across, tall) >= 260  # the square or the triangle's side, in pixels (about 140 beside a legend)
    legend = layout["legend"]
    assert legend["orientation"] == "h" and legend["yref"] == "container" and legend["y"] == 0
    assert legend["yanchor"] == "bottom" and margin["b"] >= 140  # its rows in the bottom margin, under the axis title


@pytest.mark.parametrize("name", ["square", "triangle"])
def test_the_colour_bar_stands_in_the_right_margin_clear_of_the_corner_labels(name):
    figure = _chart(name)
    (bar,) = [t["marker"]["colorbar"] for t in figure["data"] if t.get("marker", {}).get("colorbar")]
    assert bar["xref"] == "container" and bar["x"] == 1.0 and bar["xanchor"] == "right"
    # Its thickness, its tick labels and its title fit the right margin; it hangs from the top, away from the
    # bottom corner's label (Scissors).
    assert figure["layout"]["margin"]["r"] >= bar["thickness"] + 60
    assert bar["y"] == 1.0 and bar["yanchor"] == "top" and bar["len"] <= 0.5


@pytest.mark.parametrize("name", ["square", "triangle", "best response"])
def test_no_word_is_drawn_on_the_field_and_no_tick_label_on_a_corner(name):
    figure = _chart(name)
    for trace in figure["data"]:
        assert "text" not in trace.get("mode", ""), trace.get("name")  # (the legend names each rest point's class)
    names = [t.get("name") for t in figure["data"]]
    assert any(n.startswith("rest point: ") for n in names)
    layout = figure["layout"]
    if "ternary" in layout:
        for axis in ("aaxis", "baxis", "caxis"):
            ticks = layout["ternary"][axis]["tickvals"]
            assert 0 not in ticks and 1 not in ticks  # a corner's 1 and the next side's 0 met there
    else:
        for axis in ("xaxis", "yaxis"):
            assert layout[axis]["ticks"] == "outside" and layout[axis]["ticklabelstandoff"] >= 4


def test_eigenvalues_read_as_a_reader_writes_them():
    figures = {name: _chart(name) for name in _setups()}
    (pennies_centre,) = _hover(figures["square"], "neutral")
    assert "Jacobian's eigenvalues: ±i" in pennies_centre and "e-" not in pennies_centre
    assert all(
        "eigenvalues: -2, 2" in text or "eigenvalues: 2, -2" in text for text in _hover(figures["square"], "unstable")
    )
    (rps_centre,) = _hover(figures["triangle"], "neutral")
    assert "Jacobian's eigenvalues: ±0.577i" in rps_centre  # ±i/√3
    (stable,) = _hover(figures["best response"], "stable")
    # The best response's eigenvalues are those of its smoothed form at temperature τ: the hover says so and why the
    # imaginary part is large.
    tau = fields.LOGIT_TEMPERATURE
    assert f"-1 ± {np.sqrt(1 / 3) / tau:.3g}i" in stable
    assert "logit dynamic" in stable and "grow as 1/τ" in stable and f"τ = {tau:g}" in stable


@pytest.mark.parametrize(
    "values, said",
    [
        ([-5.38e-43 + 1j, -5.38e-43 - 1j], "±i"),
        ([2e-12 + 0.5773502j, 2e-12 - 0.5773502j], "±0.577i"),
        ([-1 + 577.35j, -1 - 577.35j], "-1 ± 577i"),
        ([-0.9999999999999993 + 0j, 0.9999999999999996 + 0j], "-1, 1"),
        ([-1.0, -1.0], "-1, -1"),
        ([0.25 + 2j, 0.25 - 2j, -3.0], "0.25 ± 2i, -3"),
    ],
)
def test_eigen_text_rounds_tiny_parts_to_zero_and_pairs_conjugates(values, said):
    assert space_figure.eigen_text(values) == said


def test_on_a_projector_the_legend_under_the_field_has_a_margin_for_each_of_its_rows():
    from rmcore.plotting import charts

    game = rmcore.preset("matching-pennies")
    race = rmcore.Race(game, ["hedge", "optimistic-hedge"], start=game.start)
    race.run(50)
    setup = fields.field_setup(game, "hedge", start=game.start)
    names = space_figure.run_names(race.variants)
    trails = [space_figure.Trail(n, h[0], h[0]) for n, h in zip(names, race.histories())]
    chart = space_figure.strategy_space(game, setup, trails, game.equilibria)
    entries = [t["name"] for t in chart["data"] if t.get("showlegend", True) and t.get("name")]
    assert len(entries) == 7  # two rest-point classes, the star, two runs' average and last iterate
    projected = charts.for_projector(chart)["layout"]
    # One row an entry at the projector's size, under the tick labels and the axis title (about 80 pixels).
    assert projected["margin"]["b"] >= 80 + len(entries) * charts.PROJECTOR_TEXT * 1.4
    plot = projected["height"] - projected["margin"]["t"] - projected["margin"]["b"]
    assert plot >= chart["layout"]["height"] - chart["layout"]["margin"]["t"] - chart["layout"]["margin"]["b"] - 1


@pytest.mark.parametrize("algorithm", ["rm", "rm+", "prm+", "hedge"])
def test_a_regret_charts_title_fits_a_half_width_column(algorithm):
    """A title wider than its chart is cut at both ends (Plotly centres it): at 1280x720 the regret chart in its half
    column is about 410 pixels wide, about 45 characters of the title's size and 60 of its second, smaller line."""
    from rmcore.plotting import words as figure_words

    title = figure_words.regret_title(algorithm)
    main, _, below = title.partition("<br>")
    assert len(main) <= 45
    below = below.removeprefix("<sup>").removesuffix("</sup>")
    assert len(below) <= 60 and "<" not in below
