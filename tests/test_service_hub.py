"""The state hub: versioned snapshots, readers waiting for the next one, a bounded ring for resuming."""
from __future__ import annotations

import json
import threading
import time

import pytest

from controller.service.hub import Snapshot, StateHub, TableStatus

HOLD = {"reason": "unknown", "zone": "seat-2", "seat": 1, "possible": ["QS", "QC"], "crop": "base64..."}


def publish(hub: StateHub, n: int) -> Snapshot:
    return hub.publish({"n": n}, {"n": n, "hands": [["5H"]]}, TableStatus(camera="online"))


def test_each_publish_is_the_next_version_and_the_latest_snapshot() -> None:
    hub = StateHub()
    assert hub.snapshot().version == 0
    first, second = publish(hub, 1), publish(hub, 2)
    assert (first.version, second.version) == (1, 2)
    assert hub.snapshot() is second and second.public == {"n": 2}
    status = TableStatus(camera="offline")
    third = hub.publish_status(status)
    assert (third.version, third.public, third.dealer, third.status) == (3, second.public, second.dealer, status)


def test_a_reader_gets_a_newer_snapshot_at_once_or_waits_for_one() -> None:
    hub = StateHub()
    publish(hub, 1)
    assert hub.wait_for(0, timeout=0).version == 1  # type: ignore[union-attr]
    assert hub.wait_for(1, timeout=0.05) is None
    got: list[Snapshot | None] = []
    reader = threading.Thread(target=lambda: got.append(hub.wait_for(1, timeout=10)))
    reader.start()
    time.sleep(0.05)
    started = time.perf_counter()
    publish(hub, 2)
    publish_seconds = time.perf_counter() - started
    reader.join(5)
    assert got[0] is not None and got[0].version == 2
    assert publish_seconds < 0.05  # the waiting reader does not hold the writer up


def test_a_slow_reader_skips_to_the_latest_version() -> None:
    hub = StateHub()
    for n in range(1, 6):
        publish(hub, n)
    snapshot = hub.wait_for(2, timeout=0)
    assert snapshot is not None and snapshot.version == 5


def test_closing_wakes_the_readers() -> None:
    hub = StateHub()
    got: list[Snapshot | None] = []
    reader = threading.Thread(target=lambda: got.append(hub.wait_for(0, timeout=30)))
    reader.start()
    time.sleep(0.05)
    hub.close()
    reader.join(2)
    assert not reader.is_alive() and got == [None] and hub.closed


def test_the_ring_is_bounded_and_resumes_while_it_reaches() -> None:
    hub = StateHub(history=10)
    for n in range(1, 1001):
        publish(hub, n)
    assert [s.version for s in hub.changes_since(995) or []] == [996, 997, 998, 999, 1000]
    assert [s.version for s in hub.changes_since(990) or []] == list(range(991, 1001))
    assert hub.changes_since(989) is None  # 990 was dropped: the reader needs the whole latest snapshot
    assert hub.changes_since(1000) == []
    assert hub.changes_since(5000) is None  # an id from before a restart
    with pytest.raises(ValueError, match="at least 1"):
        StateHub(history=0)

# a failed deck check: the cards it names are the dealer's (the public sees that it failed)
CHECK = {"state": "failed", "deck": "52", "at": "2026-12-02T12:00:00Z", "missing": ["QS"], "twice": {"5H": 2},
         "summary": "deck check failed (51 of 52 read): not read: QS; read twice: 5H (2 times)"}


def test_the_public_document_shows_no_dealer_knowledge() -> None:
    hub = StateHub(clock=lambda: 12.5)
    snapshot = hub.publish({"scores": [3, 5]}, {"scores": [3, 5], "hands": [["5H", "5S"]]},
                           TableStatus(camera="online", pegboard="up", hold=HOLD, deck_check=CHECK))
    public = snapshot.public_document()
    assert public == {"version": 1, "at": 12.5, "table": {"scores": [3, 5]},
                      "status": {"camera": "online", "pegboard": "up", "last_refusal": None, "fault": None, "club": None,
                                 "hold": {"reason": "unknown", "zone": "seat-2", "seat": 1},
                                 "deck_check": {"state": "failed", "deck": "52", "at": "2026-12-02T12:00:00Z"},
                                 "waiting": None}}
    assert json.loads(snapshot.public_json) == public
    assert "QS" not in snapshot.public_json and "5H" not in snapshot.public_json
    dealer = snapshot.dealer_document()
    assert dealer["table"]["hands"] == [["5H", "5S"]] and dealer["status"]["hold"] == HOLD
    assert dealer["status"]["deck_check"] == CHECK
