"""How often a watched solver's charts update in a notebook, and how long an update keeps the kernel from answering
(a measurement, printed; speed targets are not asserted in tests):

    python -m benchmarks.notebook_rate                   # CFR+ on Kuhn poker, as fast as possible, 10 seconds
    python -m benchmarks.notebook_rate --game leduc --seconds 20

The view (``rmcore.plotting.watch``) runs in its own thread as in a notebook, without a browser: its widgets hold
what they would send. Meanwhile this thread stands in for the kernel, waking every millisecond; the longest it waited
beyond that is the longest the view's thread held the interpreter (the GIL) in one go. Printed: updates a second,
the longest drawing time of an update (``Watch.longest_update``), that longest wait, and the load average (on a
shared machine the times follow the load).
"""

from __future__ import annotations

import argparse
import os
import time

import rmcore
from rmcore.plotting import watch


def main() -> None:
    parser = argparse.ArgumentParser(description="Time a watched solver's updates.")
    parser.add_argument("--game", default="kuhn", choices=sorted(rmcore.TREE_GAMES))
    parser.add_argument("--algorithm", default="cfr+")
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    solver = rmcore.CFRSolver(rmcore.tree_game(args.game), args.algorithm)
    solver.run(1)  # (the kernels loaded before the clock starts)
    view = watch(solver, image=False)
    view.update()
    first = view.updates
    view.play()
    began = last = time.perf_counter()
    longest_wait = 0.0
    while time.perf_counter() - began < args.seconds:
        time.sleep(0.001)
        now = time.perf_counter()
        longest_wait = max(longest_wait, now - last - 0.001)
        last = now
    elapsed = time.perf_counter() - began
    view.pause()
    updates = view.updates - first
    print(f"{args.algorithm} on {args.game}: {updates} updates in {elapsed:.1f} s ({updates / elapsed:.1f} a second)")
    print(f"iterations: {solver.iteration:,}")
    print(f"longest drawing of an update: {view.longest_update * 1000:.0f} ms")
    print(f"longest wait of the kernel's thread: {longest_wait * 1000:.0f} ms")
    print(f"load average: {' '.join(f'{v:.1f}' for v in os.getloadavg())} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
