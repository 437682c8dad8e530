"""How `make test` shares the test files among its workers (pytest-xdist): whole files to a
worker, so that each file's fixtures are built once; the files that read one costly session
fixture as one, since each worker asking for it would build it; and the longest first, so that
no long file starts last while the other workers idle."""

from __future__ import annotations

from xdist.scheduler import LoadScopeScheduling

INTEGRATION = "tests/integration/"

# The files of each shared fixture (tests/integration/conftest.py), by the fixture's name.
SHARING = {
    # The matrices' dbt run (tests/integration/matrix_run.py).
    "matrices": (
        "test_decimal_float_pairs.py",
        "test_decimal_matrix.py",
        "test_mysql_matrix.py",
        "test_time_matrix.py",
        "test_type_matrix.py",
    ),
    # The demo project built at 3,000 rows.
    "demo": ("test_demo_project.py", "test_standalone_cluster.py"),
}
SCOPES = {INTEGRATION + file: scope for scope, files in SHARING.items() for file in files}

# The scopes that take longest on a worker, the longest first, as `pytest --durations=0` on two
# workers measured them; every other file follows in the order xdist gives it.
LONGEST_FIRST = (
    "demo",
    "matrices",
    *(
        INTEGRATION + file
        for file in (
            "test_incremental_runs.py",
            "test_tolerance.py",
            "test_publication.py",
            "test_configuration_errors.py",
            "test_faults.py",
        )
    ),
    # The fast lane's longest (5 to 30 s each), for `make unit`, where they are all there is.
    "tests/spark/test_algorithms_agree.py",
    "tests/spark/test_segment_reuse.py",
    "tests/unit/test_predicates.py",
    "tests/spark/test_input_fingerprints.py",
)


class LongestScopeFirst(LoadScopeScheduling):
    """Hands out a file (or the files sharing a fixture) at a time, the longest first."""

    def _split_scope(self, nodeid: str) -> str:
        path = nodeid.split("::", 1)[0]
        return SCOPES.get(path, path)

    def _assign_work_unit(self, node) -> None:
        # xdist fills its queue in collection order (or by the number of tests in a file); the
        # sort is stable, so that order stays among the files not named above.
        for scope in sorted(self.workqueue, key=_rank):
            self.workqueue.move_to_end(scope)
        super()._assign_work_unit(node)


def _rank(scope: str) -> int:
    return LONGEST_FIRST.index(scope) if scope in LONGEST_FIRST else len(LONGEST_FIRST)
