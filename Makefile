# Two commands do all the set-up: `make run` and `make test`.
PY ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install run cluster worker test lint typecheck format spec bench bench-http bench-cluster bench-bots image clean

$(STAMP): pyproject.toml constraints.txt
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q -c constraints.txt -e '.[local,test]'
	touch $(STAMP)

install: $(STAMP)

## Serve the API with gunicorn and a worker; starts its own Redis under ./var/ unless REDIS_URL is set.
run: install
	$(BIN)/syndicate run

## The same on one machine as on many: a Redis Cluster (3 masters, 3 replicas), a Redis for the queues, two API
## processes (ports 8000 and 8001) and two workers, under ./var/cluster/; Ctrl-C stops it all.
cluster: install
	$(BIN)/syndicate cluster

## Lint, check formatting, type-check every package, check the committed OpenAPI document, run every test against a real Redis
## (pytest-xdist's workers each start their own Redis). Half as many workers again as cores: many tests spend much of
## their time waiting on a browser, a server or a worker they started, so the cores would idle with one worker each;
## a worker that runs out of tests takes some from another's queue.
TEST_WORKERS ?= $(shell echo $$(( $$(nproc) * 3 / 2 )))
test: install lint typecheck
	$(BIN)/pytest -n $(TEST_WORKERS) --dist worksteal

.PHONY: test-web screenshots

## Only the web client's browser tests (Playwright driving /usr/bin/chromium; some six minutes on two cores).
test-web: install
	$(BIN)/pytest -n $(TEST_WORKERS) --dist worksteal tests/web

## Play each game in the browser tests and save a screenshot of each table under docs/screenshots/.
screenshots: install
	mkdir -p docs/screenshots
	SYNDICATE_SCREENSHOTS=docs/screenshots $(BIN)/pytest tests/web

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

## Type-check every package strictly (the [tool.mypy] settings in pyproject.toml).
typecheck: install
	$(BIN)/mypy games players events projections service

format: install
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

## Regenerate api_spec/openapi.yaml from the code.
spec: install
	$(BIN)/syndicate openapi > api_spec/openapi.yaml

## Every benchmark (a few minutes; BENCHMARKS.md says what each measures and the knobs).
bench: install
	$(BIN)/python -m benchmarks

## Only the HTTP side by side: the service against the bare baseline, the same load, alternating.
bench-http: install
	$(BIN)/python -m benchmarks.http_load

## One API process against two on a Redis Cluster, the same load, alternating.
bench-cluster: install
	$(BIN)/python -m benchmarks.cluster_load

## How strong the house bots are: the README's table, arena tables of every bot kind (a few minutes; BENCHMARKS.md
## gives the knobs for longer runs).
bench-bots: install
	$(BIN)/python -m benchmarks.bots

## Build the container image, syndicate:latest and :<version>, with the first engine here that can build: docker
## (BuildKit), else podman (with --format docker, which keeps the HEALTHCHECK). ENGINE=docker|podman names one.
ENGINE ?=
VERSION := $(shell sed -n 's/^version = "\(.*\)"/\1/p' pyproject.toml)
image:
	ENGINE="$(ENGINE)" scripts/image.sh -t syndicate:latest -t syndicate:$(VERSION) \
		--build-arg VERSION=$(VERSION) \
		--build-arg REVISION=$$(git rev-parse HEAD 2>/dev/null || echo unknown) \
		--build-arg CREATED=$$(date -u +%Y-%m-%dT%H:%M:%SZ) .

clean:
	rm -rf $(VENV) var .pytest_cache .ruff_cache .mypy_cache
