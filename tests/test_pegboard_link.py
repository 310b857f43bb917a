"""The host link against the real firmware (VirtualPegBoard) over pty pairs: round trips, 1 % line
corruption, unplug/replug, board reset, garbage, and a game that never blocks."""
import os
import random
import select
import threading
import time
import tty

import pytest
import serial

from controller.games import new_game
from controller.pegboard.link import Backoff, LinkConfig, LinkStatus, PegBoardLink
from controller.pegboard.state import BoardState, Track
from controller.simulation import cribbage as cribbage_sim
from controller.simulation.cribbage import Driver
from controller.table.outputs import board_state
from controller.pegboard.virtual import VirtualPegBoard

FAST = dict(ack_timeout=0.03, heartbeat_interval=0.2, backoff_initial=0.05, backoff_max=0.2)


def _game(moves=40, seed=1):
    """Board states of a simulated cribbage game, from the engine's pegs, stopping short of the win (a win
    animates: no fixed frame)."""
    game = new_game(cribbage_sim.header(2))
    states: list[BoardState] = []
    for _ in Driver(game, random.Random(seed)).events():
        state = board_state(game).with_brightness(128)
        if game.game_over or len(states) == moves:
            break
        if not states or state != states[-1]:
            states.append(state)
    return states


@pytest.fixture
def board(tmp_path):
    vb = VirtualPegBoard(link_path=tmp_path / "pegboard")
    vb.start()
    yield vb
    vb.stop()


@pytest.fixture
def statuses():
    seen = []
    lock = threading.Lock()

    def record(status, detail):
        with lock:
            seen.append(status)

    return seen, record


def test_state_round_trip_and_status(board, statuses):
    seen, record = statuses
    # A clean link needs no retransmit; the ACK timeout is generous here so that a retransmit means a lost
    # frame, not a busy machine answering late (FAST's 30 ms failed under load).
    patient = {**FAST, "ack_timeout": 0.5}
    with PegBoardLink(LinkConfig(port=board.port_path, **patient), on_status=record) as link:
        for state in _game(10):
            link.set_state(state)
            assert link.wait_confirmed(state, 1.0)
            assert board.wait_for_leds(board.render(state), 0.5)
        assert link.board_info.tracks == 2 and link.board_info.holes == 121
        assert link.stats.retransmits == 0 and link.status is LinkStatus.UP
    assert seen == [LinkStatus.RESYNCING, LinkStatus.UP, LinkStatus.DOWN]


class CorruptingRelay:
    """Sits between the link (on its own pty) and the board, dropping, flipping or duplicating each byte
    with probability `rate` (a third each) in both directions."""

    def __init__(self, board_path, rate, seed):
        self._rng = random.Random(seed)
        self.rate = rate
        self.master, slave = os.openpty()
        tty.setraw(slave)
        self._slave = slave
        self.path = os.ttyname(slave)
        self._board = os.open(board_path, os.O_RDWR | os.O_NOCTTY)
        tty.setraw(self._board)
        self.damaged = 0
        self.passed = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._pump, daemon=True)
        self._thread.start()

    def _mangle(self, data):
        out = bytearray()
        for byte in data:
            r = self._rng.random()
            self.passed += 1
            if r >= self.rate:
                out.append(byte)
                continue
            self.damaged += 1
            if r < self.rate / 3:
                continue  # dropped
            if r < 2 * self.rate / 3:
                out.append(byte ^ (1 << self._rng.randrange(8)))  # flipped
            else:
                out += bytes((byte, byte))  # duplicated
        return bytes(out)

    def _pump(self):
        peer = {self.master: self._board, self._board: self.master}
        while not self._stop.is_set():
            for fd in select.select(list(peer), [], [], 0.02)[0]:
                os.write(peer[fd], self._mangle(os.read(fd, 512)))

    def close(self):
        self._stop.set()
        self._thread.join()
        for fd in (self.master, self._slave, self._board):
            os.close(fd)


@pytest.mark.parametrize("seed", [42, 43])
def test_one_percent_corruption_converges_within_a_second(board, seed):
    relay = CorruptingRelay(board.port_path, rate=0.01, seed=seed)
    worst = 0.0
    try:
        with PegBoardLink(LinkConfig(port=relay.path, **FAST)) as link:
            for state in _game(40, seed=seed):
                start = time.monotonic()
                link.set_state(state)
                assert board.wait_for_leds(board.render(state), 1.0), "LEDs did not converge in 1 s"
                worst = max(worst, time.monotonic() - start)
                time.sleep(0.03)  # let heartbeats cross the noisy line too
            assert link.stats.retransmits > 0  # the line really was noisy
    finally:
        relay.close()
    assert relay.damaged > 0 and board.app.garbage_frames > 0
    print(f"worst convergence {worst * 1000:.1f} ms over {relay.passed} bytes, {relay.damaged} damaged")


def test_garbage_storm_crashes_neither_end(board):
    relay = CorruptingRelay(board.port_path, rate=0.3, seed=3)
    try:
        with PegBoardLink(LinkConfig(port=relay.path, **FAST)) as link:
            states = _game(30, seed=9)
            for state in states:
                link.set_state(state)
                time.sleep(0.02)
            os.write(relay.master, bytes(random.Random(1).randrange(256) for _ in range(3000)))
            time.sleep(0.3)
            assert link.running and board.running
            relay.rate = 0.0  # the line heals: the board must end up exact
            assert board.wait_for_leds(board.render(states[-1]), 2.0)
            assert link.wait_confirmed(states[-1], 1.0)
    finally:
        relay.close()
    assert board.app.errors == 0


def test_unplug_and_replug_resends_the_state(board, statuses):
    seen, record = statuses
    state = _game(6)[-1]
    with PegBoardLink(LinkConfig(port=board.port_path, **FAST), on_status=record) as link:
        link.set_state(state)
        assert link.wait_confirmed(state, 1.0)
        board.stop()  # the pty disappears
        deadline = time.monotonic() + 2
        while link.status is not LinkStatus.DOWN and time.monotonic() < deadline:
            time.sleep(0.01)
        assert link.status is LinkStatus.DOWN
        time.sleep(0.5)  # a few failed reopen attempts (no such port)
        board.start()  # a fresh board with blank LEDs on a new pty at the same path
        assert board.wait_for_leds(board.render(state), 2.0)
        assert link.wait_confirmed(state, 1.0)
    assert seen[:5] == [LinkStatus.RESYNCING, LinkStatus.UP, LinkStatus.DOWN, LinkStatus.RESYNCING,
                        LinkStatus.UP]


def test_board_reset_is_detected_and_resynced(board):
    state = _game(8)[-1]
    with PegBoardLink(LinkConfig(port=board.port_path, **FAST)) as link:
        link.set_state(state)
        assert link.wait_confirmed(state, 1.0)
        board.reset()  # new boot id, no state: blank LEDs
        assert board.boots == 2
        assert board.wait_for_leds(board.render(state), 1.5)
        assert link.stats.resyncs == 1


def test_missing_port_never_blocks_the_game(tmp_path):
    seen = []
    config = LinkConfig(port=str(tmp_path / "nothing"), **FAST)
    with PegBoardLink(config, on_status=lambda s, d: seen.append((s, d))) as link:
        states = _game(40)
        start = time.perf_counter()
        for state in states:
            link.set_state(state)
        assert time.perf_counter() - start < 0.05
        time.sleep(0.2)
        assert link.status is LinkStatus.DOWN
        assert not link.wait_confirmed(state, 0.1)
    assert all(s is LinkStatus.DOWN for s, _ in seen)


def test_port_is_opened_exclusively(board):
    state = _game(3)[-1]
    with PegBoardLink(LinkConfig(port=board.port_path, **FAST)) as link:
        link.set_state(state)
        assert link.wait_confirmed(state, 1.0)
        with pytest.raises(serial.SerialException):
            serial.Serial(board.port_path, exclusive=True)


def test_backoff_doubles_up_to_the_cap_and_resets():
    backoff = Backoff(0.1, 1.0)
    assert [backoff.next() for _ in range(6)] == [0.1, 0.2, 0.4, 0.8, 1.0, 1.0]
    backoff.reset()
    assert backoff.next() == 0.1


def test_a_state_the_board_refuses_is_reported_not_shown_as_up(board, statuses):
    _, record = statuses
    three_tracks = BoardState.new_game([(255, 0, 0), (0, 0, 255), (0, 255, 0)])  # the board has two
    two_tracks = BoardState((Track((255, 0, 0), 5, 0), Track((0, 0, 255))))
    with PegBoardLink(LinkConfig(port=board.port_path, **FAST), on_status=record) as link:
        link.set_state(three_tracks)
        deadline = time.monotonic() + 2.0
        while link.status is not LinkStatus.REFUSED and time.monotonic() < deadline:
            time.sleep(0.01)
        assert link.status is LinkStatus.REFUSED
        assert not link.wait_confirmed(three_tracks, 0.1)
        link.set_state(two_tracks)  # a state the board can show brings the link back up
        assert link.wait_confirmed(two_tracks, 1.0)
        deadline = time.monotonic() + 1.0
        while link.status is not LinkStatus.UP and time.monotonic() < deadline:
            time.sleep(0.01)
        assert link.status is LinkStatus.UP
