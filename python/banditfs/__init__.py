"""banditfs in Python: the scikit-learn selectors of banditfs on the library API, in-process (docs/python.md).

A selector given the same data, parameters and seed as ``banditfs run`` gives the same result bit for bit;
``to_job()`` writes its job file, ``read_result`` reads a run's result back.
"""
from . import _core
from ._cmab import CmabScores
from ._jobs import make_job
from ._results import read_result
from ._selectors import BanditSelector, FirstSelector, FuseSelector

__version__ = _core.version()
Job = _core.Job

__all__ = ["BanditSelector", "FirstSelector", "FuseSelector", "CmabScores", "read_result", "make_job", "Job"]
