# The two set-up commands of the README: `make run` and `make test`.
VENV ?= .venv
PYTHON ?= python3
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run sync-commands sandbox test bench lint format messages

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,postgres]'
	touch $(STAMP)

run: $(STAMP)  ## install and start the bot (the sandbox when no DISCORD_TOKEN is configured)
	$(BIN)/tablehand

sync-commands: $(STAMP)  ## register the slash commands with Discord (once, and after upgrades)
	$(BIN)/tablehand sync-commands

sandbox: $(STAMP)  ## the terminal table, even when a token is configured
	$(BIN)/tablehand sandbox

test: $(STAMP)  ## lint, then the whole default test suite; "no tests collected" is a failure
	$(BIN)/ruff check .
	$(BIN)/python -m pytest; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "pytest collected no tests: failing" >&2; exit 1; fi; exit $$rc

bench: $(STAMP)  ## the performance benchmarks (not part of `make test`)
	$(BIN)/python -m tests.bench

lint: $(STAMP)
	$(BIN)/ruff check . && $(BIN)/ruff format --check .

format: $(STAMP)
	$(BIN)/ruff format . && $(BIN)/ruff check --fix .

messages: $(STAMP)  ## merge new and changed texts into every language's catalogue (bot/locale)
	$(BIN)/python -m bot.i18n update
