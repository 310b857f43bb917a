"""The [club] section of the table's config: opt-in, checked, and every bad key named."""
from __future__ import annotations

from pathlib import Path

import pytest

from controller.service.config import ClubConfig, ConfigError, parse_config

SYNTHETIC = '[camera]\nsource = "synthetic"\n'


def club(text: str, base: Path) -> ClubConfig:
    return parse_config(SYNTHETIC + "[club]\n" + text, base).club


def test_without_a_host_the_table_publishes_nowhere(tmp_path: Path) -> None:
    assert not parse_config(SYNTHETIC, tmp_path).club.enabled
    assert not club('port = 1884\n', tmp_path).enabled


def test_a_club_section_is_read_with_paths_relative_to_the_file(tmp_path: Path) -> None:
    (tmp_path / "secret").write_text("s3cret\nignored\n")
    (tmp_path / "ca.crt").write_text("")
    config = club('host = "hall.local"\nport = 8883\nclub = "riverside"\ntable = "table-3"\n'
                  'password_file = "secret"\ntls_ca = "ca.crt"\noutbox_limit = 500\n', tmp_path)
    assert (config.enabled, config.host, config.port, config.club, config.table) == (
        True, "hall.local", 8883, "riverside", "table-3")
    assert (config.user, config.secret(), config.tls_ca, config.outbox_limit) == (
        "table-3", "s3cret", tmp_path / "ca.crt", 500)
    assert club('host = "h"\nclub = "c"\ntable = "t"\nusername = "u-7"\n', tmp_path).user == "u-7"


@pytest.mark.parametrize("text, key, words", [
    ('host = "h"\ntable = "t"\n', "club.club", "topic level"),
    ('host = "h"\nclub = "c"\n', "club.table", "topic level"),
    ('host = "h"\nclub = "a/b"\ntable = "t"\n', "club.club", "'a/b'"),
    ('host = "h"\nclub = "c"\ntable = "t#"\n', "club.table", "'t#'"),
    ('host = "h"\nclub = "c"\ntable = "hall"\n', "club.table", "the hall's broker user"),
    ('host = "h"\nclub = "c"\ntable = "t"\nport = 0\n', "club.port", "1..65535"),
    ('host = "h"\nclub = "c"\ntable = "t"\noutbox_limit = 0\n', "club.outbox_limit", "at least 1"),
    ('host = "h"\nclub = "c"\ntable = "t"\npassword = "p"\npassword_file = "pw"\n', "club.password_file",
     "no such file"),
    ('host = "h"\nclub = "c"\ntable = "t"\ntls = true\n', "club.tls", "unknown setting"),
    ('host = 7\n', "club.host", "expected a string"),
])
def test_a_bad_club_setting_is_named(tmp_path: Path, text: str, key: str, words: str) -> None:
    with pytest.raises(ConfigError) as refused:
        club(text, tmp_path)
    assert refused.value.key == key and words in str(refused.value)


def test_a_password_and_a_password_file_together_are_refused(tmp_path: Path) -> None:
    (tmp_path / "pw").write_text("x\n")
    with pytest.raises(ConfigError) as refused:
        club('host = "h"\nclub = "c"\ntable = "t"\npassword = "p"\npassword_file = "pw"\n', tmp_path)
    assert refused.value.key == "club.password" and "not both" in str(refused.value)
