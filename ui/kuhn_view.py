"""The Kuhn poker page's state, live controller and sections."""

from __future__ import annotations

import time

import pandas as pd
import streamlit as st

import rmcore
from rmcore.kuhn import INFOSETS, VARIANTS

from . import kuhn_figures
from .controls import PAUSE, RUN, run_pause
from .live_run import TIME_BUDGET, UPDATE_INTERVAL

HISTORY_POINTS = 300
VARIANT_HELP = (
    "cfr: regret matching, uniform averaging. cfr+: regrets clipped at zero, averages weighted by t. "
    "linear: regrets and averages weighted by t. discounted: DCFR (α 1.5, β 0, γ 2). "
    "chance-sampling: Monte Carlo CFR, one sampled deal per iteration."
)


class KuhnRuns:
    """One :class:`rmcore.KuhnCFR` per chosen variant, advanced together chunk by chunk."""

    def __init__(self, variants: tuple[str, ...], updates: str, seed: int):
        self.key = (variants, updates, seed)
        self.solvers = {v: rmcore.KuhnCFR(v, updates=updates, seed=seed, max_points=HISTORY_POINTS) for v in variants}
        self.trace: list[rmcore.KuhnTrace] | None = None
        self.traced_iteration = 0
        self._rate = 2e4  # iterations per second per solver, refined as it runs

    @property
    def primary(self) -> rmcore.KuhnCFR:
        return next(iter(self.solvers.values()))

    def tick(self) -> None:
        size = max(1, int(self._rate * TIME_BUDGET / len(self.solvers)))
        started = time.perf_counter()
        for solver in self.solvers.values():
            solver.run(size)
        elapsed = time.perf_counter() - started
        if elapsed > 0:
            self._rate = 0.5 * self._rate + 0.5 * size * len(self.solvers) / elapsed

    def step(self) -> None:
        """One iteration of every variant; the first one's is traced for the walkthrough."""
        self.trace = self.primary.trace_iteration()
        self.traced_iteration = self.primary.iteration
        for solver in list(self.solvers.values())[1:]:
            solver.run(1)


def settings() -> tuple[tuple[str, ...], str, int]:
    c1, c2, c3 = st.columns([3, 2, 1])
    variants = c1.multiselect("Variants (the first is traced and tabled)", list(VARIANTS), default=["cfr"], key="kuhn_variants",
                              help=VARIANT_HELP)  # fmt: skip
    updates = c2.radio("Updates", ["alternating", "simultaneous"], key="kuhn_updates", horizontal=True,
                       help="alternating: player 1 then player 2, as OpenSpiel does. simultaneous: both at once, as in Zinkevich et al. (2007).")  # fmt: skip
    seed = c3.number_input("Seed", 0, 2**31 - 1, 0, key="kuhn_seed", help="For chance sampling: same seed, same run.")
    if not variants:
        st.error("Choose at least one variant; the last choice stays in use.")
        return st.session_state.kuhn.key[0] if "kuhn" in st.session_state else ("cfr",), updates, int(seed)
    return tuple(variants), updates, int(seed)


def sync(variants, updates, seed) -> KuhnRuns:
    runs = st.session_state.get("kuhn")
    if runs is None or runs.key != (variants, updates, seed):
        if runs is not None and runs.primary.iteration > 0:
            st.info(f"The settings changed, so training restarted from iteration 0 (it had reached {runs.primary.iteration:,}).",
                    icon=":material/restart_alt:")  # fmt: skip
        runs = KuhnRuns(variants, updates, seed)
        st.session_state.kuhn = runs
    return runs


def _reset() -> None:
    runs: KuhnRuns = st.session_state.kuhn
    st.session_state.kuhn_running = PAUSE
    st.session_state.kuhn = KuhnRuns(*runs.key)


def _step() -> None:
    st.session_state.kuhn_running = PAUSE
    st.session_state.kuhn.step()


def controls() -> None:
    c = st.columns([1.6, 1.4, 1, 3])
    with c[0]:
        run_pause("kuhn_running")
    c[1].button("Step one iteration", key="kuhn_step", on_click=_step, icon=":material/skip_next:", help="Run one iteration and show what it computed below.")
    c[2].button("Reset", key="kuhn_reset", on_click=_reset, icon=":material/restart_alt:")


def tree(runs: KuhnRuns) -> None:
    solver = runs.primary
    st.plotly_chart(kuhn_figures.game_tree(solver.current_policy(), solver.reach_probabilities()), key="kuhn_tree")


def walkthrough(runs: KuhnRuns) -> None:
    st.markdown(
        r"""For each information set $I$ of the player $i$ being updated, summing over the histories $h \in I$
(the two deals that share $i$'s card):

1. **reach:** $\pi_i(h)$ is $i$'s own probability of playing to $h$; $\pi_{-i}(h)$ is the opponent's times chance's (1/6 per deal);
2. **counterfactual values:** $v(I, a) = \sum_h \pi_{-i}(h)\, u_i(h a)$ and $v(I) = \sum_h \pi_{-i}(h)\, u_i(h) = \sum_a \sigma(I, a)\, v(I, a)$;
3. **regrets:** $r(I, a) = v(I, a) - v(I)$, added to the cumulative $R(I, a)$ (CFR+ clips at 0; linear and discounted CFR scale it);
4. **regret matching:** $\sigma'(I, a) = R^+(I, a) / \sum_b R^+(I, b)$, uniform if no regret is positive;
5. **average:** $S(I, a) \mathrel{+}= w_t\, \pi_i(h)\, \sigma(I, a)$, and the average strategy is $S / \sum S$."""
    )
    if runs.trace is None:
        st.info("Press **Step one iteration** to see one iteration's numbers here, information set by information set.")
        return
    rows = []
    for r in runs.trace:
        rows.append({
            "infoset": r.infoset, "player": r.player + 1, "σ bet": r.strategy[1], "π_i": r.own_reach, "π_-i": r.opponent_reach,
            "v(I,pass)": r.action_values[0], "v(I,bet)": r.action_values[1], "v(I)": r.strategy_value,
            "r pass": r.regret_increment[0], "r bet": r.regret_increment[1],
            "R pass": r.cumulative_regrets[0], "R bet": r.cumulative_regrets[1], "σ' bet": r.new_strategy[1], "average bet": r.average_strategy[1],
        })  # fmt: skip
    st.caption(f"Iteration {runs.traced_iteration:,} of {runs.primary.variant} ({runs.primary.updates} updates):")
    st.dataframe(pd.DataFrame(rows).style.format(precision=4), hide_index=True, key="kuhn_trace")


def live(runs: KuhnRuns, show_current: bool) -> None:
    running = st.session_state.kuhn_running == RUN

    @st.fragment(run_every=UPDATE_INTERVAL if running else None)
    def panel():
        if running:
            runs.tick()
        _draw(runs, show_current, running)

    panel()


def _draw(runs: KuhnRuns, show_current: bool, running: bool) -> None:
    solver = runs.primary
    config = {"staticPlot": True} if running else {"displaylogo": False}
    c1, c2, c3 = st.columns(3)
    c1.metric("iteration", f"{solver.iteration:,}")
    c2.metric(f"exploitability ({solver.variant})", f"{solver.exploitability():.3e}")
    c3.metric("game value for player 1", f"{solver.game_value():.5f}", help="The equilibrium value is -1/18 = -0.05556.")
    if solver.iteration == 0:
        st.info("Press **Run** or **Step one iteration** to start.")
        return
    histories = {v: s.history() for v, s in runs.solvers.items()}
    left, right = st.columns(2)
    with left:
        st.plotly_chart(kuhn_figures.exploitability(histories, show_current), key="kuhn_exploitability", config=config)
    with right:
        st.plotly_chart(kuhn_figures.infoset_trajectories(histories[solver.variant]), key="kuhn_trajectories", config=config)
    average, current, regrets = solver.average_policy(), solver.current_policy(), solver.cumulative_regrets()
    table = pd.DataFrame({
        "player": [1] * 6 + [2] * 6,
        "current P(bet)": [current[n][1] for n in INFOSETS], "average P(bet)": [average[n][1] for n in INFOSETS],
        "R(pass)": [regrets[n][0] for n in INFOSETS], "R(bet)": [regrets[n][1] for n in INFOSETS],
    }, index=pd.Index(INFOSETS, name="infoset"))  # fmt: skip
    st.table(table.style.format(precision=4))
    figure, alpha = kuhn_figures.equilibrium_check(average)
    st.plotly_chart(figure, key="kuhn_equilibrium", config=config)
    st.markdown(f"Estimated α = P(bet | J) = **{alpha:.4f}**; game value **{solver.game_value():.5f}** against the equilibrium's **{-1 / 18:.5f}** (−1/18).")
