# The two newcomer commands: `make demo` (install, then run the table on simulated hardware) and `make test`.
VENV ?= .venv
PY := $(VENV)/bin/python

.PHONY: demo test install

$(VENV)/.installed: pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev,train]'  # train: the trainers' tests (CPU torch, from the pinned wheel)
	touch $@

install: $(VENV)/.installed

demo: install
	$(VENV)/bin/cardtable demo

test: install
	$(VENV)/bin/mypy  # the type check (files and settings: [tool.mypy] in pyproject.toml)
	$(PY) -m pytest -n auto -q
