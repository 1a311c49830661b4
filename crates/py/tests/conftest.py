"""What the tests share: the repository, the command line they hold Python to (NIMSCOPE, else
the dev build target/debug/nimscope that `cargo test` leaves), and running it."""

import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]


def _binary():
    path = pathlib.Path(os.environ.get("NIMSCOPE", ROOT / "target" / "debug" / "nimscope"))
    if not path.exists():
        pytest.exit(
            f"{path} is missing: build the command line first (cargo build, or scripts/test.sh)",
            returncode=2,
        )
    return path


class Cli:
    """The `nimscope` command line."""

    def __init__(self, path):
        self.path = path

    def run(self, *args, check=True):
        """(exit status, stdout, stderr) of `nimscope ARGS`."""
        p = subprocess.run(
            [str(self.path), *map(str, args)], capture_output=True, text=True, timeout=600
        )
        if check and p.returncode != 0:
            raise AssertionError(f"nimscope {' '.join(map(str, args))}: {p.stderr}")
        return p.returncode, p.stdout, p.stderr

    def json(self, *args):
        """The one JSON object `nimscope ARGS --json` prints."""
        return json.loads(self.run(*args, "--json")[1])

    def json_lines(self, *args):
        """The JSON objects `nimscope ARGS` prints, one a line."""
        return [json.loads(line) for line in self.run(*args)[1].splitlines() if line.strip()]

    def error(self, *args):
        """The message of the one `error:` line a refused command prints (exit status 2)."""
        code, out, err = self.run(*args, check=False)
        assert code == 2, f"nimscope {' '.join(map(str, args))} exited {code}: {out}{err}"
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), err
        return lines[0][len("error: ") :]


@pytest.fixture(scope="session")
def cli():
    return Cli(_binary())
