"""ui/matrix/animation.py: animations of the strategy chart have the frames and the size asked for (read back with
imageio), stills are SVG and PDF, and bad arguments are refused with a reason. Drawing needs kaleido and a Chrome or
Chromium."""

import imageio.v3 as iio
import numpy as np
import pytest

import rmcore
from rmcore.plotting import fields, images
from rmcore.plotting import space as space_figure
from ui.matrix import animation


@pytest.fixture(scope="module")
def solver():
    game = rmcore.preset("matching-pennies")
    solver = rmcore.MatrixSolver(game, "hedge", start=game.start, history_share=None)  # (a frame per checkpoint row)
    solver.run(400)
    return solver


@pytest.fixture(scope="module")
def drawable():
    missing = animation.available()
    if missing is not None:
        pytest.skip(missing)


def test_frames_span_the_range_asked_for_in_order(solver):
    figures = animation.frames_of(solver, 40, first=50, last=300)
    assert len(figures) == 40
    titles = [figure["layout"]["title"]["text"] for figure in figures]
    shown = [int(title.split("t = ")[1].split("<")[0].replace(",", "")) for title in titles]
    assert shown == sorted(shown) and shown[0] >= 50 and shown[-1] == 300
    names = [trace.get("name", "") for trace in figures[-1]["data"]]
    assert "rest point: neutral" in names and "Hedge: average" in names


def test_a_history_with_its_game_animates_as_its_solver_does(solver):
    by_solver = animation.frames_of(solver, 5)
    by_history = animation.frames_of(solver.history(), 5, game=solver.game, algorithm="hedge")
    assert [f["layout"]["title"]["text"] for f in by_solver] == [f["layout"]["title"]["text"] for f in by_history]


def test_without_a_field_the_chart_is_the_strategy_path(solver):
    rm = rmcore.MatrixSolver(rmcore.preset("rps"), "rm", start=rmcore.preset("rps").start)
    rm.run(50)
    (figure,) = animation.frames_of(rm, 1, 50, 50)
    assert figure["data"][0]["type"] == "scatterternary"
    assert not any("rest point" in trace.get("name", "") for trace in figure["data"])


@pytest.mark.parametrize("kind", ["gif", "mp4"])
def test_an_animation_has_the_asked_frame_count_and_size(solver, drawable, kind, tmp_path):
    made = animation.animate(solver, kind, frames=24, first=1, last=400)
    path = tmp_path / f"strategy.{kind}"
    path.write_bytes(made)
    frames = iio.imread(path, index=None, **({"plugin": "FFMPEG"} if kind == "mp4" else {}))
    assert frames.shape[:3] == (24, 720, 1280)
    if kind == "gif":
        assert iio.immeta(path)["duration"] == pytest.approx(1000 / 30, abs=4)  # (GIF counts hundredths of a second)
    else:
        assert iio.immeta(path, plugin="FFMPEG")["fps"] == pytest.approx(30)
    # The frames differ: the iterates move (a static image repeated would pass a count alone).
    assert np.abs(frames[0].astype(int) - frames[-1].astype(int)).mean() > 0.5


def test_stills_are_svg_and_pdf(solver, drawable):
    svg = animation.still(solver, "svg")
    assert svg.lstrip().startswith(b"<svg") and b"Replicator dynamic" in svg
    assert animation.still(solver, "pdf").startswith(b"%PDF")


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda s: animation.frames_of(s, 0), "frames must be a whole number from 1"),
        (lambda s: animation.frames_of(s, 10, first=300, last=20), "1 <= first <= last"),
        (lambda s: animation.frames_of(s, 10, first=5000), "reached iteration 400 only"),
        (lambda s: animation.frames_of(s.history(), 10), "a history needs its game"),
        (lambda s: animation.frames_of([1, 2], 10), "animate a MatrixSolver, an rmcore.Race or an rmcore.History"),
        (lambda s: animation.frames_of([s.history()], 10, game=s.game), "histories need their variants"),
        (lambda s: animation.animate(s, "avi"), "format must be one of"),
        (lambda s: animation.animate(s, "gif", size=(1280.5, 720)), "size must be whole pixels"),
        (lambda s: animation.still(s, "eps"), "format must be one of"),
        (lambda s: animation.encode(np.zeros((2, 8, 8, 3), np.uint8), "gif", fps=0), "fps must be a whole number"),
        (lambda s: animation.encode(np.zeros((2, 8, 8)), "gif"), "frames must be RGB images"),
    ],
)
def test_bad_arguments_are_refused_with_a_reason(solver, call, message):
    with pytest.raises(ValueError, match=message):
        call(solver)


def test_the_slide_layout_keeps_every_trace_and_puts_the_legend_beside_the_plot(solver):
    setup = fields.field_setup(solver.game, "hedge")
    history = solver.history()
    chart = space_figure.strategy_space(
        solver.game, setup, [space_figure.Trail("run", history, history)], solver.game.equilibria
    )
    (slide,) = animation.frames_of(solver, 1, 400, 400)
    assert len(slide["data"]) == len(chart["data"])
    assert slide["layout"]["legend"]["orientation"] == "v" and "height" not in slide["layout"]


def test_a_frame_drawn_after_others_on_the_same_page_is_the_frame_drawn_after_different_ones(solver, drawable):
    """Kaleido's tabs draw frame after frame without reloading their page: nothing one frame draws stays behind for
    the next (the frames drawn in the opposite order are the same images)."""
    figures = animation.frames_of(solver, 6, 50, 400)
    forwards = animation.render_frames(figures)
    backwards = animation.render_frames(figures[::-1])
    assert np.array_equal(forwards, backwards[::-1])
    assert not np.array_equal(forwards[0], forwards[-1])


def test_a_frame_drawn_in_two_layers_is_the_frame_drawn_whole(solver, drawable):
    """What stays is drawn once and the iterates laid over it: the result matches kaleido's drawing of the whole
    figure to within antialiasing."""
    (figure,) = animation.frames_of(solver, 1, 250, 250)
    (layered,) = animation.render_frames([figure])
    whole = iio.imread(images.render([figure], "png")[0])[..., :3]
    difference = np.abs(layered.astype(int) - whole.astype(int))
    assert difference.mean() < 0.05 and np.mean(difference.max(axis=-1) > 40) < 0.001


@pytest.fixture(scope="module")
def pennies_lesson():
    """The matching-pennies field lesson's race: Hedge and optimistic Hedge from its start, every iteration kept."""
    game = rmcore.preset("matching-pennies")
    race = rmcore.Race(game, ["hedge", "optimistic-hedge"], start=game.start, history_share=None)
    race.run(1000)
    return race


def _drawn(figure: dict, name: str) -> np.ndarray:
    (trace,) = [t for t in figure["data"] if t.get("name") == name]
    return np.column_stack([trace["x"], trace["y"]])


def test_a_race_animates_every_variant_with_its_name_on_the_one_field(pennies_lesson):
    figures = animation.frames_of(pennies_lesson, 5, 100, 1000)
    histories = [runs[0] for runs in pennies_lesson.histories()]
    for figure in figures:
        names = [trace.get("name", "") for trace in figure["data"]]
        assert "rest point: neutral" in names and "run: average" not in names
        for rule in ("Hedge", "Optimistic Hedge"):
            assert f"{rule}: average" in names and f"{rule}: last iterate" in names
    # Each variant's trail is its own history's current strategies (they part: one spirals out, one in).
    last = figures[-1]
    for rule, history in zip(("Hedge", "Optimistic Hedge"), histories):
        trail = _drawn(last, f"{rule}: last iterate")
        row, col = history.strategy("current", "row")[-1], history.strategy("current", "col")[-1]
        assert trail[-1] == pytest.approx([row[0], col[0]])
    assert not np.allclose(_drawn(last, "Hedge: last iterate")[-1], _drawn(last, "Optimistic Hedge: last iterate")[-1])


def test_the_page_export_takes_the_histories_it_drew_with_their_variants(pennies_lesson):
    histories = [runs[0] for runs in pennies_lesson.histories()]
    by_race = animation.frames_of(pennies_lesson, 3)
    by_page = animation.frames_of(
        histories, 3, game=pennies_lesson.game, variants=pennies_lesson.variants, start=pennies_lesson.start
    )
    assert [t.get("name") for t in by_race[-1]["data"]] == [t.get("name") for t in by_page[-1]["data"]]


@pytest.mark.slow
def test_a_ten_second_gif_of_the_pennies_lesson_is_under_4_mb_and_shows_both_rules(pennies_lesson, drawable, tmp_path):
    """300 frames at 30 a second, 1280x720: one palette, and each frame stores only the pixels that changed (the
    field stays put), so the file stays small for a slide without changing a pixel of what is drawn."""
    made = animation.animate(pennies_lesson, "gif", frames=300)
    assert len(made) < 4_000_000, f"{len(made) / 1e6:.1f} MB"
    path = tmp_path / "pennies.gif"
    path.write_bytes(made)
    frames = iio.imread(path, index=None)[..., :3]
    assert frames.shape == (300, 720, 1280, 3)
    # Frame by frame, the file holds what the browser drew (to within the palette's rounding).
    figures = animation.frames_of(pennies_lesson, 300)
    for k in (0, 150, 299):
        (drawn,) = animation.render_frames([figures[k]])
        assert np.abs(frames[k].astype(int) - drawn.astype(int)).mean() < 3
    # The legend names both rules: the pixels of the blue (Hedge) and red (optimistic Hedge) trails are there.
    last = frames[-1].reshape(-1, 3).astype(int)
    for colour in (space_figure.TRAIL_COLOURS[0], space_figure.TRAIL_COLOURS[1]):
        rgb = np.array([int(colour[k : k + 2], 16) for k in (1, 3, 5)])
        assert np.sum(np.abs(last - rgb).max(axis=1) < 24) > 200, colour


# -- games of three players or more: the export draws what their page draws --------------------------------------------


@pytest.fixture(scope="module")
def three_players():
    game = rmcore.preset("matching-pennies-3p")
    solver = rmcore.MatrixSolver(game, "rm", start=((0.9, 0.1), (0.6, 0.4), (0.2, 0.8)), history_share=None)
    solver.run(300)
    return solver


def _shown_iteration(figure: dict) -> int:
    return int(figure["layout"]["title"]["text"].split("t = ")[1].replace(",", ""))


def test_a_three_player_run_animates_its_profile_in_the_cube_frame_by_frame(three_players):
    figures = animation.frames_of(three_players, 5, first=10, last=300)
    assert [_shown_iteration(f) for f in figures] == [10, 83, 155, 228, 300]  # (the checkpoints at or after)
    path = next(t for t in figures[-1]["data"] if t.get("name") == "average profile")
    assert path["type"] == "scatter3d"
    # The frame's path is the run's average profile up to its iteration: player 1's first action, as recorded.
    recorded = three_players.history().strategy("average", "player 1")[:, 0]
    assert path["x"][-1] == pytest.approx(recorded[299]) and len(figures[0]["data"][0]["x"]) < len(path["x"])


def test_a_race_of_three_player_games_of_three_actions_draws_each_players_triangle():
    game = rmcore.NormalFormGame(list(np.random.default_rng(3).normal(size=(3, 3, 2, 3))), name="3x2x3")
    race = rmcore.Race(game, ["rm", "hedge"], history_share=None)
    race.run(60)
    (figure,) = animation.frames_of(race, 1, 60, 60)
    assert {t["type"] for t in figure["data"]} == {"scatterternary"}
    assert {t["subplot"] for t in figure["data"]} == {"ternary", "ternary2"} and _shown_iteration(figure) == 60


def test_a_three_player_still_is_drawn(three_players, drawable):
    svg = animation.still(three_players, "svg")
    assert svg.lstrip().startswith(b"<svg") and b"t = 300" in svg
