"""banditfs in Python: the scikit-learn selectors of banditfs on the library API, in-process (docs/python.md).

A selector given the same data, parameters and seed as ``banditfs run`` gives the same result bit for bit;
``to_job()`` writes its job file, ``read_result`` reads a run's result back.
"""
import os as _os


def _wait_passively_unless_chosen():
    """The CLI's OpenMP wait policy (src/cli/wait_policy.hpp): idle OpenMP threads sleep instead of spinning, which
    on a busy machine takes the cores the working threads need (the quick start ran 2.5x slower here without it).
    libgomp reads its environment once, when it is loaded, so the variable is set before _core loads it; not when
    the user chose a policy, nor when libgomp is loaded already (scikit-learn imported first: docs/python.md)."""
    if "OMP_WAIT_POLICY" in _os.environ or "GOMP_SPINCOUNT" in _os.environ:
        return
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as maps:
            if "libgomp" in maps.read():
                return
    except OSError:
        return
    _os.environ["OMP_WAIT_POLICY"] = "passive"


_wait_passively_unless_chosen()

from . import _core  # noqa: E402  (after the wait policy: loading _core loads libgomp)
from ._cmab import CmabScores  # noqa: E402
from ._jobs import make_job  # noqa: E402
from ._results import read_result  # noqa: E402
from ._selectors import BanditSelector, FirstSelector, FuseSelector  # noqa: E402

__version__ = _core.version()
Job = _core.Job

__all__ = ["BanditSelector", "FirstSelector", "FuseSelector", "CmabScores", "read_result", "make_job", "Job"]
