"""banditfs in Python: the scikit-learn selectors of banditfs on the library API, in-process (docs/python.md).

A selector given the same data, parameters and seed as ``banditfs run`` gives the same result bit for bit;
``to_job()`` writes its job file, ``read_result`` reads a run's result back.
"""
import os as _os
import time as _time


# The CLI's load rule (src/api/cpu_load.hpp), measured here because the policy must be set before _core loads
# libgomp; tests/python checks these copies against _core's.
_LOAD_WINDOW_MS = 50
_BUSY_CPUS = 0.5
_CPU_BUSY_VARIABLE = "BANDITFS_CPU_BUSY"


def _busy_cpus(before, after, cpus):
    """Busy CPUs among ``cpus`` between two /proc/stat texts: per CPU 1 - d(idle + iowait) / d(total)."""
    def ticks(text):
        out = {}
        for line in text.splitlines():
            name, _, rest = line.partition(" ")
            if name.startswith("cpu") and name[3:].isdigit():
                values = [float(v) for v in rest.split()[:8]]
                out[int(name[3:])] = (values[3] + values[4], sum(values))
        return out
    a, b = ticks(before), ticks(after)
    busy = 0.0
    for cpu in cpus:
        idle, total = b[cpu][0] - a[cpu][0], b[cpu][1] - a[cpu][1]
        if total > 0:
            busy += min(1.0, max(0.0, 1.0 - idle / total))
    return busy


def _choose_wait_policy():
    """The CLI's choice (src/cli/wait_policy.hpp): idle OpenMP threads keep libgomp's default (spinning briefly)
    when the CPUs this process may use are idle; when other work keeps at least half a CPU busy they sleep instead,
    and each fit takes no more threads than the CPUs left free (_core.thread_cap reads the load recorded here).
    libgomp reads its environment once, when it is loaded, so this runs before _core loads it; not when the user
    chose a policy, nor when libgomp is loaded already (scikit-learn imported first: docs/python.md)."""
    if "OMP_WAIT_POLICY" in _os.environ or "GOMP_SPINCOUNT" in _os.environ:
        return
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as maps:
            if "libgomp" in maps.read():
                return
        busy = _os.environ.get(_CPU_BUSY_VARIABLE)
        if busy is None:
            with open("/proc/stat", encoding="ascii") as stat:
                before = stat.read()
            _time.sleep(_LOAD_WINDOW_MS / 1000)
            with open("/proc/stat", encoding="ascii") as stat:
                after = stat.read()
            busy = "%.2f" % _busy_cpus(before, after, sorted(_os.sched_getaffinity(0)))
        _os.environ[_CPU_BUSY_VARIABLE] = busy
        if float(busy) >= _BUSY_CPUS:
            _os.environ["OMP_WAIT_POLICY"] = "passive"
    except (OSError, ValueError, KeyError, IndexError):
        _os.environ["OMP_WAIT_POLICY"] = "passive"  # not measurable: the choice that is never badly wrong


_choose_wait_policy()

from . import _core  # noqa: E402  (after the wait policy: loading _core loads libgomp)
from ._cmab import CmabScores  # noqa: E402
from ._jobs import make_job  # noqa: E402
from ._results import read_result  # noqa: E402
from ._selectors import BanditSelector, FirstSelector, FuseSelector  # noqa: E402

__version__ = _core.version()
Job = _core.Job

__all__ = ["BanditSelector", "FirstSelector", "FuseSelector", "CmabScores", "read_result", "make_job", "Job"]
