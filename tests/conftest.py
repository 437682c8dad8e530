"""One SparkSession for the whole test session, shared with every in-process dbt invocation: the
session a user's `dbt build` runs in, configured by dbt-spark itself."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.scheduling import LongestScopeFirst

# dbt and Spark are imported where a test needs them, not here: a pure-Python test imports
# neither (dbt's command line alone takes 1.5 s to import).
if TYPE_CHECKING:
    from dbt.cli.main import dbtRunnerResult
    from pyspark.sql import SparkSession

REPO = Path(__file__).resolve().parents[1]
# The package's own analyses are in its graph only with this var (dbt_project.yml).
PACKAGE_ANALYSES = ("--vars", "{parity_package_analyses: true}")
TESTS = REPO / "tests"

# The lanes (markers, registered in pyproject.toml), by folder unless a test names its own: `make
# unit` runs unit and spark; `scale` is named by the Spark tests too heavy for it.
LANES = ("unit", "spark", "scale", "integration")
FAST_LANES = ("unit", "spark")

# The zone of the machine's clock, and so the session's: not UTC, and with DST. Canonical
# timestamps must not depend on it.
SESSION_TIME_ZONE = "America/New_York"

# The tests' JVM options. The JIT compiler: its first tier only, with room for its code.
# HotSpot's optimizing tier spends two thirds of the JVM's CPU compiling Spark's code paths, each
# of which the tests run a few times; without it the JVM keeps to one core, and each worker of the
# suite (pytest -n, in the Makefile) has one. The first tier alone keeps a code cache of 48 MB,
# which Spark fills: then the JVM spends its time evicting and recompiling. The throughput
# collector, not G1: the workers keep every core busy, and G1's concurrent threads and write
# barriers cost a tenth of the JVM's CPU for short pauses nobody waits on
# (docs/test-suite-notes.md).
JVM_OPTIONS = "-XX:TieredStopAtLevel=1 -XX:ReservedCodeCacheSize=256m -XX:+UseParallelGC"

# The tests' catalog, kept in memory as the lint's is (profiles/profiles.yml, target `lint`). One
# session serves every dbt command of a worker, so nothing needs the Hive metastore's Derby
# database to outlive it; and Hive costs each table lookup a round of DataNucleus queries and each
# new thread (dbt opens some in each command) a metastore client of its own: a fifth of the
# publication tests' time. Where the user's Hive catalog matters, the tests run dbt in processes
# of their own, with the shipped profile (test_standalone_cluster.py, test_metastore_in_use.py).
CATALOG = {"spark.sql.catalogImplementation": "in-memory"}


def pytest_configure(config: pytest.Config) -> None:
    """dbt's parse caches, which dbt's own test fixtures turn on (`dbt.tests.fixtures.project`):
    each Jinja text (a macro, a model file) is parsed once per test process, not once per dbt
    command. A parse without partial parsing (vars change from one test's run to the next) was
    three quarters loading the same 700 macros, each parsed twice; what dbt builds from them is
    the same (docs/test-suite-notes.md, "Doing less")."""
    from dbt_common.tests import enable_test_caching

    enable_test_caching()


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Marks each test with the lane of its folder, unless it names its lane itself. A test that
    runs no dbt command and needs no server belongs in tests/unit, where its folder says its lane.
    A test anywhere else goes with the integration tests, so the fast lane never grows by
    accident. The fast lanes are their folders: `make unit` collects only those, so a test
    elsewhere naming one would never run there."""
    for item in items:
        folder = item.path.relative_to(TESTS).parts[0] if item.path.is_relative_to(TESTS) else ""
        named = [lane for lane in LANES if item.get_closest_marker(lane)]
        if not named:
            item.add_marker(folder if folder in LANES else "integration")
        elif folder not in FAST_LANES and set(named) & set(FAST_LANES):
            raise pytest.UsageError(f"{item.nodeid}: the {named[0]} lane is tests/{named[0]}")


def pytest_xdist_make_scheduler(config: pytest.Config, log) -> LongestScopeFirst:
    """How `make test`'s workers share the files (tests/scheduling.py)."""
    return LongestScopeFirst(config, log)


@pytest.fixture(scope="session")
def spark(tmp_path_factory: pytest.TempPathFactory) -> SparkSession:
    from parity.embedded import embedded_session

    home = tmp_path_factory.mktemp("spark")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PARITY_SHUFFLE_PARTITIONS", "4")  # read by the shipped profile
        session = embedded_session(
            home, "parity-tests", f"-Duser.timezone={SESSION_TIME_ZONE} {JVM_OPTIONS}", **CATALOG
        )
        try:
            configure_as_dbt_does(home)
            # dbt-spark forces ANSI off on its session (dbt/adapters/spark/connections.py): every
            # test runs with it, not with Spark's own default.
            assert session.conf.get("spark.sql.ansi.enabled") == "false"
            assert session.conf.get("spark.sql.session.timeZone") == SESSION_TIME_ZONE
            yield session
        finally:
            session.stop()


def configure_as_dbt_does(scratch: Path) -> None:
    """Runs one query through dbt-spark's session cursor, which applies the shipped profile's
    settings and dbt-spark's own to the running session, as in any dbt command. The settings are
    the profile's, not the project's: an empty project on the same profile applies them without
    parsing the package's macros (3 s of each worker's start)."""
    probe = scratch / "probe"
    probe.mkdir()
    (probe / "dbt_project.yml").write_text(
        "name: probe\nversion: '1.0.0'\nconfig-version: 2\nprofile: parity\n"
    )
    dbt_on_package(scratch, "show", "--inline", "select 1 as ready", project=probe)


def dbt_on_package(scratch: Path, *args: str, project: Path = REPO) -> dbtRunnerResult:
    """dbt, in this process, on the package's own project (or another on its profile) with the
    package's profile; it writes only under ``scratch``."""
    from dbt.cli.main import dbtRunner

    result = dbtRunner().invoke(
        [
            *args,
            "--project-dir",
            str(project),
            "--profiles-dir",
            str(REPO / "profiles"),
            "--target-path",
            str(scratch / "target"),
            "--log-path",
            str(scratch / "logs"),
            "--no-partial-parse",
            "--no-populate-cache",
            "--quiet",
        ]
    )
    assert result.success, result.exception
    return result
