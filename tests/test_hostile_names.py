"""Names a user gives (a game's, an action's, an information set's, a link's key or value) reach every page element
that shows them as typed: escaped for Markdown where Streamlit renders Markdown (markdown, captions, notices, widget
labels and help, tables, expander labels), escaped for HTML where Plotly renders its HTML subset (titles, legends,
tick labels, hover text)."""

from __future__ import annotations

import json
import re

import pytest

from tests.live_charts import live_charts
from tests.visits import opened, shown
from ui import link

#: Each would render as something else: an image fetched from elsewhere, a link, bold text, maths, an icon.
HOSTILE = (
    "![i](https://attacker.example/p.png)",
    "<a href=x>y</a>",
    "**bold**",
    "$x$",
    ":material/lock:",
    "<b>c</b>",
)
#: What must never reach Markdown raw, and what must never reach Plotly raw.
RAW_MARKDOWN = ("![i](", "<a href", "**bold**", "$x$", ":material/lock:", "<b>c")
RAW_HTML = ("<a href", "<b>c</b>")


def _markdown_sources(app) -> list[str]:
    """Every piece of Markdown source the page sent: text elements, notices, widget labels and help, expander labels,
    metric labels, the cells of st.table."""
    texts = []
    for kind in ("markdown", "caption", "info", "warning", "error", "success", "subheader", "title", "header"):
        texts += [element.value for element in app.get(kind)]
    for kind in (
        "button",
        "slider",
        "select_slider",
        "checkbox",
        "toggle",
        "radio",
        "selectbox",
        "multiselect",
        "text_input",
        "number_input",
        "segmented_control",
        "metric",
        "expander",
    ):
        for element in app.get(kind):
            texts.append(getattr(element, "label", "") or "")
            texts.append(getattr(element.proto, "help", "") or "")
    for table in app.table:
        frame = table.value
        texts += [str(frame.index.name), *map(str, frame.index), *map(str, frame.columns)]
        texts += [str(cell) for row in frame.itertuples(index=False) for cell in row]
    texts += [chart["caption"] for chart in live_charts(app)]
    return texts


def _plotly_strings(app) -> list[str]:
    """Every string in every live chart's figure (trace names, texts, categories, titles, hover texts)."""
    found = []

    def walk(value):
        if isinstance(value, str):
            found.append(value)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for chart in live_charts(app):
        walk(chart["figure"])
    return found


def _raw(pattern: str) -> re.Pattern:
    """``pattern`` as Markdown would act on it: each of its Markdown characters not escaped by a backslash."""
    special = set("\\|*_`[]<>#~$!:")
    return re.compile("".join(f"(?<!\\\\){re.escape(c)}" if c in special else re.escape(c) for c in pattern))


def _assert_escaped(app, must_show: tuple[str, ...]) -> None:
    sources = _markdown_sources(app)
    for text in sources:
        for raw in RAW_MARKDOWN:
            assert not _raw(raw).search(text), f"{raw!r} reached Markdown raw in {text!r}"
    readable = " ".join(shown(text) for text in sources)
    for name in must_show:
        assert name in readable, f"{name!r} is shown nowhere"
    strings = _plotly_strings(app)
    for text in strings:
        for raw in RAW_HTML:
            assert raw not in text, f"{raw!r} reached a chart raw in {text!r}"
    assert any("&lt;a href=x&gt;y&lt;/a&gt;" in text for text in strings), "a name is drawn, escaped, on a chart"


def _hostile_matrix(**extra) -> str:
    spec = {
        "name": "<a href=x>y</a> ![i](https://attacker.example/p.png)",
        "rows": list(HOSTILE[:3]),
        "cols": list(HOSTILE[3:]),
        "A": [[0, -1, 2], [1, 0, -1], [-2, 1, 0]],
        **extra,
    }
    return json.dumps(spec)


def test_hostile_action_names_on_the_matrix_page_in_self_play_sampled_one_step_at_a_time():
    app = opened({"matrix": _hostile_matrix(start=[[1, 2, 1], [2, 1, 1]]), "sampling": "sampled"})
    assert not app.exception
    app.button(key="matrix_step_1").click().run()
    assert not app.exception
    assert any("This iteration drew" in c.value for c in app.caption)
    _assert_escaped(app, HOSTILE)


def test_hostile_action_names_on_the_matrix_page_against_a_fixed_opponent_from_a_start_of_ones_own():
    app = opened({"matrix": _hostile_matrix(), "opponent_mode": "Fixed mixed strategy", "start_mode": "custom"})
    assert not app.exception
    app.button(key="matrix_step_10").click().run()
    assert not app.exception and any("Opponent plays" in c.value for c in app.caption)
    _assert_escaped(app, HOSTILE)


def test_presentation_mode_escapes_the_game_name_in_its_expander():
    app = opened({"matrix": _hostile_matrix(), "present": "true"})
    assert not app.exception
    labels = [e.label for e in app.expander]
    assert any(label.startswith("Game and settings: ") for label in labels)
    assert not any(_raw("<a href").search(label) or _raw("![i](").search(label) for label in labels)


HOSTILE_EFG = """EFG 2 R "<a href=x>y</a> ![i](https://attacker.example/p.png)" { "A" "B" }
p "" 1 1 "<a href=x>y</a>" { "<b>c</b>" "$x$" } 0
p "" 2 1 "![i](https://attacker.example/p.png)" { "**bold**" ":material/lock:" } 0
t "" 1 "" { 1, -1 }
t "" 2 "" { -1, 1 }
p "" 2 1 0
t "" 2
t "" 1
"""


@pytest.fixture
def hostile_tree():
    app = opened(
        {"kuhn_efg": link.efg_param(HOSTILE_EFG), "kuhn_game": "Your game (.efg)", "kuhn_opponent": "Player 2 fixed"},
        url_path="game_trees",
    )
    assert not app.exception
    assert app.session_state.kuhn_live.race.game.infosets == (HOSTILE[1], HOSTILE[0])
    return app


def test_hostile_names_from_a_game_file_on_the_tree_page_with_a_locked_player(hostile_tree):
    app = hostile_tree
    app.multiselect(key=next(m.key for m in app.multiselect if m.key.startswith("kuhn_locks_2"))).set_value(
        [HOSTILE[0]]
    ).run()
    app.button(key="kuhn_step_10").click().run()
    assert not app.exception
    assert any(s.label.endswith("weight of " + "\\:material/lock\\:") for s in app.slider)
    _assert_escaped(app, HOSTILE)


def test_hostile_names_in_the_explorer_and_at_the_table_against_the_bot(hostile_tree):
    app = hostile_tree
    app.radio(key="kuhn_opponent").set_value("self-play").run()
    app.button(key="kuhn_step_10").click().run()
    app.text_input(key="kuhn_explore_search").input("<b>").run()
    assert any("in its name" in c.value for c in app.caption), "the search finds nothing and says so"
    app.text_input(key="kuhn_explore_search").input("").run()
    assert not app.exception and app.table, "the chosen information set is tabled"
    app.button(key="kuhn_play_" + HOSTILE[5]).click().run()  # the student, player 1, plays "<b>c</b>"
    assert not app.exception
    _assert_escaped(app, ("<a href=x>y</a>", "<b>c</b>", "$x$"))  # player 1's set and actions (the explorer's)


def test_a_refused_link_key_or_value_is_echoed_escaped():
    app = opened({"preset": "![](https://attacker.example/q.png)", "<a href=x>y</a>": "$x$"})
    notice = " ".join(w.value for w in app.warning)
    assert notice and not any(_raw(raw).search(notice) for raw in ("![](", "<a href", "$x$"))
    assert "![](https://attacker.example/q.png)" in shown(notice) and "<a href=x>y</a>" in shown(notice)
