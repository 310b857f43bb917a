"""Peg board link benchmark: full-state update round trip (frame + ACK) against the real firmware on a
virtual board over a pty at 115200 baud, and the frame size against the peer, a raw 244-LED stream.

    python bench/pegboard_link.py [--updates N]

A pty does not pace bytes at the baud rate, so the wire time on a real 115200-baud line is also printed
(10 bits per byte: start, 8 data, stop) for both the state frame and the raw stream.
"""
from __future__ import annotations

import argparse
import os
import random
import select
import statistics
import tempfile
import threading
import time
import tty
from pathlib import Path

from controller.games import new_game
from controller.pegboard import pegproto
from controller.pegboard.link import LinkConfig, PegBoardLink
from controller.pegboard.state import BoardState, Track
from controller.pegboard.virtual import VirtualPegBoard
from controller.simulation import cribbage as cribbage_sim
from controller.simulation.cribbage import Driver
from controller.table.outputs import board_state

BAUD = 115200
BITS_PER_BYTE = 10


def wire_ms(nbytes: int) -> float:
    return nbytes * BITS_PER_BYTE / BAUD * 1000


def states(count: int) -> list[BoardState]:
    """Distinct states from simulated cribbage games' pegs (a fresh game each time one ends), so every
    update really changes the board."""
    out: list[BoardState] = []
    seed = 0
    while len(out) < count:
        game = new_game(cribbage_sim.header(2))
        for _ in Driver(game, random.Random(seed)).events():
            state = board_state(game)
            if game.game_over or len(out) == count:
                break
            if not out or state != out[-1]:
                out.append(state)
        seed += 1
    return out


def state_round_trips(updates: int) -> tuple[list[float], int]:
    with tempfile.TemporaryDirectory() as tmp, VirtualPegBoard(link_path=Path(tmp) / "pb") as board:
        with PegBoardLink(LinkConfig(port=board.port_path, baudrate=BAUD)) as link:
            first = states(1)[0]
            link.set_state(first)
            assert link.wait_confirmed(first, 2.0), "virtual board did not answer"
            times = []
            for state in states(updates + 1)[1:]:
                start = time.perf_counter()
                link.set_state(state)
                if not link.wait_confirmed(state, 1.0):
                    raise RuntimeError("update not acknowledged within 1 s")
                times.append(time.perf_counter() - start)
            assert board.wait_for_leds(board.render(state), 1.0)
            return times, link.stats.retransmits


def raw_stream_round_trips(updates: int, nbytes: int) -> list[float]:
    """The peer: push a raw GRB frame of every LED through a pty; a Python board fills its LED buffer
    from it and replies with one byte (no framing, no CRC: the least a raw-stream firmware must do)."""
    master, slave = os.openpty()
    tty.setraw(master)
    tty.setraw(slave)
    stop = threading.Event()

    def raw_board() -> None:
        buffer = bytearray()
        while not stop.is_set():
            if select.select([slave], [], [], 0.05)[0]:
                buffer += os.read(slave, 4096)
                if len(buffer) >= nbytes:
                    leds = [(buffer[i + 1], buffer[i], buffer[i + 2]) for i in range(0, nbytes, 3)]  # GRB
                    del buffer[:nbytes]
                    os.write(slave, bytes((len(leds) & 0xFF,)))

    thread = threading.Thread(target=raw_board, daemon=True)
    thread.start()
    frame = bytes(range(256)) * (nbytes // 256) + bytes(nbytes % 256)
    times = []
    for _ in range(updates):
        start = time.perf_counter()
        os.write(master, frame)
        while not select.select([master], [], [], 1.0)[0]:
            pass
        os.read(master, 1)
        times.append(time.perf_counter() - start)
    stop.set()
    thread.join()
    os.close(master)
    os.close(slave)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--updates", type=int, default=300)
    args = parser.parse_args()

    sample = BoardState((Track((255, 0, 0), 29, 0), Track((0, 0, 255), 12, 0), Track((0, 255, 0))))
    state_frame = len(pegproto.encode_frame(pegproto.MSG_STATE, 0, sample.encode()))
    two_track = len(pegproto.encode_frame(pegproto.MSG_STATE, 0, states(1)[0].encode()))
    ack = len(pegproto.encode_frame(pegproto.MSG_ACK, 0, pegproto.encode_ack(2, 0, 1, True, 1)))
    raw = 244 * 3

    times, retransmits = state_round_trips(args.updates)
    peer = raw_stream_round_trips(args.updates, raw)
    median, p95 = statistics.median(times) * 1000, sorted(times)[int(len(times) * 0.95)] * 1000
    peer_median = statistics.median(peer) * 1000

    print(f"full-state frame: {two_track} bytes (2 tracks), {state_frame} bytes (3 tracks); ACK {ack} bytes")
    print(f"raw LED stream (peer): {raw} bytes -> state frame is {raw / two_track:.0f}x smaller "
          f"(2 tracks), {raw / state_frame:.0f}x (3 tracks)")
    print(f"state update round trip over pty, {args.updates} updates: median {median:.2f} ms, "
          f"p95 {p95:.2f} ms, retransmits {retransmits}")
    print(f"raw stream round trip over pty (peer): median {peer_median:.2f} ms "
          f"(ratio peer/state {peer_median / median:.2f})")
    print(f"on a real 115200-baud line: state frame + ACK {wire_ms(two_track + ack):.2f} ms on the wire, "
          f"raw stream {wire_ms(raw):.1f} ms ({wire_ms(raw) / wire_ms(two_track + ack):.0f}x, "
          f"~{1000 / wire_ms(raw):.0f} frames/s max)")


if __name__ == "__main__":
    main()
