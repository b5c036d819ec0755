"""rmcore/plotting/correlated.py: the tetrahedron of a 2x2 game's joint distributions (its layers, where each point
lands, the sets' solids inside one another, degenerate sets) and the heatmaps of a larger game's, built as figure
dicts that Plotly validates; one drawing of each by kaleido at 1280x720, read back."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import pytest
from scipy.spatial import ConvexHull

import rmcore
from rmcore.plotting import correlated as cf
from rmcore.plotting import words
from tests.test_correlated import _definition_rows

CHICKEN = rmcore.MatrixGame(
    [[6, 2], [7, 0]], [[6, 7], [2, 0]], row_actions=("Swerve", "Dare"), col_actions=("Swerve", "Dare")
)


def a_trail(count: int = 300) -> np.ndarray:
    """Joint distributions drifting from one corner's side to the middle of Chicken's CE set."""
    s = np.linspace(0, 1, count)[:, None]
    start, end = np.array([0.1, 0.2, 0.1, 0.6]), np.array([1 / 3, 1 / 3, 1 / 3, 0])
    return ((1 - s) * start + s * end).reshape(count, 2, 2)


def barycentric(points: np.ndarray) -> np.ndarray:
    """The joint distributions whose tetrahedron points are ``points`` (the inverse of the corners' map)."""
    system = np.vstack([cf.CORNERS.T, np.ones(4)])
    return np.linalg.solve(system, np.vstack([np.asarray(points, float).T, np.ones(len(points))])).T


def points_of(trace: dict) -> np.ndarray:
    xyz = np.column_stack([np.asarray(trace[k], dtype=float) for k in "xyz"])
    return xyz[~np.isnan(xyz).any(axis=1)]


def by_meta(spec: dict, meta: str, kind: str) -> dict:
    (trace,) = [t for t in spec["data"] if t.get("meta") == meta and t["type"] == kind]
    return trace


def by_name(spec: dict, name: str) -> dict:
    (trace,) = [t for t in spec["data"] if t.get("name") == name]
    return trace


# -- the tetrahedron --------------------------------------------------------------------------------------------------


def test_chickens_tetrahedron_has_every_layer_once_and_plotly_accepts_it():
    spec = cf.tetrahedron_figure(CHICKEN, a_trail())
    go.Figure(spec)  # (validates every trace and the layout)
    kinds = [(t["type"], t.get("name")) for t in spec["data"]]
    assert kinds == [
        ("scatter3d", "edges"),
        ("scatter3d", "joint actions"),
        ("surface", words.PRODUCTS),
        ("mesh3d", words.CCE_SAME),
        ("scatter3d", words.CCE_SAME),
        ("mesh3d", words.CE_SET),
        ("scatter3d", words.CE_SET),
        ("scatter3d", words.NASH),
        ("scatter3d", words.BEST),
        ("scatter3d", words.TRAFFIC_LIGHT),
        ("scatter3d", words.TRAIL),
        ("scatter3d", words.NOW),
    ]
    without = cf.tetrahedron_figure(CHICKEN)
    assert len(without["data"]) == len(spec["data"]) - 2
    assert spec["layout"]["scene"]["uirevision"] == "keep" and spec["layout"]["uirevision"] == "keep"
    assert spec["layout"]["scene"]["aspectmode"] == "cube"


def test_every_point_lands_where_its_joint_distribution_says():
    trail = a_trail()
    spec = cf.tetrahedron_figure(CHICKEN, trail)
    # The corners are a regular tetrahedron's (every edge as long), and its labels name the joint actions in order.
    lengths = {round(float(np.linalg.norm(cf.CORNERS[a] - cf.CORNERS[b])), 12) for a, b in cf.EDGES}
    assert lengths == {round(2 * np.sqrt(2), 12)}
    labels = by_name(spec, "joint actions")
    assert list(labels["text"]) == ["(Swerve, Swerve)", "(Swerve, Dare)", "(Dare, Swerve)", "(Dare, Dare)"]
    np.testing.assert_allclose(points_of(labels), cf.CORNERS * cf.LABEL_OUT)
    # The trail: each point the mix of the corners its distribution weights, the last one marked.
    path = points_of(by_name(spec, words.TRAIL))
    np.testing.assert_allclose(barycentric(path), trail.reshape(-1, 4), atol=1e-12)
    np.testing.assert_allclose(points_of(by_name(spec, words.NOW)), path[-1:])
    # The saddle is the independent distributions: at (x', y') = (2x - 1, 2y - 1) it is x ⊗ y.
    surface = by_name(spec, words.PRODUCTS)
    x, y, z = (np.asarray(surface[k]) for k in "xyz")
    np.testing.assert_allclose(z, x * y)
    for xi, yi, zi in zip(x.ravel()[::37], y.ravel()[::37], z.ravel()[::37]):
        product = np.outer([(1 + xi) / 2, (1 - xi) / 2], [(1 + yi) / 2, (1 - yi) / 2]).ravel()
        np.testing.assert_allclose(barycentric(np.array([[xi, yi, zi]]))[0], product, atol=1e-12)
    # Chicken's three Nash equilibria, on the saddle: (Swerve, Dare), (Dare, Swerve) and (2/3, 1/3) each.
    nash = points_of(by_name(spec, words.NASH))
    np.testing.assert_allclose(nash[:, 2], nash[:, 0] * nash[:, 1], atol=1e-12)
    expected = [[0, 1, 0, 0], [0, 0, 1, 0], np.outer([2, 1], [2, 1]).ravel() / 9]
    found = barycentric(nash)
    assert all(np.abs(found - e).max(axis=1).min() < 1e-9 for e in expected) and len(found) == 3
    # The welfare-best CE: Aumann's (1/2, 1/4, 1/4, 0).
    np.testing.assert_allclose(barycentric(points_of(by_name(spec, words.BEST))), [[0.5, 0.25, 0.25, 0]], atol=1e-9)


def test_the_ce_solid_is_the_ce_polytope_inside_the_cce_solid():
    spec = cf.tetrahedron_figure(CHICKEN)
    ce, cce = by_meta(spec, cf.CE_META, "mesh3d"), by_meta(spec, cf.CCE_META, "mesh3d")
    ce_points, cce_points = points_of(ce), points_of(cce)
    # The solid's corners are the polytope's vertices, each a joint distribution of the set.
    np.testing.assert_allclose(
        np.sort(barycentric(ce_points), axis=0),
        np.sort(rmcore.correlated_vertices(CHICKEN).reshape(-1, 4), axis=0),
        atol=1e-12,
    )
    assert (barycentric(ce_points) >= -1e-12).all()
    # Every CE corner lies inside the CCE solid's hull (its facets' inequalities), and the mesh's triangles are the
    # hull's: every triangle a facet of it, every face covered (the triangles' areas add up to the hull's).
    hull = ConvexHull(cce_points)
    assert (hull.equations[:, :3] @ ce_points.T + hull.equations[:, 3:] <= 1e-9).all()
    triangles = np.column_stack([ce["i"], ce["j"], ce["k"]])
    corners = ce_points[triangles]
    areas = 0.5 * np.linalg.norm(np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0]), axis=1)
    assert areas.sum() == pytest.approx(ConvexHull(ce_points).area, rel=1e-9)
    # With two actions each the sets are one: the CCE solid is said to be the same and waits in the legend.
    assert cce["visible"] == "legendonly" and cce["name"] == words.CCE_SAME and ce["visible"] is True
    np.testing.assert_allclose(np.sort(cce_points, axis=0), np.sort(ce_points, axis=0), atol=1e-12)
    # The outline runs along the solid's edges only, not the diagonals of its triangulation: Chicken's CE solid is a
    # triangular bipyramid, 5 corners and 6 triangular faces, so 9 edges (Euler: 5 - 9 + 6 = 2).
    outline = by_meta(spec, cf.CE_META, "scatter3d")
    assert len(points_of(outline)) == 2 * 9


@pytest.mark.parametrize("game", [CHICKEN, rmcore.preset("battle-of-sexes"), rmcore.preset("stag-hunt")])
def test_the_outline_is_the_polytopes_edges(game):
    # An edge joins two vertices where the constraints active at both leave a line: with the sum, rank 3 of 4.
    vertices = rmcore.correlated_vertices(game).reshape(-1, 4)
    rows = _definition_rows(game, False) + list(np.eye(4))
    expected = set()
    for a in range(len(vertices)):
        for b in range(a + 1, len(vertices)):
            active = [row for row in rows if abs(row @ vertices[a]) <= 1e-9 and abs(row @ vertices[b]) <= 1e-9]
            if np.linalg.matrix_rank(np.array(active + [np.ones(4)]), tol=1e-9) == 3:
                expected.add(frozenset((tuple(vertices[a].round(9)), tuple(vertices[b].round(9)))))
    outline = points_of(by_meta(cf.tetrahedron_figure(game), cf.CE_META, "scatter3d"))
    ends = barycentric(outline).round(9)
    drawn = {frozenset((tuple(ends[k]), tuple(ends[k + 1]))) for k in range(0, len(ends), 2)}
    assert drawn == expected


def test_a_solids_outline_leaves_out_the_diagonals_of_its_faces_of_four_corners():
    # A square pyramid: its base is two triangles of the hull, their shared diagonal no edge; 8 edges in all.
    corners = np.array([[1, 1, 0], [1, -1, 0], [-1, -1, 0], [-1, 1, 0], [0, 0, 1]], dtype=float)
    mesh, outline = cf._solid(corners, "pyramid", "black", 0.5, "test", True)
    ends = points_of(outline).round(12)
    drawn = {frozenset((tuple(ends[k]), tuple(ends[k + 1]))) for k in range(0, len(ends), 2)}
    assert len(drawn) == 8 and frozenset(((1, 1, 0), (-1, -1, 0))) not in drawn
    assert frozenset(((1, -1, 0), (-1, 1, 0))) not in drawn and len(mesh["i"]) == 6


@pytest.mark.parametrize(
    "game, kind, corners",
    [
        (rmcore.preset("prisoners-dilemma"), "point", 1),  # its one CE: both defect
        (rmcore.MatrixGame([[1, 1], [0, 0]], [[1, 1], [0, 0]]), "segment", 2),  # the top row, any column
        (rmcore.MatrixGame([[1, 0], [0, 0]], [[2, 2], [2, 2]]), "triangle", 3),  # s_21 = 0: one face
        (rmcore.MatrixGame([[3, 3], [3, 3]], [[1, 1], [1, 1]]), "tetrahedron", 4),  # nobody ever gains
    ],
)
def test_degenerate_sets_are_drawn_as_what_they_are(game, kind, corners):
    spec = cf.tetrahedron_figure(game)
    go.Figure(spec)
    drawn = [t for t in spec["data"] if t.get("meta") == cf.CE_META]
    if kind == "point":
        (trace,) = drawn
        assert trace["type"] == "scatter3d" and trace["mode"] == "markers" and len(points_of(trace)) == 1
        np.testing.assert_allclose(barycentric(points_of(trace)), [[0, 0, 0, 1]], atol=1e-12)
    elif kind == "segment":
        (trace,) = drawn
        assert trace["type"] == "scatter3d" and trace["mode"] == "lines"
        ends = barycentric(points_of(trace))
        np.testing.assert_allclose(sorted(map(tuple, ends)), [(0, 1, 0, 0), (1, 0, 0, 0)], atol=1e-12)
    else:
        mesh = [t for t in drawn if t["type"] == "mesh3d"][0]
        assert len(points_of(mesh)) == corners and len(mesh["i"]) == (1 if kind == "triangle" else 4)
        if kind == "triangle":
            assert np.abs(barycentric(points_of(mesh))[:, 2]).max() < 1e-12


def test_the_projector_and_a_legend_beside_the_plot_keep_the_figure_valid():
    from rmcore.plotting.charts import for_projector, legend_right

    spec = cf.tetrahedron_figure(CHICKEN, a_trail())
    projected = for_projector(spec)
    go.Figure(projected)
    go.Figure(legend_right(spec))
    labels = [t for t in projected["data"] if t.get("name") == "joint actions"][0]
    assert labels["textfont"]["size"] >= 18 and projected["layout"]["scene"] == spec["layout"]["scene"]
    go.Figure(for_projector(cf.joint_heatmaps_figure(np.eye(3) / 3, np.full((3, 3), 1 / 9))))


def test_action_names_reach_the_figures_as_typed_never_as_html():
    typed = ("<b>x</b>", "<a href='y'>y</a>")
    game = rmcore.MatrixGame(CHICKEN.row_payoffs, CHICKEN.col_payoffs, row_actions=typed, col_actions=("p", "q"))
    labels = by_name(cf.tetrahedron_figure(game), "joint actions")["text"]
    assert labels[0] == "(&lt;b&gt;x&lt;/b&gt;, p)" and all("<" not in label for label in labels)
    heatmaps = cf.joint_heatmaps_figure(np.eye(2) / 2, np.eye(2) / 2, game)
    assert list(heatmaps["data"][0]["y"]) == ["&lt;b&gt;x&lt;/b&gt;", "&lt;a href='y'&gt;y&lt;/a&gt;"]


def test_a_long_trail_is_thinned_and_keeps_its_last_point():
    trail = a_trail(cf.MAX_TRAIL_POINTS * 3 + 7)
    spec = cf.tetrahedron_figure(CHICKEN, trail)
    path = points_of(by_name(spec, words.TRAIL))
    assert len(path) <= cf.MAX_TRAIL_POINTS
    np.testing.assert_allclose(barycentric(path[-1:]), trail[-1:].reshape(1, 4), atol=1e-12)


def test_the_cached_layers_are_the_same_for_an_equal_game_and_a_caller_cannot_change_them():
    first = cf.tetrahedron_figure(CHICKEN)
    first["data"][0]["name"] = "changed"
    again = cf.tetrahedron_figure(rmcore.MatrixGame(CHICKEN.row_payoffs, CHICKEN.col_payoffs, ("Swerve", "Dare")))
    assert again["data"][0]["name"] == "edges"
    with pytest.raises(ValueError):
        again["data"][2]["z"][0, 0] = 5.0
    other = cf.tetrahedron_figure(rmcore.preset("battle-of-sexes"))
    assert len(points_of(by_meta(other, cf.CE_META, "mesh3d"))) == 5


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: cf.tetrahedron_figure(rmcore.preset("shapley")), "this game is 3x3 (joint_heatmaps_figure"),
        (lambda: cf.tetrahedron_figure("chicken"), "got str"),
        (lambda: cf.tetrahedron_figure(CHICKEN, [[0.5, 0.5]]), "shape (T, 2, 2) or (T, 4); got (1, 2)"),
        (lambda: cf.tetrahedron_figure(CHICKEN, [[0.5, 0.5, 0.5, 0]]), "distribution 1 sums to 1.5, not 1"),
        (lambda: cf.tetrahedron_figure(CHICKEN, [[1.5, -0.5, 0, 0]]), "finite and none negative"),
        (lambda: cf.tetrahedron_figure(CHICKEN, "abc"), "a list of 2x2 joint distributions"),
        (lambda: cf.tetrahedron_figure(CHICKEN, []), "got (0,)"),
    ],
)
def test_bad_input_is_refused_with_a_sentence(call, message):
    with pytest.raises(ValueError) as caught:
        call()
    assert message in str(caught.value)


def test_chickens_traffic_light_is_marked_labelled_halfway_between_its_two_pure_equilibria():
    spec = cf.tetrahedron_figure(CHICKEN, a_trail())
    light = by_meta(spec, cf.TRAFFIC_LIGHT_META, "scatter3d")
    assert light["name"] == words.TRAFFIC_LIGHT and light["text"] == [words.TRAFFIC_LIGHT_LABEL]
    assert "text" in light["mode"]
    point = points_of(light)
    np.testing.assert_allclose(point, [[0.0, 0.0, -1.0]], atol=1e-15)  # the midpoint of (Swerve, Dare), (Dare, Swerve)
    np.testing.assert_allclose(barycentric(point), [[0.0, 0.5, 0.5, 0.0]], atol=1e-15)
    joint = cf.traffic_light(CHICKEN)
    assert rmcore.ce_gap(CHICKEN, joint) == 0.0 and light["customdata"][0][2] == 9.0  # a CE, 4.5 each
    assert cf.pure_equilibria(CHICKEN) == [(0, 1), (1, 0)]
    # a game without two pure equilibria off the diagonal has no traffic light to mark
    for name in ("battle-of-sexes", "prisoners-dilemma", "stag-hunt"):
        other = cf.tetrahedron_figure(rmcore.preset(name))
        assert cf.traffic_light(rmcore.preset(name)) is None
        assert not [t for t in other["data"] if t.get("meta") == cf.TRAFFIC_LIGHT_META]
    with pytest.raises(ValueError, match="got str"):
        cf.traffic_light("chicken")


# -- the heatmaps -----------------------------------------------------------------------------------------------------


def test_a_random_3x3_games_heatmaps_show_the_joint_play_beside_its_closest_ce():
    game = rmcore.preset("random-general-sum", rows=3, cols=3, seed=2)
    joint = np.random.default_rng(0).dirichlet(np.ones(9)).reshape(3, 3)
    closest = rmcore.closest_correlated_equilibrium(game, joint)
    spec = cf.joint_heatmaps_figure(joint, closest, game)
    go.Figure(spec)
    left, right = spec["data"]
    assert (left["type"], right["type"]) == ("heatmap", "heatmap")
    np.testing.assert_array_equal(left["z"], joint)
    np.testing.assert_array_equal(right["z"], closest.joint)
    assert left["zmax"] == right["zmax"] == max(joint.max(), closest.joint.max()) and left["zmin"] == 0
    assert list(left["x"]) == list(game.col_actions) and list(left["y"]) == list(game.row_actions)
    titles = [a["text"] for a in spec["layout"]["annotations"]]
    assert titles == [words.JOINT_PANEL, words.closest_panel(False, closest.distance)]
    assert f"{closest.distance:.3g}" in titles[1] and "CE" in titles[1]
    assert "texttemplate" in left  # (3x3: every cell's probability printed)
    coarse = rmcore.closest_correlated_equilibrium(game, joint, coarse=True)
    assert "closest CCE" in cf.joint_heatmaps_figure(joint, coarse, game)["layout"]["annotations"][1]["text"]


def test_a_large_games_heatmaps_print_no_numbers_and_a_bare_table_is_taken_as_a_ce():
    joint = np.full((12, 10), 1 / 120)
    spec = cf.joint_heatmaps_figure(joint, joint)
    assert "texttemplate" not in spec["data"][0] and list(spec["data"][0]["y"])[:2] == ["R1", "R2"]
    assert spec["layout"]["annotations"][1]["text"] == words.closest_panel(False, 0.0)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: cf.joint_heatmaps_figure(np.eye(2) / 2, np.eye(3) / 3), "differ in shape"),
        (lambda: cf.joint_heatmaps_figure([[0.5, -0.5]], [[1, 0]]), "finite, non-negative"),
        (lambda: cf.joint_heatmaps_figure("x", [[1, 0]]), "table of"),
        (lambda: cf.joint_heatmaps_figure(np.eye(2) / 2, np.eye(2) / 2, CHICKEN.__class__(np.eye(3))), "game is 3x3"),
    ],
)
def test_bad_heatmap_input_is_refused_with_a_sentence(call, message):
    with pytest.raises(ValueError) as caught:
        call()
    assert message in str(caught.value)


# -- drawn by kaleido -------------------------------------------------------------------------------------------------


def test_both_figures_draw_at_1280x720(tmp_path):
    from PIL import Image

    from rmcore.plotting import images
    from ui.matrix import animation

    missing = animation.available()
    if missing is not None:
        pytest.skip(missing)
    game = rmcore.preset("random-general-sum", rows=3, cols=3, seed=2)
    joint = np.random.default_rng(0).dirichlet(np.ones(9)).reshape(3, 3)
    heatmaps = cf.joint_heatmaps_figure(joint, rmcore.closest_correlated_equilibrium(game, joint), game)
    drawn = images.render([cf.tetrahedron_figure(CHICKEN, a_trail()), heatmaps], "png", (1280, 720))
    for name, png in zip(("tetrahedron", "heatmaps"), drawn):
        (tmp_path / f"{name}.png").write_bytes(png)
    tetrahedron = np.asarray(Image.open(tmp_path / "tetrahedron.png").convert("RGB")).astype(int)
    assert tetrahedron.shape == (720, 1280, 3)
    # The CE solid is drawn: green pixels (its colour, shaded), and the trail's blue ones.
    red, green, blue = tetrahedron[..., 0], tetrahedron[..., 1], tetrahedron[..., 2]
    assert ((green > red + 40) & (green > blue + 40)).sum() > 2000
    assert ((blue > red + 60) & (blue > green + 20) & (blue < 230)).sum() > 200
    heat = np.asarray(Image.open(tmp_path / "heatmaps.png").convert("RGB")).astype(int)
    assert heat.shape == (720, 1280, 3) and heat.std() > 20
