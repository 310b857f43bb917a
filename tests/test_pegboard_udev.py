"""The udev rule gives the board the name the link opens by default, and its syntax is well formed."""
import re
from pathlib import Path

from controller.commands.firmware import RP2040_VID
from controller.pegboard.link import DEFAULT_PORT

RULE = Path(__file__).parents[1] / "systemd" / "99-cardtable-pegboard.rules"
PAIR = re.compile(r'^([A-Z_]+(?:\{[A-Za-z_]+\})?)(==|!=|\+=|=|:=)"([^"]*)"$')


def test_rule_matches_the_board_and_names_the_default_port():
    lines = [l for l in RULE.read_text().splitlines() if l.strip() and not l.startswith("#")]
    assert len(lines) == 1
    pairs = [PAIR.match(part.strip()) for part in lines[0].split(",")]
    assert all(pairs), [part for part, m in zip(lines[0].split(","), pairs) if not m]
    rule = {(m[1], m[2]): m[3] for m in pairs}
    assert rule[("SUBSYSTEM", "==")] == "tty"
    assert int(rule[("ATTRS{idVendor}", "==")], 16) == RP2040_VID
    assert rule[("ATTRS{idProduct}", "==")] == "0005"
    assert "/dev/" + rule[("SYMLINK", "+=")] == DEFAULT_PORT
    assert rule[("ENV{ID_MM_DEVICE_IGNORE}", "=")] == "1"
    assert rule[("MODE", "=")] == "0660" and rule[("GROUP", "=")] == "dialout"
