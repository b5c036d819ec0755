"""The command line's CFR variants: ``kuhn --variant pcfr+``, discounted CFR's ``--alpha/--beta/--gamma`` and MMD's
``--alpha/--stepsize`` (``--mmd-alpha`` in a race)."""

import json

import pytest

import rmcore
from tests.test_cli import cli


def test_kuhn_runs_pcfr_plus_with_the_librarys_numbers():
    out = cli("kuhn", "--variant", "pcfr+", "--iterations", "300", "--json")
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    solver = rmcore.CFRSolver(rmcore.KUHN, "pcfr+", max_points=0)
    solver.run(300)
    assert result["variant"] == "pcfr+ · alternating"
    assert result["exploitability"] == solver.metrics().exploitability
    assert result["average_policy"] == solver.average_policy().to_dict()


def test_kuhn_discounted_takes_its_parameters():
    out = cli("kuhn", "--variant", "discounted", "--alpha", "1", "--beta", "1", "--gamma", "1", "--iterations", "200")
    assert out.returncode == 0, out.stderr
    assert "200 iterations of discounted(α=1, β=1, γ=1) (alternating)" in out.stdout
    out = cli("kuhn", "--variant", "discounted", "--gamma", "3", "--iterations", "200", "--json")
    solver = rmcore.CFRSolver(rmcore.KUHN, "discounted", gamma=3.0, max_points=0)
    solver.run(200)
    result = json.loads(out.stdout)
    assert result["variant"] == "discounted(α=1.5, β=0, γ=3) · alternating"
    assert result["exploitability"] == solver.metrics().exploitability


def test_kuhn_runs_mmd_with_its_temperature_and_reports_the_last_iterate():
    out = cli("kuhn", "--variant", "mmd", "--alpha", "0.1", "--eta", "0.5", "--iterations", "300", "--json")
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    old = cli("kuhn", "--variant", "mmd", "--alpha", "0.1", "--stepsize", "0.5", "--iterations", "300", "--json")
    assert json.loads(old.stdout) | {"seconds": 0} == result | {"seconds": 0}  # (the flag's name of one release ago)
    assert "--stepsize is deprecated: use --eta" in old.stderr
    solver = rmcore.CFRSolver(rmcore.KUHN, "mmd", alpha=0.1, eta=0.5, max_points=0)
    solver.run(300)
    assert result["variant"] == "mmd(α=0.1, η=0.5) · simultaneous"
    assert result["exploitability"] == solver.metrics().exploitability
    assert result["exploitability_current"] == rmcore.nash_conv(rmcore.KUHN, solver.current_policy()) / 2
    assert result["nash_conv_current"] == solver.metrics().nash_conv_current
    out = cli("kuhn", "--variant", "mmd", "--iterations", "30")
    assert "30 iterations of mmd(α=0.05) (simultaneous)" in out.stdout and "the last iterate" in out.stdout


@pytest.mark.parametrize(
    "arguments,message",
    [
        (["--variant", "discounted", "--alpha", "nan"], "alpha must be a finite number between -10 and 10"),
        (["--variant", "discounted", "--gamma", "11"], "gamma must be a finite number between -10 and 10"),
        (["--variant", "discounted", "--beta", "x"], "--beta: invalid float value"),
        (["--variant", "cfr+", "--alpha", "1"], "alpha applies only to the 'discounted', 'pdcfr+', 'dcfr+' variants"),
        (["--variant", "mmd", "--alpha", "0"], "alpha must be a finite number above 0"),
        (["--variant", "mmd", "--updates", "alternating"], "mmd updates both players at once"),
        (["--variant", "cfr", "--eta", "1"], "eta applies only to the 'mmd' variant"),
    ],
)
def test_bad_parameters_are_one_line_and_exit_status_2(arguments, message):
    out = cli("kuhn", *arguments, "--iterations", "5")
    assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert message in out.stderr


def test_race_gives_discounted_cfr_its_parameters_and_refuses_them_without_it():
    out = cli(
        "race",
        "--game",
        "kuhn",
        "--variants",
        "discounted,cfr+",
        "--alpha",
        "1",
        "--beta",
        "1",
        "--gamma",
        "1",
        "--iterations",
        "200",
        "--json",
    )
    assert out.returncode == 0, out.stderr
    rows = {row["variant"]: row for row in json.loads(out.stdout)["variants"]}
    solver = rmcore.CFRSolver(rmcore.KUHN, "linear", max_points=0)  # DCFR(1, 1, 1) is linear CFR
    solver.run(200)
    assert rows["discounted(α=1, β=1, γ=1) · alternating"]["nash_conv"] == solver.metrics().nash_conv
    out = cli("race", "--game", "kuhn", "--variants", "cfr+", "--alpha", "1", "--iterations", "10")
    assert out.returncode == 2 and "'discounted' variant" in out.stderr


def test_race_gives_mmd_its_temperature_and_refuses_it_without_mmd():
    out = cli("race", "--game", "kuhn", "--variants", "mmd,cfr+", "--mmd-alpha", "0.2", "--iterations", "100", "--json")
    assert out.returncode == 0, out.stderr
    rows = {row["variant"]: row for row in json.loads(out.stdout)["variants"]}
    solver = rmcore.CFRSolver(rmcore.KUHN, "mmd", alpha=0.2)
    solver.run(100)
    mmd = rows["mmd(α=0.2) · simultaneous"]
    assert mmd["nash_conv_current"] == solver.history().metrics["nash_conv_current"][-1]
    out = cli("race", "--game", "kuhn", "--variants", "cfr+", "--mmd-alpha", "0.2", "--iterations", "10")
    assert out.returncode == 2 and "'mmd' variant" in out.stderr and len(out.stderr.strip().splitlines()) == 1
