"""How `make test` shares the test files among its workers (pytest-xdist, `--dist loadfile`):
whole files to a worker, so that each file's fixtures are built once; the matrices' files as one,
since their tests read one dbt run (`matrices`, tests/integration/matrix_run.py) that each worker
asking for it would build; and the longest first, so that no long file starts last while the
other workers idle."""

from __future__ import annotations

from xdist.scheduler import LoadScopeScheduling

INTEGRATION = "tests/integration/"

MATRICES = frozenset(
    INTEGRATION + name
    for name in (
        "test_decimal_float_pairs.py",
        "test_decimal_matrix.py",
        "test_mysql_matrix.py",
        "test_time_matrix.py",
        "test_type_matrix.py",
    )
)

# The files that take longest on a worker, the longest first (docs/design-notes.md, "The test
# suite's time"); every other file follows in the order xdist gives it.
LONGEST_FIRST = (
    "matrices",
    *(
        INTEGRATION + name
        for name in (
            "test_incremental_runs.py",
            "test_standalone_cluster.py",
            "test_tolerance.py",
            "test_configuration_errors.py",
            "test_publication.py",
            "test_demo_project.py",
            "test_faults.py",
        )
    ),
)


class LongestFileFirst(LoadScopeScheduling):
    """Hands out a file (or the matrices' files) at a time, the longest first."""

    def _split_scope(self, nodeid: str) -> str:
        path = nodeid.split("::", 1)[0]
        return "matrices" if path in MATRICES else path

    def _assign_work_unit(self, node) -> None:
        # xdist fills its queue in collection order (or by the number of tests in a file); the
        # sort is stable, so that order stays among the files not named above.
        for scope in sorted(self.workqueue, key=_rank):
            self.workqueue.move_to_end(scope)
        super()._assign_work_unit(node)


def _rank(scope: str) -> int:
    return LONGEST_FIRST.index(scope) if scope in LONGEST_FIRST else len(LONGEST_FIRST)
