"""Progress of long calls (``progress=True``): a tqdm bar when tqdm is installed (in Jupyter,
its widget), else one line on stderr, shown after half a second and cleared at the end.
Nothing is shown for calls that end sooner."""

import sys
import time

__all__ = ["Reporter"]

# a bar for quick calls would only flicker
_DELAY = 0.5


def _duration(seconds):
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


class Reporter:
    """What ``progress=True`` shows; nimscope calls ``nimscope_update`` while a job runs and
    ``close`` when it ends."""

    def __init__(self):
        self._start = time.monotonic()
        self._bar = None
        self._line = 0
        self._stage = None
        try:
            from tqdm.auto import tqdm

            self._tqdm = tqdm
        except ImportError:
            self._tqdm = None

    def nimscope_update(self, done, total, stage):
        spent = time.monotonic() - self._start
        if spent < _DELAY:
            return
        if self._tqdm is not None:
            if self._bar is None or stage != self._stage:
                if self._bar is not None:
                    self._bar.close()
                self._bar = self._tqdm(
                    total=total or None, desc=stage or "nimscope", leave=False, unit="step"
                )
                self._stage = stage
            if total and self._bar.total != total:
                self._bar.total = total
            self._bar.n = min(done, total) if total else done
            self._bar.refresh()
            return
        share = f"{100 * min(done, total) / total:.0f}%" if total else f"{done} steps"
        on = f" on {stage}" if stage else ""
        line = f"  working{on}: {share}, {_duration(spent)}"
        sys.stderr.write("\r" + line + " " * max(0, self._line - len(line)))
        sys.stderr.flush()
        self._line = len(line)

    def close(self):
        if self._bar is not None:
            self._bar.close()
            self._bar = None
        if self._line:
            sys.stderr.write("\r" + " " * self._line + "\r")
            sys.stderr.flush()
            self._line = 0
