#!/usr/bin/env python3
"""Checks a nimscope period certificate without nimscope: Python's standard library alone.

    scripts/verify_period.py CERTIFICATE.json [--values VALUES_FILE] [--quiet]

A certificate (written by `nimscope seq RULESET --to N --certificate FILE`, format in
docs/certificates.md) claims that the Grundy values of a take-and-break code (an octal game,
`4.007`, Grundy's game `4u.0`) or of a subtraction game are periodic from a pre-period on. This
script believes none of its numbers. It

1. recomputes G(0..checked) from the rule alone, each value the mex of its options' values
   (the splits of a heap are valued a whole heap at a time: the values of the smaller parts and
   those of the larger parts, reversed, are XORed as two big integers, and each candidate is
   looked for in the bytes);
2. checks the period on those values: G(n + period) = G(n) for preperiod <= n < checked - period;
3. checks the theorem's bound, worked out here from the rule (the most tokens a move takes and
   the most heaps it leaves): checked >= parts * (max(preperiod, 1) + period) + max_take for a
   code that splits heaps (with unequal splits: parts * max(preperiod, 1) + 3 * period +
   max_take), max(preperiod, 1) + period + max_take for a code that never splits, and
   preperiod + period + max(S) for a subtraction game S (the arguments: docs/certificates.md);
4. checks the SHA-256 of the values file of those values against the certificate's (and, with
   --values, that the file given is that file).

Exit status 0 when every claim holds, 1 when one fails (the first failure is printed), 2 on bad
input. Quick for the short periods (0.07, 0.77, 0.137: milliseconds); 0.16, whose certificate
needs 509,623 values, takes minutes.
"""

import argparse
import hashlib
import json
import struct
import sys

MAGIC = b"NIMSCOPE VALUES\n"


class Failed(Exception):
    """A claim of the certificate that does not hold."""


def parse_code(text):
    """A take-and-break code 'd0.d1d2...' (a 'u' after a digit: its two heaps must differ)
    as a list of (tokens taken, digit, unequal) for every digit that is not 0."""
    before, _, after = text.partition(".")
    if not before:
        before = "0"
    moves = []
    k = 0
    for part, single in ((before, True), (after, False)):
        digits = 0
        i = 0
        while i < len(part):
            d = int(part[i], 16)
            unequal = i + 1 < len(part) and part[i + 1] in "uU"
            if unequal and not d & 4:
                raise ValueError(f"'u' after digit {d:x}, which does not split a heap in two")
            if d:
                moves.append((k, d, unequal))
            k += 1
            digits += 1
            i += 2 if unequal else 1
        if single and digits != 1:
            raise ValueError("one digit before the point")
    if moves and moves[0][0] == 0 and moves[0][1] & 3:
        raise ValueError("a move that takes no token may only split")
    return moves


def code_bound(moves, n0, p):
    """The length the periodicity argument needs for a take-and-break code."""
    t = max(k for k, _, _ in moves)
    parts = max((3 if d & 8 else 2 if d & 4 else 1 if d & 2 else 0) for _, d, _ in moves)
    n1 = max(n0, 1)
    if parts <= 1:
        return n1 + p + t
    if any(u for _, _, u in moves):
        return parts * n1 + max(3, parts) * p + t
    return parts * (n1 + p) + t


def code_values(moves, count):
    """G(0..count) of a take-and-break code, from the rule alone."""
    g = bytearray()
    wide = []  # the values, once one does not fit in a byte
    for n in range(count):
        opts = set()
        splits = []  # (m, largest smaller part) of the two-heap splits
        for k, d, unequal in moves:
            if k > n:
                break
            m = n - k
            if d & 1 and m == 0:
                opts.add(0)
            if d & 2 and m >= 1:
                opts.add(value(g, wide, m))
            if d & 4 and m >= 2:
                h = (m - 1) // 2 if unequal else m // 2
                if h >= 1:
                    splits.append((m, h))
            if d & 8 and m >= 3:
                for a in range(1, m // 3 + 1):
                    for b in range(a, (m - a) // 2 + 1):
                        opts.add(value(g, wide, a) ^ value(g, wide, b) ^ value(g, wide, m - a - b))
        v = mex_with_splits(g, wide, opts, splits)
        if wide or v > 255:
            if not wide:
                wide.extend(g)
            wide.append(v)
        g.append(v & 255)
    return wide if wide else list(g)


def value(g, wide, i):
    return wide[i] if wide else g[i]


def split_bytes(g, m, h):
    """The values G(a) ^ G(m - a), a = 1..h, as bytes (values below 256)."""
    lo = bytes(g[1 : h + 1])
    hi = bytes(g[m - h : m])[::-1]
    x = int.from_bytes(lo, "little") ^ int.from_bytes(hi, "little")
    return x.to_bytes(h, "little")


def mex_with_splits(g, wide, opts, splits):
    """The mex of `opts` and of the splits' values."""
    if wide:
        for m, h in splits:
            opts.update(wide[a] ^ wide[m - a] for a in range(1, h + 1))
        v = 0
        while v in opts:
            v += 1
        return v
    blocks = [split_bytes(g, m, h) for m, h in splits]
    v = 0
    while v in opts or (v < 256 and any(b.find(bytes([v])) >= 0 for b in blocks)):
        v += 1
    return v


def subtraction_values(s, count):
    g = []
    for n in range(count):
        opts = {g[n - x] for x in s if x <= n}
        v = 0
        while v in opts:
            v += 1
        g.append(v)
    return g


def values_file(ruleset, values):
    """The bytes of nimscope's values file of `values` (docs/values-file.md)."""
    top = max(values, default=0)
    width = 1 if top < 256 else 2 if top < 65536 else 4
    name = ruleset.encode("utf-8")
    head = MAGIC + struct.pack("<IIQI", 1, width, len(values), len(name)) + name
    head += b"\0" * (-len(head) % 8)
    fmt = {1: "B", 2: "H", 4: "I"}[width]
    return head + struct.pack(f"<{len(values)}{fmt}", *values)


def verify(cert, values_path=None, log=print):
    if cert.get("format") != "nimscope period certificate" or cert.get("version") != 1:
        raise ValueError("not a nimscope period certificate of version 1")
    p, n0, checked = int(cert["period"]), int(cert["preperiod"]), int(cert["checked"])
    if p < 1 or n0 < 0 or checked < 1:
        raise Failed(f"period {p}, pre-period {n0}, checked {checked}: not a period")
    kind = cert["kind"]
    if kind == "take-and-break":
        moves = parse_code(cert["code"])
        need = code_bound(moves, n0, p)
        compute = lambda count: code_values(moves, count)
    elif kind == "subtraction":
        s = sorted(int(x) for x in cert["set"])
        if not s or s[0] < 1:
            raise ValueError("a subtraction set of positive numbers")
        need = n0 + p + s[-1]
        compute = lambda count: subtraction_values(s, count)
    else:
        raise ValueError(f"unknown kind {kind!r}")
    if checked < need:
        raise Failed(f"the argument needs G(0..{need}) and the certificate checked G(0..{checked})")
    log(f"{cert['ruleset']}: computing G(0..{checked}) from the rule")
    g = compute(checked)
    for n in range(n0, checked - p):
        if g[n] != g[n + p]:
            raise Failed(f"G({n}) = {g[n]} but G({n + p}) = {g[n + p]}: no period {p} from {n0}")
    data = values_file(cert["ruleset"], g)
    digest = hashlib.sha256(data).hexdigest()
    if digest != cert["values_sha256"]:
        raise Failed(f"the values' SHA-256 is {digest}, the certificate says {cert['values_sha256']}")
    if values_path is not None:
        with open(values_path, "rb") as f:
            given = f.read()
        if given != data:
            raise Failed(f"{values_path} is not the values file of G(0..{checked})")
    log(f"{cert['ruleset']}: period {p} from {n0} holds for every heap (checked {checked} >= {need})")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("certificate")
    ap.add_argument("--values", help="nimscope's values file of G(0..checked), compared too")
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args(argv)
    log = (lambda *_: None) if a.quiet else (lambda m: print(m, flush=True))
    try:
        with open(a.certificate, encoding="utf-8") as f:
            cert = json.load(f)
        verify(cert, a.values, log)
    except Failed as e:
        print(f"REJECTED: {e}", file=sys.stderr)
        return 1
    except (OSError, ValueError, KeyError, TypeError, json.JSONDecodeError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print("VERIFIED")
    return 0


if __name__ == "__main__":
    sys.exit(main())
