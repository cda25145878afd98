# tavla-pi: every target sets up what it needs in .venv first.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: test quick lint typecheck unit sim install deps hardware bench clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || \
	  { echo "tavla-pi needs Python 3.11 or newer (found $$($(PYTHON) --version))"; exit 2; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $@

## test: lint, type-check and run the whole test suite (what .ci/run runs; minutes)
test: lint unit

## quick: the inner loop: lint, type-check and every test not marked slow, on every core
## (pytest-xdist; about two minutes and a half on two cores), those marked alone apart
quick: lint
	@status=0; \
	$(BIN)/pytest -m "alone and not slow" -n 0 || status=$$?; \
	$(BIN)/pytest -m "not slow and not alone" -n auto --dist worksteal || status=$$?; \
	exit $$status

## lint: ruff and mypy --strict (bench and tools apart: each has a soak.py of its own)
lint: $(STAMP)
	$(BIN)/ruff check tavla_pi tests $(wildcard bench tools)
	$(BIN)/mypy tavla_pi tests
	$(BIN)/mypy bench
	$(BIN)/mypy tools

## unit: every test, slow ones included: first those marked alone (they time the scan loop
## or a real process), one at a time; then the rest on every core (pytest-xdist, a
## worker that runs dry takes tests queued for the other), ending
## with the 25 slowest.  Either run failing fails the target.  A test whose program
## (gnubg, chromium, ...) is missing skips with one line (fails with
## TAVLA_REQUIRE_PROGRAMS=1, as in .ci/run)
unit: $(STAMP)
	@status=0; \
	$(BIN)/pytest -m alone -n 0 || status=$$?; \
	$(BIN)/pytest -m "not alone" -n auto --dist worksteal --durations=25 || status=$$?; \
	exit $$status

## sim: the whole product on a desktop: the simulated board, its page in the browser
sim: $(STAMP)
	$(BIN)/tavla-pi sim --open

## deps: on Debian or Raspberry Pi OS, the programs the full suite runs (root or sudo)
DEPS := gnubg chromium systemd mosquitto mosquitto-clients espeak-ng
deps:
	@missing=$$(for p in $(DEPS); do \
	  dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; done); \
	if [ -z "$$missing" ]; then echo "deps: installed: $(DEPS)"; exit 0; fi; \
	command -v apt-get >/dev/null || { echo "deps: no apt-get here: install$$(echo $$missing)"; exit 2; }; \
	sudo=; [ "$$(id -u)" = 0 ] || sudo=sudo; \
	echo "deps: installing" $$missing; \
	$$sudo apt-get update -qq && \
	DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq $$missing >/dev/null

## install: on a Raspberry Pi, install the service (sudo make install; DRY_RUN=1 only prints the plan,
## PI_MODEL=pi3|pi4|pi5 plans for another model, PINOUT=FILE for another pin map)
PREFIX ?= /opt/tavla-pi
install:
	@PREFIX="$(PREFIX)" PYTHON="$(PYTHON)" PI_MODEL="$(PI_MODEL)" PINOUT="$(PINOUT)" \
	  sh systemd/install.sh $(if $(filter-out 0 no,$(DRY_RUN)),--dry-run)

## hardware: regenerate hardware/wiring.svg, hardware/WIRING.md and the packaged pinout copy
hardware: $(STAMP)
	$(BIN)/python tools/gen_wiring.py
	cmp -s hardware/pinout.toml tavla_pi/pinout.toml || cp hardware/pinout.toml tavla_pi/pinout.toml

## bench: run every benchmark and print its figures
bench: $(STAMP)
	@for b in bench/*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache build *.egg-info
