"""The firmware as MicroPython sees it: every file compiles with mpy-cross, and main.py boots under
stand-ins for machine/neopixel/micropython and serves the link over a (stand-in) UART."""
import runpy
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from controller.pegboard import pegproto as p
from controller.pegboard.firmware_source import codec_source, firmware_folder, firmware_sources
from controller.pegboard.virtual import load_firmware

STUBS = Path(__file__).parent / "mpy_stubs"
FIRMWARE_DIR = Path(str(firmware_folder()))  # a folder of files in a checkout
SOURCES = [FIRMWARE_DIR / f.name for f in firmware_sources()] + [Path(str(codec_source()))]


@pytest.mark.parametrize("source", SOURCES, ids=lambda s: s.name)
def test_compiles_with_mpy_cross(source, tmp_path):
    out = tmp_path / (source.stem + ".mpy")
    result = subprocess.run([sys.executable, "-m", "mpy_cross", "-o", str(out), str(source)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert out.read_bytes()[:1] == b"M"  # .mpy magic


def test_mpy_cross_rejects_what_micropython_cannot_run(tmp_path):
    # guard that the check above can fail: MicroPython has no `match` statement
    bad = tmp_path / "bad.py"
    bad.write_text("x = 1\nmatch x:\n    case 1:\n        pass\n")
    result = subprocess.run([sys.executable, "-m", "mpy_cross", str(bad)], capture_output=True, text=True)
    assert result.returncode != 0


@pytest.fixture
def board_on_uart(monkeypatch):
    """Runs firmware/main.py in a thread with its UART wired to a socket; yields (host end, stubs)."""
    load_firmware()  # registers pegproto (the shared codec) as the board sees it
    monkeypatch.syspath_prepend(str(FIRMWARE_DIR))
    monkeypatch.syspath_prepend(str(STUBS))
    for name in ("machine", "neopixel", "micropython", "pegcfg", "transport", "main"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    import machine
    import micropython
    import neopixel
    import pegcfg

    monkeypatch.setattr(pegcfg, "LINK", "uart")
    host, board_end = socket.socketpair()
    machine.UART_BACKENDS[pegcfg.UART_ID] = board_end
    errors = []

    def boot():
        try:
            runpy.run_path(str(FIRMWARE_DIR / "main.py"), run_name="__main__")
        except machine.PowerOff:
            pass
        except BaseException as exc:  # noqa: BLE001 - reported to the test below
            errors.append(exc)

    thread = threading.Thread(target=boot, daemon=True)
    thread.start()
    yield host, micropython, neopixel
    machine.power_off = True
    host.send(b"\x00")  # wake the loop so the stand-in UART can cut the power
    thread.join(5)
    machine.power_off = False
    for name in ("machine", "neopixel", "micropython", "pegcfg", "transport"):
        sys.modules.pop(name, None)
    assert not thread.is_alive() and not errors


def _recv_frames(sock, want_type, timeout=2.0):
    reader, frames, deadline = p.FrameReader(), [], time.monotonic() + timeout
    sock.settimeout(0.05)
    while time.monotonic() < deadline:
        try:
            frames += reader.feed(sock.recv(4096))
        except socket.timeout:
            pass
        found = [f for f in frames if f[0] == want_type]
        if found:
            return found
    raise AssertionError(f"no frame of type {want_type:#x} in {frames}")


def test_main_boots_disables_ctrl_c_and_serves_the_link(board_on_uart):
    host, micropython, neopixel = board_on_uart
    beat = p.decode_beat(_recv_frames(host, p.MSG_BEAT)[0][2])
    assert micropython.kbd_intr_calls == [-1]
    (strip,) = neopixel.instances
    assert (strip.pin.id, strip.n) == (16, 244)
    host.send(b"\x03\x03garbage\x00" + p.encode_frame(p.MSG_HELLO, 1, bytes([p.PROTOCOL_VERSION])))
    ack = p.decode_ack(_recv_frames(host, p.MSG_ACK)[0][2])
    assert ack.info == (p.PROTOCOL_VERSION, *p.FIRMWARE_VERSION, 2, 121)
    assert ack.sync.boot_id == beat.boot_id
    body = p.encode_state(p.MODE_NORMAL, p.NO_TRACK, 255, [(5, 2, (9, 9, 9)), (7, 0, (0, 99, 0))])
    host.send(p.encode_frame(p.MSG_STATE, 2, body))
    assert p.decode_ack(_recv_frames(host, p.MSG_ACK)[0][2]).sync.shows(body)
    fw = load_firmware()
    expected = fw["scene"].render(fw["board"].Geometry(), p.decode_state(body), False, 0)
    deadline = time.monotonic() + 1
    while strip.shown != expected and time.monotonic() < deadline:
        time.sleep(0.01)
    assert strip.shown == expected
    host.send(p.encode_frame(p.MSG_RELEASE, 3, p.RELEASE_MAGIC))  # flashing: back to the REPL
    assert p.decode_ack(_recv_frames(host, p.MSG_ACK)[0][2]).status == p.STATUS_OK
    deadline = time.monotonic() + 1
    while micropython.kbd_intr_calls == [-1] and time.monotonic() < deadline:
        time.sleep(0.01)
    assert micropython.kbd_intr_calls == [-1, 3]
