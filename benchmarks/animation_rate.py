"""How long a 300-frame animation of the strategy chart takes to make, as the page and
``ui.matrix.animation.animate`` make it (a measurement, printed and written to ``docs/performance/animation.json``;
speed targets are not asserted in tests):

    python -m benchmarks.animation_rate                  # matching pennies under Hedge, 600 iterations, 300 frames
    python -m benchmarks.animation_rate --frames 150 --tabs 3

Times, each from scratch (a browser started for it): ``animate(solver, "gif")`` and ``animate(solver, "mp4")`` from
the call to the file's bytes (the frames' figures built, drawn by kaleido and written by imageio as they are drawn),
and the drawing alone (``render_frames``). The load average of the machine is printed beside them: on a shared
machine the times follow the load.
"""

from __future__ import annotations

import argparse
import os
import time

import imageio.v3 as iio

import rmcore
from benchmarks import results
from rmcore.plotting import images
from ui.matrix import animation


def _frames_in(made: bytes, kind: str) -> tuple[int, int, int]:
    """``(frames, height, width)`` of an animation, read back by imageio."""
    options = {"plugin": "FFMPEG"} if kind == "mp4" else {}
    return iio.imread(made, index=None, extension=f".{kind}", **options).shape[:3]


def main() -> None:
    parser = argparse.ArgumentParser(description="Time a 300-frame animation of the strategy chart.")
    parser.add_argument("--frames", type=int, default=300)
    parser.add_argument("--tabs", type=int, default=images.TABS, help="kaleido tabs drawing at once")
    args = parser.parse_args()
    images.TABS = args.tabs
    game = rmcore.preset("matching-pennies")
    # Every iteration kept (as the page keeps a small game's): each of the frames draws a state of its own.
    solver = rmcore.MatrixSolver(game, "hedge", start=game.start, history_share=None)
    solver.run(600)
    load_before = os.getloadavg()[0]
    started = time.perf_counter()
    figures = animation.frames_of(solver, args.frames)
    animation.render_frames(figures)
    drawing = time.perf_counter() - started
    seconds, sizes = {}, {}
    for kind in animation.FORMATS:
        started = time.perf_counter()
        made = animation.animate(solver, kind, frames=args.frames)
        seconds[kind] = time.perf_counter() - started
        sizes[kind] = len(made)
        shape = _frames_in(made, kind)
        if shape != (args.frames, animation.SIZE[1], animation.SIZE[0]):
            raise SystemExit(f"the {kind.upper()} holds {shape} (frames, height, width), not what was asked")
    load_after = os.getloadavg()[0]
    print(
        f"{args.frames} frames of {animation.SIZE[0]}x{animation.SIZE[1]}, {args.tabs} kaleido tab(s): drawing alone "
        f"{drawing:.1f} s ({drawing / args.frames * 1000:.0f} ms a frame); GIF in all {seconds['gif']:.1f} s "
        f"({sizes['gif'] / 1e6:.1f} MB), MP4 in all {seconds['mp4']:.1f} s ({sizes['mp4'] / 1e6:.1f} MB); load "
        f"average {load_before:.1f} before, {load_after:.1f} after, {os.cpu_count()} cores"
    )
    what = f"{args.frames} frames, {args.tabs} tab(s)"
    target = f"< 60 s for {args.frames} frames"
    measured = [
        results.Row("animation_drawing_frame", f"drawing a frame ({what})", drawing / args.frames, "s"),
        *(
            results.Row(
                f"animation_{kind}",
                f"a{'n' if kind == 'mp4' else ''} {kind.upper()} in all ({what})",
                seconds[kind],
                "s",
                target=target,
                met=seconds[kind] < 60,
            )
            for kind in animation.FORMATS
        ),
    ]
    command = f"python -m benchmarks.animation_rate --frames {args.frames} --tabs {args.tabs}"
    print(f"written to {results.write('animation', measured, command)}")


if __name__ == "__main__":
    main()
