# Two commands do all set-up on a fresh machine: `make serve` (the main job) and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
NODE_STAMP := node_modules/.installed

.PHONY: install serve cluster test lint bench api-check i18n clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[web,kernel,plot,openspiel,pettingzoo,dev]'
	touch $(STAMP)

# The JavaScript linter (package.json, package-lock.json): node and npm from the system.
$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $(NODE_STAMP)

install: $(STAMP) $(NODE_STAMP)

serve: $(STAMP)
	$(BIN)/roses serve

# Three server processes behind HAProxy on http://127.0.0.1:8000, on PostgreSQL and Redis
# (the database `roses` made if missing; PROCESSES=N for another count); Ctrl-C stops all.
PROCESSES ?= 3
cluster: $(STAMP)
	bash scripts/system-deps.sh cluster
	$(BIN)/roses cluster --processes $(PROCESSES)

lint: $(STAMP) $(NODE_STAMP)
	$(BIN)/ruff check roses tests benchmarks examples
	$(BIN)/ruff format --check roses tests benchmarks examples
	$(BIN)/mypy roses
	npx --no-install eslint

test: $(STAMP)
	bash scripts/system-deps.sh
	$(MAKE) lint
	$(BIN)/pytest -n 2 -p no:cacheprovider

# Schemathesis against a real server: every operation, signed in and out, thousands of requests.
api-check: $(STAMP)
	ROSES_API_EXAMPLES=150 $(BIN)/pytest -p no:cacheprovider -q tests/server/test_api_schema.py

# Re-extract the messages (babel.cfg) and bring every catalogue up to date; then translate
# the new entries in roses/locale/<language>/LC_MESSAGES/messages.po (tests/server/test_i18n.py).
i18n: $(STAMP)
	$(BIN)/pybabel extract -F babel.cfg --project roses --copyright-holder "the roses authors" \
		-o roses/locale/messages.pot roses
	$(BIN)/pybabel update -i roses/locale/messages.pot -d roses/locale --ignore-obsolete

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf $(VENV) node_modules .mypy_cache .ruff_cache .pytest_cache
