"""Files shipped in the vision packages (the models, the rendered faces), found by package name through
importlib.resources rather than by a path relative to a module, so any install finds them.

They are returned as filesystem paths: the models are opened by path (`--model`, an enrolled deck's base,
a CNN manifest naming its members beside it), and pip installs a wheel as a folder of files.
"""
from __future__ import annotations

from importlib import resources
from pathlib import Path


def shipped_file(package: str, name: str) -> Path:
    """The path of the file `name` in `package`; ImportError if the package is not a folder (e.g. zipped)."""
    resource = resources.files(package).joinpath(name)
    if not isinstance(resource, Path):
        raise ImportError(f"{package}: {name} is not a file of its own ({resource!r}); install cardtable with pip")
    return resource
