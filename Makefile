# Everything a fresh machine needs, from nothing but Python.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test bench lint clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/croupier

# Compiled once up front: where PYTHONDONTWRITEBYTECODE is set, every test worker and
# every writer process a test starts would compile the project's modules again.
test: $(STAMP)
	$(BIN)/python -m compileall -q -j 0 bot rules storage commands bench tests > /dev/null
	$(BIN)/python -m pytest -q -n 4 --dist worksteal --durations=15 rules storage bot commands tests

bench: $(STAMP)
	$(BIN)/python -m bench

lint: $(STAMP)
	$(BIN)/ruff check .

clean:
	rm -rf $(VENV) .pytest_cache
