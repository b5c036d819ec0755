"""A class on one server: N sessions press Run on the matrix page at once; print what each of them gets.

    python -m benchmarks.load --sessions 30         # starts `streamlit run` pinned to core 0; the clients on core 1
    python -m benchmarks.load --sessions 30 --seconds 20 --url http://127.0.0.1:8080   # a running server (a balancer)
    python -m benchmarks.load --sessions 1 --hostile 30  # one session beside 30 tabs opened from the heaviest link

Each session is a light client that speaks Streamlit's own websocket protocol, as a browser tab does: it asks for
the page, receives every element the page draws (four live charts included, which it does not draw), presses Run
by sending the switch's new value, and asks for a rerun of the live fragment each time the fragment's timer says,
exactly as the browser's ``setInterval`` does. So the server does all its real work for every session (solver,
figures, Streamlit's rerun, the messages), while 30 clients together need a small part of the other core: 30
Chromium tabs saturated it at 2 sessions.

Printed: each session's screen updates per second (counted from changes of the iteration metric), the Pause latency
(from sending Pause until the server's paused page has arrived and no update with a new iteration comes after it; p50 /
p95 over all sessions, each pressing Pause while the others keep running), the server's CPU per screen update, and its
memory: after warm-up, at the end of the run, and once every session has closed (its tab gone) and the server has let go
of it. First of all it prints how long a fixed Python loop takes on the server's core, so that runs made in different
hours (a shared machine's speed drifts) can be compared. A measurement, not a test: nothing is asserted. The figures
go to ``docs/performance/load.json`` (``--key`` names the case; by default ``load_{sessions}``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shlex
import statistics
import sys
import tempfile
import time
from pathlib import Path

from benchmarks import results

#: The screen updates a second every session should get, thirty of them on one core included.
TARGET_RATE = 3.0
#: The Pause latency every session should get (p95), in seconds.
TARGET_PAUSE = 0.3
#: The matrix page's Run / Pause switch as the browser sends it: the formatted option.
RUN, PAUSE = ":material/play_arrow: Run", ":material/pause: Pause"
RUN_KEY_SUFFIX = "-matrix_running"
#: The heaviest link a page takes: Leduc, every CFR variant, 20 seeds of each sampled one, run to a million iterations
#: (48 solvers; the page opens after one time-bounded update and runs the rest in the governor's turns).
HEAVIEST_LINK = (
    "game_trees",
    "kuhn_game=Leduc+hold%27em&"
    + "&".join(
        f"kuhn_variants={name}+%C2%B7+{updates}"
        for name in ("cfr", "cfr%2B", "linear", "discounted", "chance-sampling")
        for updates in ("alternating", "simultaneous")
    )
    + "&kuhn_seeds=20&run_to=1000000",
)
#: The same on Liar's dice with six sides (294,876 histories a run): what a session may hold is cut to what fits
#: (``ui.live.SESSION_SOLVER_BYTES``), and the page says so.
HEAVIEST_LIARS_LINK = (
    "game_trees",
    "kuhn_game=Liar%27s+dice&kuhn_liars_dice_sides=6&"
    + "&".join(
        f"kuhn_variants={name}+%C2%B7+{updates}"
        for name in ("cfr", "cfr%2B", "linear", "discounted", "chance-sampling")
        for updates in ("alternating", "simultaneous")
    )
    + "&kuhn_seeds=20&run_to=1000000",
)
HEAVIEST = {"leduc": HEAVIEST_LINK, "liars": HEAVIEST_LIARS_LINK}
HEAVIEST_NAMES = {"leduc": "Leduc", "liars": "Liar's dice"}


def _memory_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class Session:
    """One browser tab's conversation with the server, without the drawing."""

    def __init__(self, url: str, query: str = "", page: str = ""):
        self.url = url.replace("http://", "ws://").replace("https://", "wss://").rstrip("/") + "/_stcore/stream"
        self.query, self.page = query, page
        self._switch_suffix = f"-{'kuhn' if page in ('game_trees', 'kuhn_poker') else 'matrix'}_running"
        self.changes: list[tuple[float, str]] = []  # (time, iteration shown) at every new iteration
        self.page_runs: list[float] = []  # when each full run of the page finished (the answer to a click)
        self.errors: list[str] = []
        self.updates_requested = 0
        self._run_switch: str | None = None  # the switch's widget id, learnt from the page
        self._widgets: dict[str, str] = {}
        self._timers: dict[str, asyncio.Task] = {}
        self._shown = ""
        self._socket = None
        self._reader: asyncio.Task | None = None
        self._ready = asyncio.Event()
        self.cookie = ""  # a load balancer's routing cookie, if it sets one (deploy/nginx.conf)
        self.replica = ""  # which replica the websocket reached, if the balancer says (X-Replica)
        self.http_url = url.rstrip("/")

    async def open(self) -> None:
        import websockets

        self.cookie, _ = await asyncio.to_thread(_get, self.http_url + "/", "")  # as a tab first loads the page
        headers = {"Cookie": self.cookie} if self.cookie else None
        self._socket = await websockets.connect(
            self.url, subprotocols=["streamlit"], max_size=None, open_timeout=120, additional_headers=headers
        )
        self.replica = self._socket.response.headers.get("X-Replica", "")
        self._reader = asyncio.create_task(self._read())
        await self._rerun()
        await asyncio.wait_for(self._ready.wait(), 300)

    async def press(self, option: str) -> None:
        self._widgets[self._run_switch] = option
        await self._rerun()

    async def close(self) -> None:
        for timer in self._timers.values():
            timer.cancel()
        await self._socket.close()
        self._reader.cancel()

    async def _rerun(self, fragment_id: str = "") -> None:
        from streamlit.proto.BackMsg_pb2 import BackMsg

        message = BackMsg()
        request = message.rerun_script
        request.query_string = self.query
        request.page_name = self.page
        for widget_id, value in self._widgets.items():
            state = request.widget_states.widgets.add()
            state.id = widget_id
            state.string_array_value.data.append(value)
        if fragment_id:
            request.fragment_id = fragment_id
            request.is_auto_rerun = True
        await self._socket.send(message.SerializeToString())

    async def _every(self, fragment_id: str, interval: float) -> None:
        """The browser's timer for a running fragment: a rerun request every ``interval``, whether or not the last is
        done."""
        while True:
            await asyncio.sleep(interval)
            self.updates_requested += 1
            await self._rerun(fragment_id)

    async def _read(self) -> None:
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        async for data in self._socket:
            message = ForwardMsg()
            message.ParseFromString(data)
            kind = message.WhichOneof("type")
            if kind == "delta" and message.delta.WhichOneof("type") == "new_element":
                element = message.delta.new_element
                what = element.WhichOneof("type")
                if what == "metric" and element.metric.label == "iteration" and element.metric.body != self._shown:
                    self._shown = element.metric.body
                    self.changes.append((time.perf_counter(), self._shown))
                elif what == "button_group" and element.button_group.id.endswith(self._switch_suffix):
                    self._run_switch = element.button_group.id
                    self._ready.set()
                elif what == "exception":
                    self.errors.append(element.exception.message)
            elif kind == "script_finished" and message.script_finished == ForwardMsg.FINISHED_SUCCESSFULLY:
                self.page_runs.append(time.perf_counter())
            elif kind == "new_session" and not message.metadata.run.fragment_ids:
                for timer in self._timers.values():  # a full run of the page: the browser drops every fragment timer
                    timer.cancel()
                self._timers.clear()
            elif kind == "auto_rerun":
                fragment_id, interval = message.auto_rerun.fragment_id, message.auto_rerun.interval
                if fragment_id in self._timers:
                    self._timers.pop(fragment_id).cancel()
                self._timers[fragment_id] = asyncio.create_task(self._every(fragment_id, interval))
            elif kind == "stop_auto_rerun":
                for fragment_id in message.stop_auto_rerun.fragment_ids:
                    if fragment_id in self._timers:
                        self._timers.pop(fragment_id).cancel()


def _get(url: str, cookie: str) -> tuple[str, str]:
    """GET ``url`` with ``cookie``; the routing cookie it sets (else the one given) and the replica that answered."""
    import urllib.request

    request = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})
    with urllib.request.urlopen(request, timeout=60) as response:
        set_cookie = response.headers.get("Set-Cookie", "")
        return (set_cookie.split(";")[0] if set_cookie else cookie), response.headers.get("X-Replica", "")


def _iterations_in(changes: list[tuple[float, str]], start: float, stop: float) -> int:
    """Iterations a session advanced between ``start`` and ``stop``, read from the iterations it was shown."""
    shown = [int(text.replace(",", "")) for t, text in changes if start <= t < stop and text.replace(",", "").isdigit()]
    before = [int(text.replace(",", "")) for t, text in changes if t < start and text.replace(",", "").isdigit()]
    return shown[-1] - (before[-1] if before else shown[0]) if shown else 0


def governor_stats(path: Path | None) -> tuple[int, float, int] | None:
    """The server's own counters (``ui/governor.py``, written when ``RM_GOVERNOR_STATS`` names a file): turns taken,
    solver CPU seconds so far, and the live runs the server's sessions hold."""
    if path is None or not path.exists():
        return None
    fields = path.read_text().split()
    if len(fields) != 3:  # (caught while the server rewrites it)
        time.sleep(0.05)
        fields = path.read_text().split()
    turns, seconds, runs = fields
    return int(turns), float(seconds), int(runs)


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time a process (all its threads) has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def machine_speed() -> float:
    """Milliseconds a fixed pure-Python workload takes on this core now, the best of five.

    This machine's speed drifts by up to twofold within an hour (a shared host), so a number from one run means
    little beside a number from another unless each says how fast the machine was when it ran."""
    best = float("inf")
    for _ in range(5):
        started = time.thread_time()
        total = 0
        for i in range(1_000_000):
            total += i % 7
        best = min(best, time.thread_time() - started)
    return 1000 * best


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]


async def measure(
    url: str,
    sessions: int,
    seconds: float,
    pid: int | None,
    linger: float,
    stats: Path | None = None,
    hostile: int = 0,
    heaviest: tuple[str, str] = HEAVIEST_LINK,
) -> dict:
    """Open ``sessions`` sessions, press Run in each, count for ``seconds``, pause each in turn, close; print and return
    the numbers.

    With ``hostile``, that many more sessions are opened first from :data:`HEAVIEST_LINK` (they run on their own, from
    the link) and left running throughout; only the ``sessions`` are counted.
    """
    heavy = [Session(url, heaviest[1], heaviest[0]) for _ in range(hostile)]
    for number, client in enumerate(heavy, 1):
        await client.open()
        print(f"\r{number} sessions from the heaviest link open", end="", flush=True)
    if heavy:
        print()
    clients = [Session(url) for _ in range(sessions)]
    started = time.perf_counter()
    for number, client in enumerate(clients, 1):  # one after another, as students arrive
        await client.open()
        print(f"\r{number} sessions open", end="", flush=True)
    print()
    opened = time.perf_counter() - started
    memory_idle = _memory_mb(pid) if pid else None
    await asyncio.gather(*(client.press(RUN) for client in clients))
    await asyncio.sleep(3.0)  # every session's first chunk and charts
    memory_warm = _memory_mb(pid) if pid else None
    counted_from = time.perf_counter()
    cpu_before, stats_before = (cpu_seconds(pid) if pid else None), governor_stats(stats)
    memory_trace = []  # (seconds into the count, MB, the least iterations any session has reached), every 30 s
    while (elapsed := time.perf_counter() - counted_from) < seconds:
        await asyncio.sleep(min(30.0, seconds - elapsed))
        if pid:
            least = min(int(c.changes[-1][1].replace(",", "")) if c.changes else 0 for c in clients)
            memory_trace.append((time.perf_counter() - counted_from, _memory_mb(pid), least))
    cpu_used, stats_after = (cpu_seconds(pid) - cpu_before if pid else None), governor_stats(stats)
    counted_to = time.perf_counter()
    counts = [sum(counted_from <= t < counted_to for t, _ in client.changes) for client in clients]
    advanced = sum(_iterations_in(client.changes, counted_from, counted_to) for client in clients)
    rates = [count / seconds for count in counts]
    memory_running = _memory_mb(pid) if pid else None

    # Pause one session at a time, a quarter of a second apart, while the others keep running; a session's latency is
    # the time from its message until the last new iteration that still arrived.
    pressed = []
    for client in clients:
        pressed.append(time.perf_counter())
        await client.press(PAUSE)
        await asyncio.sleep(0.25)
    await asyncio.sleep(
        min(10.0, max(2.0, 3.0 / max(statistics.median(rates), 0.1)))
    )  # three updates' time: a late one shows
    delays, answers = [], []
    for client, at in zip(clients, pressed):
        late = [t for t, _ in client.changes if t > at]
        answered = [t for t in client.page_runs if t > at]
        answers.append(min(answered) - at if answered else float("inf"))
        delays.append(max([t - at for t in late] + [answers[-1]]))
    errors = [error for client in clients + heavy for error in client.errors]
    for client in clients + heavy:
        await client.close()
    memory_closed = runs_closed = None
    if pid and linger:
        await asyncio.sleep(linger)
        memory_closed = _memory_mb(pid)
        runs_closed = (governor_stats(stats) or (0, 0.0, None))[2]
    reached = [int(client.changes[-1][1].replace(",", "")) if client.changes else 0 for client in clients]

    print(f"{sessions} sessions open after {opened:.1f} s")
    replicas = [client.replica for client in clients if client.replica]
    if replicas:  # behind a balancer that names its replica: how the sessions spread, and whether they stay put
        spread = {replica: replicas.count(replica) for replica in sorted(set(replicas))}
        again = [
            (await asyncio.to_thread(_get, client.http_url + "/_stcore/health", client.cookie))[1] for client in clients
        ]
        stayed = sum(a == c.replica for a, c in zip(again, clients))
        print(
            f"sessions per replica: {spread}; a later request with the session's cookie reached its replica for "
            f"{stayed} of {sessions}"
        )
    print(
        f"screen updates per second per session: min {min(rates):.2f}, median {statistics.median(rates):.2f}, "
        f"max {max(rates):.2f} (over {seconds:.0f} s)"
    )
    print("  every session's, slowest first: " + " ".join(f"{rate:.2f}" for rate in sorted(rates)))
    print(
        "Pause latency (until the paused page has arrived and no new iteration after it): p50 "
        f"{statistics.median(delays):.2f} s, p95 {_p95(delays):.2f} s, max {max(delays):.2f} s; updates that still "
        f"arrived after a Pause: {sum(1 for c, at in zip(clients, pressed) for t, _ in c.changes if t > at)}"
    )
    result = dict(sessions=sessions, rates=rates, delays=delays, errors=errors)
    if pid:
        updates = sum(counts)
        turns = stats_after[0] - stats_before[0] if stats_before and stats_after else updates
        # The server's CPU serves every session (the --hostile ones too): shared over every update the governor
        # counted, the updates of the sessions not counted here included.
        per_update = 1000 * cpu_used / max(turns, 1)
        print(
            f"server CPU: {cpu_used / seconds:.2f} cores; {per_update:.1f} ms per screen update ({turns} updates of "
            f"every session; {advanced / max(updates, 1):,.0f} iterations each in the {updates} counted)"
        )
        solver = float("nan")
        if stats_before and stats_after:  # the solver's CPU time as the server counted it
            solver = 1000 * (stats_after[1] - stats_before[1]) / max(turns, 1)
            print(
                f"  of which the solver {solver:.1f} ms and everything else (figures, Streamlit's rerun, the messages) "
                f"{per_update - solver:.1f} ms"
            )
        print(
            f"server memory: {memory_idle:.0f} MB with the sessions open, {memory_warm:.0f} MB after 3 s running, "
            f"{memory_running:.0f} MB after {seconds:.0f} s more"
            + (f", {memory_closed:.0f} MB {linger:.0f} s after they closed" if memory_closed else "")
        )
        result.update(
            cpu_per_update_ms=per_update,
            outside_solver_ms=per_update - solver,
            memory=(memory_idle, memory_warm, memory_running, memory_closed),
        )
    print(f"iterations reached per session: min {min(reached):,}, median {statistics.median(reached):,.0f}")
    for number, (client, rate) in enumerate(zip(clients, rates), 1):
        if rate < TARGET_RATE:  # what a slow session saw, to tell a slow server from a stalled client or a finished run
            shown = [
                f"{t - counted_from:.1f} s: {text}" for t, text in client.changes if counted_from <= t < counted_to
            ]
            print(
                f"  session {number} ({rate:.2f} updates a second): {client.updates_requested} updates requested, "
                f"{len(client.page_runs)} full page runs, shown while counted: {', '.join(shown) or 'nothing'}"
            )
    if len(memory_trace) > 1:
        print(
            "server memory while running: "
            + ", ".join(f"{mb:.0f} MB at {t:.0f} s (every session past {least:.1e})" for t, mb, least in memory_trace)
        )
    if runs_closed is not None:
        print(f"live runs the server still holds {linger:.0f} s after every session closed: {runs_closed}")
    result.update(reached=reached, runs_closed=runs_closed)
    print(f"errors shown: {len(errors)}" + (f" (first: {errors[0][:200]})" if errors else ""))
    return result


def main() -> None:
    from tests.browser import running_app, server_pid

    parser = argparse.ArgumentParser(
        description="N sessions running at once against one server: updates/s, Pause latency, CPU, memory."
    )
    parser.add_argument("--sessions", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--url", help="an already running server (default: start one, pinned to core 0)")
    parser.add_argument(
        "--hostile", type=int, default=0, help="first open this many sessions from the heaviest link (not counted)"
    )
    parser.add_argument(
        "--heaviest", choices=sorted(HEAVIEST), default="leduc", help="which heaviest link --hostile opens"
    )
    parser.add_argument(
        "--linger",
        type=float,
        default=0.0,
        help="after closing every session, wait this long and read the memory again",
    )
    parser.add_argument(
        "--key", help="the data file's name for this case (default load_SESSIONS, load_replicas_SESSIONS)"
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        help="a `streamlit run` option for the started server, e.g. --option=--server.disconnectedSessionTTL=5",
    )
    args = parser.parse_args()
    cores = sorted(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cores[0]})
    print(
        f"machine speed: a fixed Python loop takes {machine_speed():.0f} ms on the server's core now (lower is faster)"
    )
    os.sched_setaffinity(0, set(cores))
    stats = None
    if args.url:
        server = contextlib.nullcontext(args.url)
    else:
        stats = Path(tempfile.mkdtemp(prefix="rm-load-")) / "governor.txt"
        os.environ["RM_GOVERNOR_STATS"] = str(stats)  # the server started below inherits it
        server = running_app(cpus=str(cores[0]), timeout=120, options=tuple(args.option))
    with server as url:
        if len(cores) > 1:
            os.sched_setaffinity(0, {cores[-1]})
        pid = None if args.url else server_pid(url)
        result = asyncio.run(
            measure(url, args.sessions, args.seconds, pid, args.linger, stats, args.hostile, HEAVIEST[args.heaviest])
        )
    os.sched_setaffinity(0, set(cores))  # (the data file records the machine's cores, not this process's pinning)
    key = args.key or (f"load_replicas_{args.sessions}" if args.url else f"load_{args.sessions}")
    if args.hostile:
        suffix = "" if args.heaviest == "leduc" else f"_{args.heaviest}"
        key = args.key or f"{key}_beside_{args.hostile}_heaviest{suffix}"
    command = shlex.join(["python", "-m", "benchmarks.load", *sys.argv[1:]])
    rows = _rows(key, args.sessions, result, args.hostile, HEAVIEST_NAMES[args.heaviest])
    print(f"written to {results.write('load', rows, command)}")


def _rows(key: str, sessions: int, result: dict, hostile: int = 0, heaviest: str = "") -> list[results.Row]:
    """A load measurement as data rows: the slowest and the median session's updates a second, the Pause latency's
    p95, and (for a server this script started) the server's CPU per update, outside the solver, and its memory.

    The CPU per update outside the solver has its target where the counted sessions make most of the updates (fewer
    ``hostile`` sessions than counted ones): beside more tabs of the heaviest link it measures their race panels."""
    rates, delays = result["rates"], result["delays"]
    what = f"{sessions} session(s)" + (f" beside {hostile} of the heaviest {heaviest} link" if hostile else "")
    out = [
        results.Row(
            f"{key}_slowest",
            f"{what}: the slowest session's updates",
            min(rates),
            "updates a second",
            target=f">= {TARGET_RATE:g} updates a second",
            met=min(rates) >= TARGET_RATE,
        ),
        results.Row(
            f"{key}_median", f"{what}: the median session's updates", statistics.median(rates), "updates a second"
        ),
        results.Row(
            f"{key}_pause_p95",
            f"{what}: Pause latency, p95",
            _p95(delays),
            "s",
            target=f"<= {TARGET_PAUSE:g} s",
            met=_p95(delays) <= TARGET_PAUSE,
        ),
        results.Row(f"{key}_errors", f"{what}: errors shown", float(len(result["errors"])), "errors"),
    ]
    if "cpu_per_update_ms" in result:
        outside = result["outside_solver_ms"]
        out += [
            results.Row(f"{key}_cpu_per_update", f"{what}: server CPU per update", result["cpu_per_update_ms"], "ms"),
            results.Row(
                f"{key}_outside_solver",
                f"{what}: server CPU per update outside the solver",
                outside,
                "ms",
                target="<= 10 ms" if hostile < sessions else "",
                met=bool(outside <= 10) if hostile < sessions else None,
            ),
            results.Row(f"{key}_memory", f"{what}: server memory at the end", result["memory"][2], "MB"),
        ]
    return out


if __name__ == "__main__":
    main()
