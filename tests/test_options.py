from dataclasses import dataclass
from typing import Literal

import pytest

from controller.engine import SetupError
from controller.options import parse_options


@dataclass(frozen=True)
class Sample:
    target: int = 121
    muggins: bool = False
    rule: Literal["a", "b"] = "a"
    limit: int | None = None


def test_defaults_and_values() -> None:
    assert parse_options(Sample, None) == Sample()
    assert parse_options(Sample, {"target": 61, "muggins": True, "rule": "b", "limit": 3}) == Sample(61, True, "b", 3)


@pytest.mark.parametrize("raw,fragment", [
    ({"trget": 61}, "unknown option"),
    ({"target": "61"}, 'target must be an integer, got "61"'),
    ({"target": True}, "target must be an integer, got true"),
    ({"muggins": 1}, "muggins must be true or false, got 1"),
    ({"rule": "c"}, 'rule must be one of "a", "b", got "c"'),
    ({"limit": "x"}, 'limit must be an integer or null, got "x"'),
    ({"limit": 2.0}, "limit must be an integer or null, got 2.0"),
    ({"rule": ["a"]}, 'rule must be one of "a", "b", got \\["a"\\]'),
])
def test_bad_options_are_named(raw: dict, fragment: str) -> None:
    with pytest.raises(SetupError, match=fragment):
        parse_options(Sample, raw)
