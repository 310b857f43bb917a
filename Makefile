# The two newcomer commands: `make demo` (install, then run the table on simulated hardware) and `make test`.
VENV ?= .venv
PY := $(VENV)/bin/python

.PHONY: demo test install install-dev

$(VENV)/bin/python:
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# The table itself: what `cardtable demo` and `cardtable run` need (no test tools, no torch).
$(VENV)/.installed: pyproject.toml $(VENV)/bin/python
	$(PY) -m pip install --quiet -e .
	touch $@

# The tests' tools too, and the trainers' CPU torch (from the pinned wheel) for the training tests.
$(VENV)/.installed-dev: pyproject.toml $(VENV)/bin/python
	$(PY) -m pip install --quiet -e '.[dev,train]'
	touch $@ $(VENV)/.installed

install: $(VENV)/.installed

install-dev: $(VENV)/.installed-dev

demo: install
	$(VENV)/bin/cardtable demo

test: install-dev
	$(VENV)/bin/mypy  # the type check (files and settings: [tool.mypy] in pyproject.toml)
	$(PY) -m pytest -n auto -q
