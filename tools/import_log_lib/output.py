"""Writing the CSVs sim reads (README "sim compare", `csv` input channels): `#` lines stating what
was done, a header line of `name [unit]` cells, one row per sample. Each file is written beside its
final name and renamed into place only when the import has succeeded, so a failed import leaves
no file and never a half-written one; an output that is the log itself is refused first."""
import math
import os
import tempfile

from .errors import LogError, UsageError


def number(x):
    """The shortest text that reads back as the same double (repr), integers without '.0'."""
    if isinstance(x, int):
        return str(x)
    if not math.isfinite(x):
        raise ValueError(x)
    return repr(float(x))


class CsvOut:
    def __init__(self, path, columns, comments):
        self.path, self.columns = path, columns
        directory = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(directory):
            raise UsageError(f"{path}: no such directory {directory}")
        fd, self.tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", suffix=".partial", dir=directory)
        self.f = os.fdopen(fd, "w", newline="\n")
        for line in comments:
            self.f.write("# " + line + "\n")
        self.f.write(",".join(columns) + "\n")
        self.rows = 0
        self.t_last = None
        self.trailer = []

    def row(self, t, values):
        if self.t_last is not None and not t > self.t_last:
            raise AssertionError(f"times must increase ({t} after {self.t_last})")
        self.t_last = t
        self.f.write(number(t) + "," + ",".join(number(v) for v in values) + "\n")
        self.rows += 1

    def note(self, line):
        """A `#` line after the rows: counts known only at the end (rows, dropped stamps)."""
        self.trailer.append(line)

    def commit(self):
        if self.rows == 0:
            raise LogError(f"{self.path}: no rows to write (the log has no samples for these columns)")
        for line in self.trailer:
            self.f.write("# " + line + "\n")
        self.f.flush()
        os.fsync(self.f.fileno())
        self.f.close()
        os.replace(self.tmp, self.path)
        self.tmp = None

    def discard(self):
        if self.tmp is not None:
            self.f.close()
            os.unlink(self.tmp)
            self.tmp = None


def check_outputs(log_paths, outputs):
    """Refuse an output that is an input (by any spelling or hard link) or two outputs in one file."""
    seen = {}
    for option, path in outputs:
        if path is None:
            continue
        real = os.path.realpath(path)
        for log in log_paths:
            if os.path.realpath(log) == real or (os.path.exists(path) and os.path.exists(log) and os.path.samefile(log, path)):
                raise UsageError(f"{option} {path} is the log being read")
        if real in seen:
            raise UsageError(f"{option} {path} is also {seen[real]}")
        seen[real] = option
        if os.path.isdir(path):
            raise UsageError(f"{option} {path} is a directory")


class Increasing:
    """Makes a stream's times strictly increasing: a sample at the same time as the one before
    replaces it (the later message is the newer value), one earlier than it is dropped; both are
    counted for the file's header."""

    def __init__(self, samples):
        self.samples = samples
        self.duplicates = 0
        self.backwards = 0

    def __iter__(self):
        pending = None
        for t, v in self.samples:
            if pending is not None:
                if t == pending[0]:
                    self.duplicates += 1
                    pending = (t, v)
                    continue
                if t < pending[0]:
                    self.backwards += 1
                    continue
                yield pending
            pending = (t, v)
        if pending is not None:
            yield pending

    def describe(self, what):
        parts = []
        if self.duplicates:
            parts.append(f"{self.duplicates} sample(s) at the same time as the one before replaced it")
        if self.backwards:
            parts.append(f"{self.backwards} sample(s) earlier than the one before dropped")
        return f"{what}: " + "; ".join(parts) if parts else None


class Follower:
    """Another stream read alongside a base stream: its value at each (increasing) base time,
    linear between its two samples around it (none of them angles: attitudes come from the base
    stream); None before its first or after its last sample. Holds two samples at a time."""

    def __init__(self, samples):
        self.it = iter(samples)
        self.a = self.b = None
        self._advance()
        self._advance()

    def _advance(self):
        self.a = self.b
        self.b = next(self.it, None)

    def at(self, t):
        while self.b is not None and self.b[0] < t:
            self._advance()
        if self.a is None:
            return None
        ta, va = self.a
        if t == ta:
            return tuple(va)
        if self.b is None or t < ta:
            return None
        tb, vb = self.b
        if t == tb:
            return tuple(vb)
        s = (t - ta) / (tb - ta)
        return tuple(x + s * (y - x) for x, y in zip(va, vb))
