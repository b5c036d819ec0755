"""The tree page's lesson, one click away: CFR, CFR+, discounted CFR, predictive CFR+, predictive discounted CFR+ and
DCFR+ racing on Kuhn poker or Leduc hold'em, each with its average and its current policy drawn.

The lesson is a setup like any other: the values of the page's own ``kuhn_*`` widgets (:func:`settings_of`). Its
button writes them into the session before the page runs (the bound widgets then write the URL), and :func:`link` is
the same setup as a share link, a URL a lecturer can hand out.
"""

from __future__ import annotations

import urllib.parse

import streamlit as st

import rmcore
from rmcore.trees.cfr import VARIANT_DISCOUNTS

from .. import explain, state
from .settings import DISCOUNT_KEYS, GAMES, RunSettings

#: The lesson's variants, alternating updates, the discounting ones with their papers' parameters.
VARIANTS = tuple(rmcore.CFRVariant(name) for name in ("cfr", "cfr+", "discounted", "pcfr+", "pdcfr+", "dcfr+"))
#: The games the lesson is offered on (``explain.LESSON_OBSERVED`` has their numbers).
LESSON_GAMES = ("kuhn", "leduc")


def settings_of(game: str) -> dict:
    """The lesson on ``game`` as the page's widget values, by key: everything a share link could change is set, so
    that no earlier setting (a seed, a locked player, other DCFR parameters) leaks into the lesson."""
    return {
        "kuhn_game": game,
        "kuhn_players": 2,
        "kuhn_variants": [v.label for v in VARIANTS],
        "kuhn_seed": 0,
        "kuhn_opponent": "self-play",
        "kuhn_show_current": True,
        "kuhn_rank_by": "average",
        **{
            f"{DISCOUNT_KEYS[variant]}_{name}": value
            for variant, defaults in VARIANT_DISCOUNTS.items()
            for name, value in defaults.items()
        },
    }


def link(game: str) -> str:
    """The lesson on ``game`` as a share link: this app's tree page with the lesson's parameters (only those that
    differ from the page's defaults, as the bound widgets write them)."""
    base = (st.context.url or "").split("?")[0].rstrip("/").removesuffix("/kuhn_poker")
    return f"{base}/kuhn_poker?{urllib.parse.urlencode(query(game))}"


def query(game: str) -> list[tuple[str, str]]:
    """The lesson's query parameters: the game by its label and the variants, as the bound widgets write them."""
    return [("kuhn_game", GAMES[game])] + [("kuhn_variants", v.label) for v in VARIANTS]


def _start(game: str) -> None:
    """The button's callback: the lesson's values into the widgets, before they are drawn."""
    state.set_widgets(settings_of(game))


def buttons() -> None:
    """The lesson's title and one button per game."""
    with st.container(horizontal=True, vertical_alignment="center"):
        st.markdown(f"**{explain.LESSON_TITLE}**")
        for game in LESSON_GAMES:
            st.button(
                f"on {GAMES[game]}",
                key=f"kuhn_lesson_{game}",
                on_click=_start,
                args=(game,),
                help=explain.LESSON_HELP,
                icon=":material/school:",
            )


def is_lesson(chosen: RunSettings) -> bool:
    """Whether the page's setup is the lesson (on a game it has numbers for)."""
    return (
        chosen.game in LESSON_GAMES and chosen.variants == VARIANTS and chosen.opponent is None and chosen.players == 2
    )


def words(chosen: RunSettings) -> str | None:
    """The lesson's lines under the chart, with the game's exact value; None for another setup."""
    if not is_lesson(chosen):
        return None
    if chosen.game == "kuhn":
        value = "-1/18 = -0.05556"
    else:
        answer = chosen.exact_answer()
        value = explain.LESSON_VALUE_PENDING if answer is None else f"{answer.game_value:.5f}"
    return f"{explain.lesson_words(chosen.game, value)} {explain.LESSON_LINK_BELOW}"


def link_line(chosen: RunSettings) -> None:
    """Under the charts, while the page runs the lesson: its link, as a link."""
    if is_lesson(chosen):
        st.caption(explain.lesson_link(link(chosen.game)))
