"""The selectors: BanditSelector, FirstSelector, FuseSelector (``docs/python.md``).

Each parameter is a job key (the section and key are in its description); None leaves it at the job's default
(``banditfs keys``). Parameters are stored as given and checked by the job's schema when ``fit`` runs, as
scikit-learn asks of estimators, so a bad one raises the CLI's message there (a ValueError naming the key).
"""
from ._base import BaseSelector

_COMMON_DOC = """
    task : {"regression", "binary"}, optional
        ``data.task``; None: the job's default (regression){binary}.
    positive_label : number or str, optional
        ``data.positive_label``, the class that is 1 of a binary target; None: {0, 1} and {-1, 1} as the CLI
        maps them, and for any other pair the greater class (scikit-learn's order).
    params : dict, optional
        Any other job key: ``{"section.key": value}`` or ``{"section": {"key": value}}``, e.g.
        ``{"data.noise_features": 50}``.
    stability : dict, optional
        The ``[stability]`` section's keys (stability selection; when the build has it); its summary is then in
        ``stability_``.
    random_state : int, optional
        ``run.seed``: the run's seed (every random draw derives from it). None: the job's default.
    n_jobs : int, optional
        ``run.threads``: -1 every core. None: the job's default. The result does not depend on it.
    verbose : int, default 0
        1 prints the CLI's progress line to stderr.

    Attributes
    ----------
    support_ : ndarray of bool, shape (n_features_in_,)
        The selected features.
    importances_ : ndarray of float64, shape (n_features_in_,)
        Each feature's importance (higher = more important).
    ranking_ : ndarray of int32, shape (n_features_in_,)
        Each feature's rank (1 = most important, ties by lower index).
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        When X was a DataFrame with text column names.
    stability_ : dict or None
        The summary of the runs of stability selection, when asked for.
    result_ : dict
        The whole result (``banditfs.read_result``'s second element has its datasets): facts, timings, the
        method's own datasets, and the features a job adds (noise, knockoffs).
"""


def _doc(text, binary=""):
    return text + _COMMON_DOC.replace("{binary}", binary)


class BanditSelector(BaseSelector):
    __doc__ = _doc("""Feature selection by a combinatorial bandit (method ``bandit``; docs/design.md).

    Each round plays super-arms (feature subsets), fits the estimator on each and rewards a feature whose
    permutation importance passes the reward rule; a feature's importance is its Beta posterior mean.

    Parameters
    ----------
    estimator : str, optional
        ``estimator.name`` (random_forest, hgb, gbm, lasso, ...).
    estimator_params : dict, optional
        The ``[estimator]`` keys, e.g. ``{"n_estimators": 100, "max_depth": 10}``.
    policy : str, optional
        ``bandit.policy`` (ttts, ts, tvs, ...).
    iterations : int, optional
        ``bandit.iterations``.
    rule : str, optional
        ``reward.rule`` (absolute, relative, ...).
    threshold : float, optional
        ``reward.threshold``.
    repeats : int, optional
        ``reward.repeats``: permutation repeats.
    metric : str, optional
        ``reward.metric``.
    null : str, optional
        ``reward.null`` (none, shadow, paired; docs/null.md).
    """) + """    alpha_, beta_ : ndarray of shape (n_features_in_,)
        The Beta posteriors.
    trajectory_ : ndarray of float32, shape (iterations, n_features_in_)
        The posterior means after each iteration.
"""

    _method = "bandit"

    def __init__(self, estimator=None, estimator_params=None, policy=None, iterations=None, rule=None,
                 threshold=None, repeats=None, metric=None, null=None, task=None, positive_label=None, params=None,
                 stability=None, random_state=None, n_jobs=None, verbose=0):
        self.estimator = estimator
        self.estimator_params = estimator_params
        self.policy = policy
        self.iterations = iterations
        self.rule = rule
        self.threshold = threshold
        self.repeats = repeats
        self.metric = metric
        self.null = null
        self.task = task
        self.positive_label = positive_label
        self.params = params
        self.stability = stability
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _own_items(self):
        from ._jobs import section_items

        return ([("estimator.name", self.estimator)] +
                section_items({"estimator": self.estimator_params} if self.estimator_params else None,
                              "estimator_params") +
                [("bandit.policy", self.policy), ("bandit.iterations", self.iterations), ("reward.rule", self.rule),
                 ("reward.threshold", self.threshold), ("reward.repeats", self.repeats),
                 ("reward.metric", self.metric), ("reward.null", self.null)])

    def _set_result(self, result):
        super()._set_result(result)
        p = self.n_features_in_
        datasets = result["datasets"]
        if "alpha" in datasets:
            self.alpha_ = datasets["alpha"][:p]
            self.beta_ = datasets["beta"][:p]
        if result["trajectory"] is not None:
            self.trajectory_ = result["trajectory"][:, :p]


class FirstSelector(BaseSelector):
    __doc__ = _doc("""Feature selection by FIRST (method ``first``; docs/first.md): forward selection by the
    nearest-neighbour estimate of explained variance.

    Parameters
    ----------
    forward : str, optional
        ``method.forward``.
    max_selected : int, optional
        ``method.max_selected``: cap on the forward-selected set (0 = none).
    inner_samples, outer_samples : int, optional
        ``method.inner_samples``, ``method.outer_samples``.
    standardize : bool, optional
        ``method.standardize``.
    """)

    _method = "first"

    def __init__(self, forward=None, max_selected=None, inner_samples=None, outer_samples=None, standardize=None,
                 task=None, positive_label=None, params=None, stability=None, random_state=None, n_jobs=None,
                 verbose=0):
        self.forward = forward
        self.max_selected = max_selected
        self.inner_samples = inner_samples
        self.outer_samples = outer_samples
        self.standardize = standardize
        self.task = task
        self.positive_label = positive_label
        self.params = params
        self.stability = stability
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _own_items(self):
        return [("method.forward", self.forward), ("method.max_selected", self.max_selected),
                ("method.inner_samples", self.inner_samples), ("method.outer_samples", self.outer_samples),
                ("method.standardize", self.standardize)]


class FuseSelector(BaseSelector):
    __doc__ = _doc("""Feature selection by FUSE (method ``fuse``; docs/fuse.md): Monte-Carlo tree search over
    feature subsets, importance by g-RAVE. A binary target only.

    Parameters
    ----------
    iterations : int, optional
        ``method.iterations``: descents, shared by the searches.
    searches : int, optional
        ``method.searches``: independent searches (default: 2 with select = "shadow", a feature selected when it
        beats the shadows in both; else 1).
    k : int, optional
        ``method.k``: neighbours of the reward.
    heuristic : str, optional
        ``method.heuristic`` (discrete, continuous, rand).
    select : str, optional
        ``method.select`` (shadow, rave, path).
    top : int, optional
        ``method.top``: features kept by select = "rave".
    batch : int, optional
        ``method.batch``: descents per round.
    reward_subsample : int, optional
        ``method.reward_subsample``.
    """, binary="; FUSE needs binary, the default here")

    _method = "fuse"
    _binary_only = True

    def __init__(self, iterations=None, searches=None, k=None, heuristic=None, select=None, top=None, batch=None,
                 reward_subsample=None, task=None, positive_label=None, params=None, stability=None,
                 random_state=None, n_jobs=None, verbose=0):
        self.iterations = iterations
        self.searches = searches
        self.k = k
        self.heuristic = heuristic
        self.select = select
        self.top = top
        self.batch = batch
        self.reward_subsample = reward_subsample
        self.task = task
        self.positive_label = positive_label
        self.params = params
        self.stability = stability
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _own_items(self):
        return [("method.iterations", self.iterations), ("method.searches", self.searches), ("method.k", self.k),
                ("method.heuristic", self.heuristic),
                ("method.select", self.select), ("method.top", self.top), ("method.batch", self.batch),
                ("method.reward_subsample", self.reward_subsample)]
