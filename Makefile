# Everything a fresh machine needs, from nothing but Python.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test bench lint clean browser

# The browser suite (tests/test_web_browser.py) drives Debian's Chromium and checks
# every page with axe-core from the npm registry, installed once into the venv.
CHROMIUM    := /usr/bin/chromium
AXE_VERSION := 4.10.3
AXE_STAMP   := $(VENV)/axe/.installed-$(AXE_VERSION)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/croupier

# Compiled once up front: where PYTHONDONTWRITEBYTECODE is set, every test worker and
# every writer process a test starts would compile the project's modules again.
test: $(STAMP) browser
	$(BIN)/python -m compileall -q -j 0 bot rules storage commands bench tests > /dev/null
	$(BIN)/python -m pytest -q -n 4 --dist worksteal --durations=15 rules storage bot commands tests

# Nothing here fails `make test`: without the browser or axe-core, the browser tests
# skip and say how to install what is missing.
browser: $(AXE_STAMP)
	@if [ ! -x $(CHROMIUM) ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) \
	      || echo "chromium could not be installed: the browser tests will skip"; \
	  else \
	    echo "no $(CHROMIUM): the browser tests will skip (sudo apt-get install chromium)"; \
	  fi; \
	fi

$(AXE_STAMP):
	@mkdir -p $(VENV)/axe
	@if npm install --silent --no-audit --no-fund --prefix $(VENV)/axe axe-core@$(AXE_VERSION); \
	then touch $@; else echo "axe-core could not be installed: the browser tests will skip"; fi

bench: $(STAMP)
	$(BIN)/python -m bench

lint: $(STAMP)
	$(BIN)/ruff check .

clean:
	rm -rf $(VENV) .pytest_cache
