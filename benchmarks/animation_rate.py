"""How long a 300-frame animation of the strategy chart takes to make, step by step (a measurement, printed and written
to ``docs/performance/animation.json``; speed targets are not asserted in tests):

    python -m benchmarks.animation_rate                  # matching pennies under Hedge, 600 iterations, 300 frames
    python -m benchmarks.animation_rate --frames 150 --tabs 3

Prints the seconds to build the figures, to draw them (kaleido, one browser session), to write the GIF and the MP4,
and the load average of the machine beside them: on a shared machine the drawing time follows the load.
"""

from __future__ import annotations

import argparse
import os
import time

import rmcore
from benchmarks import results
from ui import animation


def main() -> None:
    parser = argparse.ArgumentParser(description="Time a 300-frame animation of the strategy chart.")
    parser.add_argument("--frames", type=int, default=300)
    parser.add_argument("--tabs", type=int, default=animation.TABS, help="kaleido tabs drawing at once")
    args = parser.parse_args()
    animation.TABS = args.tabs
    game = rmcore.preset("matching-pennies")
    solver = rmcore.MatrixSolver(game, "hedge", start=game.start)
    solver.run(600)
    load_before = os.getloadavg()[0]
    started = time.perf_counter()
    figures = animation.frames_of(solver, args.frames)
    built = time.perf_counter()
    frames = animation.render_frames(figures)
    drawn = time.perf_counter()
    gif = animation.encode(frames, "gif")
    gif_written = time.perf_counter()
    mp4 = animation.encode(frames, "mp4")
    mp4_written = time.perf_counter()
    print(
        f"{args.frames} frames of {animation.SIZE[0]}x{animation.SIZE[1]}, {args.tabs} kaleido tab(s): figures "
        f"{built - started:.1f} s, drawing {drawn - built:.1f} s ({(drawn - built) / args.frames * 1000:.0f} ms a "
        f"frame), GIF {gif_written - drawn:.1f} s ({len(gif) / 1e6:.1f} MB), MP4 {mp4_written - gif_written:.1f} s "
        f"({len(mp4) / 1e6:.1f} MB); GIF in all {gif_written - started:.1f} s, MP4 in all "
        f"{drawn - started + mp4_written - gif_written:.1f} s; load average {load_before:.1f} before, "
        f"{os.getloadavg()[0]:.1f} after, {os.cpu_count()} cores"
    )
    what = f"{args.frames} frames, {args.tabs} tab(s)"
    measured = [
        results.Row("animation_drawing_frame", f"drawing a frame ({what})", (drawn - built) / args.frames, "s"),
        results.Row(
            "animation_gif",
            f"a GIF in all ({what})",
            gif_written - started,
            "s",
            target=f"< 60 s for {args.frames} frames",
            met=gif_written - started < 60,
        ),
        results.Row("animation_mp4", f"an MP4 in all ({what})", drawn - started + mp4_written - gif_written, "s"),
    ]
    command = f"python -m benchmarks.animation_rate --frames {args.frames} --tabs {args.tabs}"
    print(f"written to {results.write('animation', measured, command)}")


if __name__ == "__main__":
    main()
