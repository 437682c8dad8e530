"""`make test`'s workers (tests/scheduling.py): xdist's own scheduler, run on the suite's real file
list with two stand-in workers, hands out the files sharing a fixture together and the longest
first."""

from __future__ import annotations

from types import SimpleNamespace

from tests.conftest import TESTS
from tests.scheduling import INTEGRATION, LONGEST_FIRST, SCOPES, SHARING, LongestScopeFirst

FILES = sorted(str(path.relative_to(TESTS.parent)) for path in TESTS.rglob("test_*.py"))


class Worker:
    """What the scheduler sees of a worker: the tests it is sent, run one at a time."""

    shutting_down = False

    def __init__(self, name: str, collection: list[str]) -> None:
        self.gateway = SimpleNamespace(id=name)
        self.collection = collection
        self.pending: list[int] = []
        self.files: list[str] = []

    def send_runtest_some(self, indices: list[int]) -> None:
        self.pending += indices
        for index in indices:
            file = self.collection[index].split("::")[0]
            if file not in self.files:
                self.files.append(file)

    def shutdown(self) -> None:
        self.shutting_down = True


def test_the_named_files_exist():
    assert set(FILES) >= set(SCOPES)
    assert set(FILES) >= set(LONGEST_FIRST) - set(SHARING)


def test_files_sharing_a_fixture_go_to_one_worker_and_the_longest_start_first():
    collection = [f"{file}::test_{n}" for file in FILES for n in range(3)]
    config = SimpleNamespace(
        getvalue=lambda name: ["popen", "popen"], option=SimpleNamespace(loadscopereorder=True)
    )
    scheduler = LongestScopeFirst(config)
    workers = [Worker("gw0", collection), Worker("gw1", collection)]
    for worker in workers:
        scheduler.add_node(worker)
        scheduler.add_node_collection(worker, collection)
    scheduler.schedule()
    while any(worker.pending for worker in workers):
        for worker in workers:
            if worker.pending:
                scheduler.mark_test_complete(worker, worker.pending.pop(0))

    for scope, files in SHARING.items():
        paths = {INTEGRATION + file for file in files}
        assert [bool(paths & set(worker.files)) for worker in workers].count(True) == 1, scope
    for worker, scope in zip(workers, LONGEST_FIRST, strict=False):
        first = {INTEGRATION + file for file in SHARING[scope]}
        assert set(worker.files[: len(first)]) == first
    assert sorted(workers[0].files + workers[1].files) == FILES
