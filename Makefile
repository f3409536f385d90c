# The two commands of the README: `make run` and `make test`. Both set up what they need.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: setup accelerate run test generate bench fuzz-smoke clean

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test,pipeline]'
	touch $@

# Compiled builds of the generated codecs (mypyc), cached by source hash; pure Python works without them.
accelerate: $(BIN)/.installed
	$(BIN)/logcodec accelerate

node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund

# The kafkajs testee has its own pinned dependencies.
KAFKAJS := conformance/testees/kafkajs
$(KAFKAJS)/node_modules/.package-lock.json: $(KAFKAJS)/package.json $(KAFKAJS)/package-lock.json
	npm ci --prefix $(KAFKAJS) --no-audit --no-fund

setup: $(BIN)/.installed node_modules/.package-lock.json $(KAFKAJS)/node_modules/.package-lock.json accelerate

# Regenerate everything from schemas/ and decode a sample batch written by kafka-python.
run: setup
	$(BIN)/logcodec generate
	$(BIN)/logcodec decode --format kafka.record_batch_v2 examples/kafka-python-gzip-batch.bin

# The whole suite on the compiled codecs, then the codec tests again on pure Python, then a
# minute of the fuzzing campaign on both builds (exit 1 on any finding: a wrong accept, a value that
# does not round-trip, an exception other than DecodeError, a time-out or memory blow-up) and 300
# mutated schemas through the compiler (exit 1 on a traceback or a misplaced error, law 7),
# then the benchmarks' quick runs as a smoke test (they judge no speed: exit 1 when they break or a
# column gives a wrong answer). pytest runs on both cores (pytest-xdist); `loadgroup` keeps the tests
# that share Spark's session, the PostgreSQL server or the built wheel on one worker (tests/conftest.py).
# The first run lists its 30 slowest tests: CI has 30 minutes, and the list says where they go.
PYTEST := $(BIN)/python -m pytest -n 2 --dist loadgroup
test: setup
	$(BIN)/logcodec generate --check
	$(PYTEST) --durations=30
	LOGCODEC_PURE=1 $(PYTEST) tests/laws tests/codecs tests/corpus
	$(BIN)/python -m fuzz --smoke
	$(BIN)/python -m fuzz schemas --smoke
	$(BIN)/python -m bench kafka --quick > /dev/null
	$(BIN)/python -m bench tank --quick > /dev/null
	$(BIN)/python -m bench kafka-protocol --quick > /dev/null
	$(BIN)/python -m bench inkless-postgres --quick > /dev/null

# The campaign's CI run alone; `python -m fuzz --help` for the full campaign.
fuzz-smoke: setup
	$(BIN)/python -m fuzz --smoke
	$(BIN)/python -m fuzz schemas --smoke

generate: setup
	$(BIN)/logcodec generate

bench: setup
	$(BIN)/python -m bench kafka

clean:
	rm -rf $(VENV) node_modules $(KAFKAJS)/node_modules .pytest_cache .hypothesis fuzz/out build
