"""The example notebook (examples/nimscope.ipynb) run headless by a kernel, as a researcher
runs it, and the values it prints held to the command line and to published values."""

import json
import math
import pathlib
import re

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

NOTEBOOK = pathlib.Path(__file__).resolve().parents[3] / "examples" / "nimscope.ipynb"

# Grundy's game G(0..30), OEIS A002188
GRUNDYS_GAME = [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0, 4, 3, 0, 4, 3, 0, 4, 1, 2]
GRUNDYS_RULE = "rule(n -> [k, n - k] for k in 1..n if 2*k < n)"
TWO_WYTHOFF = ("rule((a, b) -> (a - k, b) for k in 1..=a; (a, b - k) for k in 1..=b;"
               " (a - k, b - l) for k in 1..=a for l in 1..=b if |k - l| < 2)")


@pytest.fixture(scope="module")
def executed():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbclient.NotebookClient(nb, timeout=600, kernel_name="python3").execute()
    text = ""
    images = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            assert out.output_type != "error", out
            if out.output_type == "stream":
                assert out.name == "stdout", out.text
                text += out.text
            images += [k for k in out.get("data", {}) if k.startswith("image/")]
    return text, images


def line(text, start):
    found = [l[len(start):].strip() for l in text.splitlines() if l.startswith(start)]
    assert found, f"the notebook prints no line starting {start!r}"
    return found[0]


def test_the_notebook_runs_and_shows_its_figures(executed):
    text, images = executed
    assert images.count("image/png") >= 3  # the histogram, the two maps, the Cram board
    assert "image/svg+xml" in images


def test_the_subtraction_sweep_agrees(cli, executed):
    text, _ = executed
    assert line(text, "969 subtraction sets;") == "0 without a certified period"
    assert line(text, "sub(1,3,4): period") == "7 pre-period 0"
    for found in re.finditer(r"longest: sub\((\d+), (\d+), (\d+)\) period (\d+) pre-period (\d+)", text):
        a, b, c, period, pre = found.groups()
        s = cli.json("seq", f"sub({a},{b},{c})", "--to", 4000)
        assert (s["period"], s["preperiod"]) == (int(period), int(pre))


def test_the_maps_agree(cli, executed):
    text, _ = executed
    phi = (1 + math.sqrt(5)) / 2
    beatty = [(math.floor(n * phi), math.floor(n * phi * phi)) for n in range(1, 7)]
    assert line(text, "wythoff P-positions:") == str(beatty)
    rows = cli.json_lines("grid", TWO_WYTHOFF, "--rows", "0..40", "--cols", "0..40", "--outcome", "--format", "json")
    p = [(r["row"], b) for r in rows for b, v in enumerate(r["values"]) if v == 0 and r["row"] < b][:6]
    assert line(text, "2-wythoff P-positions:") == str(p)


def test_the_typed_rule_agrees(cli, executed):
    text, _ = executed
    assert line(text, "Grundy's game G(0..30):") == str(GRUNDYS_GAME)
    assert line(text, "value of a heap of 1000:") == str(cli.json("value", GRUNDYS_RULE, 1000)["grundy"])
    winning = [m["to"] for m in cli.json_lines("moves", GRUNDYS_RULE, 21, "--json") if m["winning"]]
    assert line(text, "winning moves from 21:") == str(winning)


def test_the_quotient_table_agrees(cli, executed):
    text, _ = executed
    q = cli.json("quotient", "octal(0.77)", "--heaps", 30)
    assert line(text, "Quotient(octal(0.77), heaps=30,") == f"size={q['size']}, {'tame' if q['tame'] else 'wild'})"
    outcome = cli.json("value", "misere(octal(0.77))", "3,5,9")["outcome"]
    assert line(text, "misère outcome of {3, 5, 9}:") == outcome
    rows = cli.json_lines("grid", "misere(octal(0.77))", "--rows", "0..12", "--cols", "0..12", "--format", "json")
    printed = [l for l in text.splitlines() if re.match(r"^\s?\d+(\s+[P.]){12}$", l)]
    assert [l.split()[1:] for l in printed] == [["P" if o == "P" else "." for o in r["outcomes"]] for r in rows]


def test_the_cram_board_agrees(cli, executed):
    text, _ = executed
    lines = cli.json_lines("cram", "4x5", "--moves", "--json")
    assert f"value={lines[0]['grundy']}, outcome='{lines[0]['outcome']}'" in text
    winning = sum(m["winning"] for m in lines[1:])
    assert line(text, "winning placements:") == f"{winning} of {lines[0]['moves']}"


def test_interrupt_in_jupyter_stops_a_long_call():
    """The kernel's Interrupt (SIGINT to the kernel) stops a running computation with
    KeyboardInterrupt, and the kernel goes on."""
    import time

    from jupyter_client.manager import start_new_kernel

    km, kc = start_new_kernel(kernel_name="python3")
    try:
        kc.execute_interactive("import nimscope", timeout=120)
        kc.execute("nimscope.Ruleset('octal(0.6)').seq(10**6)")  # seconds of work
        time.sleep(1.0)
        started = time.perf_counter()
        km.interrupt_kernel()
        while True:
            reply = kc.get_shell_msg(timeout=60)
            if reply["msg_type"] == "execute_reply":
                break
        elapsed = time.perf_counter() - started
        assert reply["content"]["status"] == "error", reply["content"]
        assert reply["content"]["ename"] == "KeyboardInterrupt"
        # half a second is the goal (the direct test holds it); the kernel's messages add to it
        assert elapsed < 1.5, elapsed
        after = kc.execute_interactive("print(nimscope.Ruleset('wythoff').value((3, 5)))", timeout=60)
        assert after["content"]["status"] == "ok"
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
