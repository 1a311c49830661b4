"""Python against the command line: for every ruleset of the catalog (with compounds) and every
typed example (`nimscope rules --examples --json`), the values, moves, sequences and maps
Python computes equal what `nimscope … --json` prints on the same positions, and a refusal
has the command line's message."""

import json
import pathlib
import re
import subprocess
import sys

import numpy as np
import pytest

import nimscope

ROOT = pathlib.Path(__file__).resolve().parents[3]

# Every family of the catalog, with compounds, and positions of each (some refused, on purpose).
CATALOG = {
    "nim": ["0", "7", "3,5,6", "100,200,300", "0,0,0,0"],
    "wythoff": ["0,0", "3,5", "10,17", "40,65", "1000000,1618034", "1,2,3"],
    "euclid": ["1,1", "3,5", "11,27", "100,37"],
    "grossman": ["1,1", "3,5", "11,27", "0,4"],
    "euclid0": ["0,0", "0,3", "3,5", "11,27"],
    "m-euclid": ["2,4", "3,5", "11,27"],
    "zeruclid": ["0,0", "3,5", "1,3,5", "2,5,7"],
    "euclid3": ["1,2,3", "2,5,7", "3,4,5"],
    "cdn": ["3,5", "4,6", "6,9,12"],
    "sub(1,3,4)": ["0", "7", "100", "1000000", "5,7"],
    "tag(3)": ["9", "10", "5,6"],
    "divisor": ["1", "12", "100", "0"],
    "fibonacci-nim": ["20:5", "30", "100"],
    "octal(0.07)": ["5", "34", "1000", "5,7,9", "x"],
    "octal(0.6)": ["10", "100", "3,4"],
    "octal(0.77)": ["12", "70", "1,2,3"],
    "push(nim,wythoff)": ["3,5", "pushed(3,5)"],
    "push(nim,euclid0)": ["2,4", "3,5"],
    "push(wythoff,nim)": ["3,5", "6,10"],
    "push(nim,zeruclid)": ["2,3", "4,4"],
    "push(grossman,m-euclid)": ["2,3", "5,8"],
    "misere(nim)": ["1,1", "2,2", "1,2,3"],
    "misere(wythoff)": ["0,0", "3,5", "1,2"],
    "misere(octal(0.07))": ["5", "3,4", "5,9,12"],
    "sum(tag(3),wythoff)": ["5+3,5", "4+1,2"],
    "cram": ["3x3", "2x5", "..../.##./...."],
    "cram-v": ["3x4"],
    "cram-h": ["3x4"],
    "push-cram": ["3x3", "2x4", "pushed(3x3)"],
}

ONE_HEAP = ["sub(1,3,4)", "tag(3)", "divisor", "octal(0.07)", "octal(0.6)", "octal(0.77)", "nim", "misere(octal(0.07))"]
TWO_HEAP = ["wythoff", "euclid", "grossman", "euclid0", "m-euclid", "zeruclid", "cdn", "nim",
            "push(nim,wythoff)", "push(nim,euclid0)", "misere(wythoff)", "fibonacci-nim"]


def typed_examples(cli):
    return cli.json_lines("rules", "--examples", "--json")


def positions_of(ruleset):
    """Positions for a typed rule: those its arity takes (found by asking Python)."""
    for probe, candidates in (("5", ["0", "5", "17", "60", "3,4"]), ("3,5", ["0,0", "3,5", "7,4", "12,20"]),
                              ("2,5,7", ["1,2,3", "2,5,7"]), ("3,2,1,0", ["1,2,3,0", "2,3,5,1", "3,2,1,0"])):
        try:
            ruleset.value(probe)
            return candidates
        except nimscope.PositionError:
            continue
        except nimscope.Error:
            return candidates  # a position of this arity the rule refuses (a cycle, say)
    return []


def assert_value_agrees(cli, expression, position):
    """One position: the Python answer (from a fresh ruleset, as each command starts afresh)
    against `nimscope value`, or the same refusal."""
    code, out, err = cli.run("value", expression, position, "--json", check=False)
    if code != 0:
        message = cli.error("value", expression, position)
        with pytest.raises(nimscope.Error) as e:
            nimscope.Ruleset(expression).answer(position)
        assert str(e.value) == message, (expression, position)
        return
    import json

    expected = json.loads(out)
    got = nimscope.Ruleset(expression).answer(position).as_dict()
    for key in ("grundy", "outcome", "method", "by"):
        assert got[key] == expected[key], (expression, position, key, got, expected)


@pytest.mark.parametrize("expression", sorted(CATALOG))
def test_values_of_the_catalog_agree(cli, expression):
    for position in CATALOG[expression]:
        assert_value_agrees(cli, expression, position)


def test_values_of_the_typed_examples_agree(cli):
    examples = typed_examples(cli)
    assert len(examples) >= 10
    for e in examples:
        r = nimscope.Ruleset(e["text"])
        if e["equals"]:
            assert nimscope.Ruleset(e["equals"]) != r or str(r) == e["equals"]
        positions = positions_of(r)
        assert positions, e["name"]
        for p in positions:
            assert_value_agrees(cli, e["text"], p)


def test_the_rule_examples_are_the_command_lines(cli):
    assert nimscope.rule_examples() == typed_examples(cli)


def masked_list(a):
    """A masked array as the command line's JSON list (None where masked)."""
    return [None if m else int(v) for v, m in zip(a.data.ravel(), np.ma.getmaskarray(a).ravel())]


@pytest.mark.parametrize("expression", ONE_HEAP)
def test_sequences_agree(cli, expression):
    # a misère octal game's collections are searched only so far
    n = 40 if expression.startswith("misere") else 300
    expected = cli.json("seq", expression, "--to", n)
    s = nimscope.Ruleset(expression).seq(n)
    assert masked_list(s.values) == expected["values"]
    period = None if expected["period"] is None else (expected["preperiod"], expected["period"])
    assert (None if s.period is None else (s.period.preperiod, s.period.period)) == period
    assert s.method == expected["method"]


@pytest.mark.parametrize(
    "expression, n",
    [("octal(0.07)", 1000), ("octal(0.137)", 500), ("octal(0.77)", 500), ("octal(0.156)", 10000),
     ("sub(1,3,4)", 100), ("grundy", 3000)],
)
def test_certificates_are_the_command_lines_file(cli, tmp_path, expression, n):
    """A certified period's evidence is the file `seq --certificate` writes, byte for byte,
    and scripts/verify_period.py accepts it; with no period certified (Grundy's game) both say
    none."""
    path = tmp_path / "cert.json"
    code, _, err = cli.run("seq", expression, "--to", n, "--certificate", path, check=False)
    c = nimscope.Ruleset(expression).seq(n).certificate
    if code != 0:
        assert "no period" in err and c is None
        return
    text = path.read_text()
    assert c is not None and c.to_json() == text
    expected = json.loads(text)
    assert c.as_dict() == expected
    assert (c.preperiod, c.period, c.checked, c.max_take, c.values_sha256) == (
        expected["preperiod"], expected["period"], expected["checked"], expected["max_take"],
        expected["values_sha256"],
    )
    verify = subprocess.run(
        [sys.executable, ROOT / "scripts" / "verify_period.py", path], capture_output=True, text=True,
        timeout=600,
    )
    assert verify.returncode == 0 and "VERIFIED" in verify.stdout, verify.stdout + verify.stderr


def test_sequences_of_typed_one_heap_rules_agree(cli):
    for e in typed_examples(cli):
        r = nimscope.Ruleset(e["text"])
        if positions_of(r)[1:2] != ["5"]:
            continue
        expected = cli.json("seq", e["text"], "--to", 200)
        if expected["method"] == "loopy labelling":
            # a game that loops: ∞(A) is no number, so no array (the command line prints it)
            with pytest.raises(nimscope.UnsupportedError, match="loops"):
                r.seq(200)
            continue
        s = r.seq(200)
        assert masked_list(s.values) == expected["values"], e["name"]
        assert (s.period is None) == (expected["period"] is None), e["name"]


def grid_rows(cli, expression, rows, cols, *extra):
    lines = cli.json_lines("grid", expression, "--rows", rows, "--cols", cols, "--format", "json", *extra)
    return [line.get("values", line.get("outcomes")) for line in lines]


@pytest.mark.parametrize("expression", TWO_HEAP)
def test_maps_agree(cli, expression):
    r = nimscope.Ruleset(expression)
    g = r.grid((3, 20), (2, 17))
    assert g.shape == (17, 15)
    assert [masked_list(row) for row in g] == grid_rows(cli, expression, "3..20", "2..17")
    o = r.grid((3, 20), (2, 17), outcome=True)
    assert o.dtype == np.uint8
    assert [masked_list(row) for row in o] == grid_rows(cli, expression, "3..20", "2..17", "--outcome")


def test_maps_of_typed_two_heap_rules_agree(cli):
    for e in typed_examples(cli):
        r = nimscope.Ruleset(e["text"])
        if positions_of(r)[1:2] != ["3,5"]:
            continue
        code, _, _ = cli.run("grid", e["text"], "--rows", "0..12", "--cols", "0..14", check=False)
        if code != 0:
            message = cli.error("grid", e["text"], "--rows", "0..12", "--cols", "0..14")
            with pytest.raises(nimscope.Error, match="^" + re.escape(message) + "$"):
                r.grid(12, 14)
            continue
        expected = grid_rows(cli, e["text"], "0..12", "0..14")
        if any(isinstance(v, str) for row in expected for v in row):
            # a game that loops, with values ∞(A) in the region: no array (the command line prints them)
            with pytest.raises(nimscope.UnsupportedError, match="loops"):
                r.grid(12, 14)
            continue
        g = r.grid(12, 14)
        assert [masked_list(row) for row in g] == expected, e["name"]


def test_a_slice_and_a_far_closed_form_agree(cli):
    g = nimscope.Ruleset("zeruclid").grid(9, 9, slice="1,_,_")
    assert [masked_list(row) for row in g] == grid_rows(cli, "zeruclid", "0..9", "0..9", "--slice", "1,_,_")
    far = (10**12, 10**12 + 5)
    g = nimscope.Ruleset("nim").grid(far, far)
    assert g.dtype == np.uint64
    assert [masked_list(row) for row in g] == grid_rows(cli, "nim", "1000000000000..1000000000005", "1000000000000..1000000000005")
    o = nimscope.Ruleset("wythoff").grid(far, (0, 4), outcome=True)
    assert [masked_list(row) for row in o] == grid_rows(cli, "wythoff", "1000000000000..1000000000005", "0..4", "--outcome")


def test_a_misere_octal_map_is_its_quotients_outcomes(cli):
    o = nimscope.Ruleset("misere(octal(0.07))").grid(10, 12, outcome=True)
    expected = grid_rows(cli, "misere(octal(0.07))", "0..10", "0..12")
    assert [["P" if v == 0 else "N" for v in masked_list(row)] for row in o] == expected
    with pytest.raises(nimscope.UnsupportedError):
        nimscope.Ruleset("misere(octal(0.07))").grid(10, 12)


@pytest.mark.parametrize(
    "expression,position",
    [("wythoff", "3,5"), ("nim", "0,0"), ("euclid", "11,27"), ("octal(0.07)", "9"), ("push(nim,euclid0)", "2,4"),
     ("fibonacci-nim", "20:5"), ("sum(tag(3),wythoff)", "5+3,5"), ("misere(octal(0.07))", "5,9")],
)
def test_moves_agree(cli, expression, position):
    lines = cli.json_lines("moves", expression, position, "--json")
    ms = nimscope.Ruleset(expression).moves(position)
    if lines and lines[-1].get("terminal"):
        assert len(ms) == 0 and ms.total == 0
        return
    assert [m.as_dict() for m in ms] == lines
    assert ms.total == len(lines) and ms.complete


def test_a_page_of_moves_agrees(cli):
    lines = cli.json_lines("moves", "nim", "300,400", "--json", "--offset", 10, "--limit", 5)
    ms = nimscope.Ruleset("nim").moves((300, 400), offset=10, limit=5)
    assert [m.as_dict() for m in ms] == lines[:-1]
    assert (str(ms.total), str(ms.offset), len(ms)) == (lines[-1]["options"], lines[-1]["offset"], lines[-1]["shown"])
    assert not ms.complete


def test_typed_moves_name_their_terms(cli):
    text = "rule((a, b) -> (a - k, b) for k in 1..=a; (a - k, b - k) for k in 1..=min(a, b))"
    lines = cli.json_lines("moves", text, "2,3", "--json")
    ms = nimscope.Ruleset(text).moves((2, 3))
    assert [m.as_dict() for m in ms] == lines
    assert all(m.term.startswith("term ") for m in ms)
    assert [m.heaps for m in ms] == [tuple(int(x) for x in line["to"].split(",")) for line in lines]


@pytest.mark.parametrize("board,push", [("3x3", False), ("2x5", False), ("..../.##./....", False), ("3x3", True), ("2x4", True)])
def test_cram_agrees(cli, board, push):
    args = ["cram", board, "--moves", "--json"] + (["--push"] if push else [])
    lines = cli.json_lines(*args)
    c = nimscope.cram(board, push=push, moves=True)
    assert c.as_dict() == lines[0]
    assert [m.as_dict() for m in c.options] == lines[1:]
    o = nimscope.cram(board, push=push, outcome_only=True)
    assert o.outcome == cli.json_lines("cram", board, "--outcome", "--json", *(["--push"] if push else []))[0]["outcome"]


def test_a_large_symmetric_boards_moves_are_mirrored_as_on_the_command_line(cli):
    lines = cli.json_lines("cram", "6x6", "--moves", "--json")
    c = nimscope.cram("6x6", moves=True)
    assert c.mirrored and c.as_dict() == lines[0]
    assert [m.as_dict() for m in c.options] == lines[1:]


def test_quotients_agree(cli):
    for code, heaps in [("0.77", 20), ("0.07", 25), ("0.137", 15)]:
        assert nimscope.quotient(code, heaps).as_dict() == cli.json("quotient", f"octal({code})", "--heaps", heaps)


def test_check_rows_agree(cli):
    assert nimscope.check(30) == cli.json_lines("check", "--upto", 30, "--json")


@pytest.mark.parametrize(
    "args,call",
    [
        (["value", "wythof", "3,5"], lambda: nimscope.Ruleset("wythof")),
        (["value", "rule(n -> n - 2)", "1"], lambda: nimscope.Ruleset("rule(n -> n - 2)").value(1)),
        (["value", "wythoff", "1,2,3"], lambda: nimscope.Ruleset("wythoff").value((1, 2, 3))),
        (["value", "nim", "--", "-4"], lambda: nimscope.Ruleset("nim").value(-4)),
        (["value", "nim", "99999999999999999999"], lambda: nimscope.Ruleset("nim").value(99999999999999999999)),
        (["seq", "wythoff", "--to", "10"], lambda: nimscope.Ruleset("wythoff").seq(10)),
        (["seq", "cram", "--to", "10"], lambda: nimscope.Ruleset("cram").seq(10)),
        (["grid", "octal(0.07)", "--rows", "0..4", "--cols", "0..4"], lambda: nimscope.Ruleset("octal(0.07)").grid(4, 4)),
        (["grid", "euclid3", "--rows", "0..4", "--cols", "0..4"], lambda: nimscope.Ruleset("euclid3").grid(4, 4)),
        (["grid", "zeruclid", "--rows", "0..4", "--cols", "0..4", "--slice", "1,_"],
         lambda: nimscope.Ruleset("zeruclid").grid(4, 4, slice="1,_")),
        (["grid", "wythoff", "--rows", "0..0", "--cols", "0..4"], lambda: nimscope.Ruleset("wythoff").grid(0, 4)),
        (["cram", "3x"], lambda: nimscope.cram("3x")),
        (["quotient", "wythoff", "--heaps", "5"], lambda: nimscope.quotient("wythoff", 5)),
        # a typed rule no built-in equals (typed Nim would be computed as Nim, within any budget)
        (["--memory-budget", "1M", "value", "rule((a, b) -> (a - k, b) for k in 1..=a if k % 2 == 1; (a, b - k) for k in 1..=b)", "3000,3000"],
         lambda: nimscope.Ruleset("rule((a, b) -> (a - k, b) for k in 1..=a if k % 2 == 1; (a, b - k) for k in 1..=b)", memory_budget="1M").value((3000, 3000))),
        # a game that grows without bound (one that loops on finitely many positions is valued)
        (["value", "rule(n -> n + 1)", "3"], lambda: nimscope.Ruleset("rule(n -> n + 1)").value(3)),
        (["export", "/nonexistent/session.ron", "-o", "/tmp/x.png"], lambda: nimscope.Session.load("/nonexistent/session.ron")),
        (["value", "--rule-file", "/nonexistent/rule.txt", "3"], lambda: nimscope.Ruleset.from_file("/nonexistent/rule.txt")),
    ],
)
def test_refusals_have_the_command_lines_message(cli, args, call):
    message = cli.error(*args)
    with pytest.raises(nimscope.Error) as e:
        call()
    assert str(e.value) == message


def test_a_rule_file_reads_as_the_command_lines(cli, tmp_path):
    path = tmp_path / "rule.txt"
    path.write_text("# Grundy's game\nrule(n -> [k, n - k]\n     for k in 1..n if 2*k < n)\n")
    assert nimscope.Ruleset.from_file(path).value(100) == cli.json("value", "--rule-file", path, 100)["grundy"]
    path.write_text("rule(n -> n -)\n")
    message = cli.error("value", "--rule-file", path, 3)
    with pytest.raises(nimscope.RulesetError, match="^" + re.escape(message) + "$"):
        nimscope.Ruleset.from_file(path)


def test_refusals_have_their_classes():
    with pytest.raises(nimscope.RulesetError):
        nimscope.Ruleset("push(nim")
    with pytest.raises(ValueError):
        nimscope.Ruleset("push(nim")
    with pytest.raises(nimscope.PositionError):
        nimscope.Ruleset("wythoff").value("3;5")
    with pytest.raises(nimscope.BudgetError):
        nimscope.Ruleset("wythoff", memory_budget="1M").grid(100000, 100000)
    with pytest.raises(nimscope.BudgetError):
        nimscope.Ruleset("nim").seq(2**40)
    with pytest.raises(nimscope.UnsupportedError):
        nimscope.Ruleset("wythoff").seq(10)
    with pytest.raises(nimscope.RuleError):
        nimscope.Ruleset("rule(n -> n - 2)").value(1)
    with pytest.raises(nimscope.SessionError):
        nimscope.Session.from_ron("Session(rows: (start: 5, end: 2))")
    with pytest.raises(TypeError):
        nimscope.Ruleset("wythoff").value(3.5)
