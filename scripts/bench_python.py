#!/usr/bin/env python3
"""The Python package against the command line, on the same work, in turns (A, B, A, B):

1. `value` on small positions: N calls of `Ruleset("wythoff").value((a, b))` in one loop
   against N runs of `nimscope value wythoff a,b` (the processes' own processor time, from
   the kernel's accounting of children, so the fork costs of this script do not count);
2. `seq octal(0.6)` to 10^6 and `grid wythoff` 4096 × 4096: the Python call's processor time
   (every thread's, `time.process_time`) against the whole command's, user + system, from
   /usr/bin/time (start-up, parsing and writing the output to /dev/null included);
3. a misère quotient asked many collections (one build, then a look-up each);
4. two threads computing at once against one after the other (the GIL released): wall clock,
   meaningful only on a quiet machine.

Prints min–max of each and the ratio of the minimums (Python / command line; the issue's goal
for seq and grid: at most 1.1). Processor time is the reliable column on a busy machine; the
load is printed. Both builds should have the same profile: `scripts/setup.sh` builds the
package in the dev profile (opt-level 2), as `cargo build` does target/debug/nimscope.

Usage: .venv/bin/python scripts/bench_python.py [--rounds 3] [--calls 100000] [--runs 100000]
       NIMSCOPE=path/to/nimscope overrides the command line (default target/debug/nimscope).
"""

import argparse
import os
import pathlib
import resource
import subprocess
import sys
import threading
import time

import nimscope

ROOT = pathlib.Path(__file__).resolve().parents[1]
CLI = os.environ.get("NIMSCOPE", str(ROOT / "target" / "debug" / "nimscope"))


def positions(count):
    """The same small Wythoff positions for both sides: (a, b) with a, b < 64."""
    return [(i % 64, (i * 7) % 61) for i in range(count)]


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def python_values(count):
    r = nimscope.Ruleset("wythoff")
    ps = positions(count)
    t, w = time.process_time(), time.perf_counter()
    for p in ps:
        r.value(p)
    return time.process_time() - t, time.perf_counter() - w


def cli_values(count):
    ps = positions(count)
    t, w = children_cpu(), time.perf_counter()
    for a, b in ps:
        subprocess.run([CLI, "value", "wythoff", f"{a},{b}"], stdout=subprocess.DEVNULL, check=True)
    return children_cpu() - t, time.perf_counter() - w


def cli_command(args):
    """User + system seconds of the whole command, by /usr/bin/time, output to /dev/null."""
    p = subprocess.run(
        ["/usr/bin/time", "-f", "%U %S", CLI, *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=True,
    )
    user, system = p.stderr.strip().splitlines()[-1].split()
    return float(user) + float(system)


def python_call(call):
    t = time.process_time()
    call()
    return time.process_time() - t


def span(xs):
    return f"{min(xs):.3f}–{max(xs):.3f}"


def ratio(a, b):
    r = min(a) / min(b)
    return f"{r:.2f}" if r >= 0.01 else f"1/{min(b) / min(a):.0f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--calls", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=100_000)
    args = parser.parse_args()
    if not os.path.exists(CLI):
        sys.exit(f"error: {CLI} is missing: cargo build (or NIMSCOPE=path)")
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    print(f"# {time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())}, nimscope {head}, {nimscope.VERSION}, "
          f"python {sys.version.split()[0]}, load {' '.join(open('/proc/loadavg').read().split()[:3])}")

    print("\n| work | Python (processor s) | command line (processor s) | Python / command line |")
    print("| --- | --- | --- | --- |")
    py, cli = [], []
    for _ in range(args.rounds):
        py.append(python_values(args.calls))
        cli.append(cli_values(args.runs))
    for i, clock in enumerate(["processor", "wall"]):
        per_py = [t[i] / args.calls * 1e6 for t in py]
        per_cli = [t[i] / args.runs * 1e6 for t in cli]
        print(f"| value wythoff, µs a call ({clock}; {args.calls} calls, {args.runs} runs) | {span(per_py)} | "
              f"{span(per_cli)} | {ratio(per_py, per_cli)} |")

    work = [
        ("seq octal(0.6) to 10^6", ["seq", "octal(0.6)", "--to", "1000000"],
         lambda: nimscope.Ruleset("octal(0.6)").seq(10**6)),
        ("grid wythoff 4096×4096", ["grid", "wythoff", "--rows", "0..4096", "--cols", "0..4096"],
         lambda: nimscope.Ruleset("wythoff").grid(4096, 4096)),
    ]
    for name, command, call in work:
        py, cli = [], []
        for _ in range(args.rounds):
            py.append(python_call(call))
            cli.append(cli_command(command))
        print(f"| {name} | {span(py)} | {span(cli)} | {ratio(py, cli)} |")

    q_build = python_call(lambda: nimscope.quotient("0.77", 60))
    q = nimscope.quotient("0.77", 60)
    collections = [[a % 61, (a * 7) % 61, (a * 13) % 61] for a in range(args.calls)]
    t = time.process_time()
    for c in collections:
        q.outcome(c)
    per = (time.process_time() - t) / args.calls * 1e6
    print(f"\nmisère quotient of 0.77 to heap 60: built in {q_build:.2f} s; then {per:.2f} µs a collection "
          f"({args.calls} collections of three heaps)")

    def work_once():
        nimscope.Ruleset("octal(0.6)").seq(300_000)

    w = time.perf_counter()
    work_once()
    work_once()
    serial = time.perf_counter() - w
    threads = [threading.Thread(target=work_once) for _ in range(2)]
    w = time.perf_counter()
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    parallel = time.perf_counter() - w
    print(f"two threads (seq octal(0.6) to 3·10^5 each): one after the other {serial:.2f} s wall, at once "
          f"{parallel:.2f} s wall ({parallel / serial:.2f}); load {' '.join(open('/proc/loadavg').read().split()[:3])}")


if __name__ == "__main__":
    main()
