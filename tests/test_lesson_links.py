"""Every lesson on the matrix page reopens from its link exactly: opened from the address its button leaves (what
*Share this setup* copies) in a fresh session, and run to the same iteration, it gives the same numbers as the
session that pressed the button."""

import numpy as np
import pytest

from tests.visits import opened
from ui.matrix import field_lessons, last_iterate, lesson

#: Each lesson's button, by key.
BUTTONS = [f"field_lesson_{name}" for name in field_lessons.LESSONS] + [
    lesson.RULES_LESSON.key,
    last_iterate.LESSON.key,
]
#: The iteration both sessions run to: 210, the step buttons' 100 + 100 + 10.
STEPS = ("matrix_step_100", "matrix_step_100", "matrix_step_10")


def _numbers(app) -> dict:
    """Every variant's last recorded numbers: its nash_conv and both players' current and average strategies."""
    for key in STEPS:
        app.button(key=key).click().run()
    assert not app.exception
    live = app.session_state.matrix_live
    assert live.iteration == 210
    numbers = {}
    for variant, histories in zip(live.race.variants, live.race.histories()):
        history = histories[0]
        numbers[variant.label] = np.concatenate(
            [[history.metrics["nash_conv"][-1]]]
            + [history.strategy(kind, who)[-1] for kind in ("current", "average") for who in ("row", "col")]
        )
    return numbers


def _address(app) -> dict[str, list[str]]:
    """The address the session's run left, as the browser's would hold it (AppTest keeps one value as a string)."""
    return {key: value if isinstance(value, list) else [value] for key, value in app.query_params.items()}


@pytest.mark.parametrize("button", BUTTONS)
def test_a_lessons_address_reopens_it_with_the_same_numbers(button):
    pressed = opened()
    pressed.button(key=button).click().run()
    assert not pressed.exception
    address = _address(pressed)
    expected = _numbers(pressed)
    from_link = opened(address)
    assert not from_link.warning  # nothing in the link was refused
    got = _numbers(from_link)
    assert list(got) == list(expected)
    for label, numbers in expected.items():
        assert got[label] == pytest.approx(numbers, abs=1e-12), label
    # The lesson moves away from its start: the numbers compared are a run's, not a resting point's.
    assert max(float(numbers[0]) for numbers in expected.values()) > 1e-3


@pytest.mark.parametrize("chosen", [lesson.RULES_LESSON, last_iterate.LESSON], ids=lambda chosen: chosen.key)
def test_a_race_lessons_own_link_opens_what_its_button_does(chosen):
    pressed = opened()
    pressed.button(key=chosen.key).click().run()
    expected = _numbers(pressed)
    from_link = opened({key: [v for k, v in chosen.query() if k == key] for key, _ in chosen.query()})
    got = _numbers(from_link)
    assert list(got) == list(expected)
    for label, numbers in expected.items():
        assert got[label] == pytest.approx(numbers, abs=1e-12), label
