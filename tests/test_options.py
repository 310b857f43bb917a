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
    ({"target": "61"}, "target must be int"),
    ({"target": True}, "target must be int"),
    ({"muggins": 1}, "muggins must be bool"),
    ({"rule": "c"}, "rule must be one of"),
    ({"limit": "x"}, "limit must be"),
])
def test_bad_options_are_named(raw: dict, fragment: str) -> None:
    with pytest.raises(SetupError, match=fragment):
        parse_options(Sample, raw)
