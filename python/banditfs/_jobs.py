"""Jobs from Python parameters (``docs/python.md``, "Jobs").

A selector's parameters are job keys: each one set (not None) becomes a ``section.key=value`` override, as
``banditfs run --set`` takes it, and ``_core.Job.parse`` checks them all with the schema the CLI uses, so a bad
value raises the CLI's message (a ValueError naming the key). None everywhere means the job's own default
(``banditfs keys`` lists them), so no default is declared twice.
"""
import json
import math
import numbers
import os

import numpy as np

from . import _core


def toml_value(value, key):
    """``value`` as TOML text (the value side of ``--set key=value``); ValueError naming ``key`` when it has none."""
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        v = float(value)
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(value, str):
        return json.dumps(value)  # a TOML basic string: JSON's escapes are TOML's
    if isinstance(value, (list, tuple, np.ndarray)):
        return "[" + ", ".join(toml_value(v, key) for v in value) + "]"
    raise ValueError(f"{key} = {value!r}: not a value a job file can hold (a number, text, boolean or a list of them)")


def section_items(params, name):
    """The (section.key, value) pairs of a ``params`` dict: keys "section.key", or a section with a dict of keys."""
    if params is None:
        return []
    if not isinstance(params, dict):
        raise ValueError(f"{name} must be a dict of job keys ({{'section.key': value}}), not {params!r}")
    items = []
    for key, value in params.items():
        if isinstance(value, dict):
            items += [(f"{key}.{k}", v) for k, v in value.items()]
        elif "." in str(key):
            items.append((str(key), value))
        else:
            raise ValueError(f"{name}: key {key!r} names no section; write 'section.key' (e.g. 'bandit.{key}')")
    return items


def threads_of(n_jobs):
    """run.threads of scikit-learn's n_jobs: None = the job's default, -1 = every core (0), -2 = all but one, ..."""
    if n_jobs is None:
        return None
    n_jobs = int(n_jobs)
    if n_jobs == 0:
        raise ValueError("n_jobs = 0: give a number of threads, or -1 for every core")
    if n_jobs == -1:
        return 0
    return n_jobs if n_jobs > 0 else max(1, (os.cpu_count() or 1) + 1 + n_jobs)


def seed_of(random_state):
    """run.seed of scikit-learn's random_state: None = the job's default, an int as it is, a RandomState draws one."""
    if random_state is None:
        return None
    if isinstance(random_state, numbers.Integral):
        return int(random_state)
    from sklearn.utils import check_random_state

    return int(check_random_state(random_state).randint(np.iinfo(np.int32).max))


def overrides(method, items):
    """``method.name`` first, then each (key, value) set; None values are left to the job's defaults."""
    out = [f"method.name={toml_value(method, 'method.name')}"]
    for key, value in items:
        if value is not None:
            out.append(f"{key}={toml_value(value, key)}")
    return out


def make_job(method, items, text=""):
    """A validated _core.Job: ``text`` (TOML) with the overrides of ``items`` over it."""
    return _core.Job.parse(text, overrides(method, items), "the selector's parameters")
