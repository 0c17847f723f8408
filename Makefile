# The commands kgroups is built, tested and checked with. `make` alone lists
# them. Everything here is a plain go command; the Makefile only names them.

GO ?= go
GOBIN := $(shell $(GO) env GOPATH)/bin
STATICCHECK ?= $(GOBIN)/staticcheck
GOLANGCI_LINT ?= $(GOBIN)/golangci-lint
# The versions .ci/run installs; `make tools` installs the same.
STATICCHECK_PKG := honnef.co/go/tools/cmd/staticcheck@v0.8.2
GOLANGCI_LINT_PKG := github.com/golangci/golangci-lint/v2/cmd/golangci-lint@v2.15.0

# Packages with golden files: their tests use charmbracelet/x/exp/golden,
# whose -update flag rewrites testdata/<Test>.golden.
GOLDEN_PKGS := $(sort $(patsubst %/,%,$(dir $(shell grep -rl --include='*_test.go' 'charmbracelet/x/exp/golden"' .))))

# make bench BENCH=regex PKG=./kafka/... [BENCHFLAGS='-benchtime 10x -count 3']
# runs one selection instead of the README's list.
BENCH ?=
PKG ?=
BENCHFLAGS ?= -benchmem

.DEFAULT_GOAL := help

# The releases the real-Kafka tier runs on (.ci/kafka versions).
KAFKA_VERSIONS ?= $(shell ./.ci/kafka versions)
# The tier's other client libraries (TestRealVerdictsOtherLibraries), as
# .ci/run installs them: Debian's packages for /usr/bin/python3 and kcat,
# and kafkajs, pinned, with npm into .ci/kafka's cache.
KAFKAJS_VERSION := 2.2.4
KAFKA_CACHE ?= $(or $(KGROUPS_KAFKA_CACHE),$(or $(XDG_CACHE_HOME),$(HOME)/.cache)/kgroups-kafka)

.PHONY: help build demo test race flake test-kafka golden lint tools bench screenshot ci

help: ## list the targets
	@awk 'BEGIN {FS = ":.*## "} /^[a-z-]+:.*## / {printf "  %-11s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

build: ## compile every package and build ./kgroups
	$(GO) build ./...
	$(GO) build -o kgroups ./cmd/kgroups

demo: ## run the demo cluster with its workload and open the UI on it
	$(GO) run ./cmd/kgroups demo

test: ## run the tests once, without the race detector
	$(GO) test -count=1 ./...

race: ## run the tests with the race detector (the README's test command)
	$(GO) test -race -count=1 ./...

flake: ## the race tests COUNT times (default 3) beside a CPU hog on every core; lists each test that failed (PKG=./pkg/..., RUN=regex)
	COUNT=$(or $(COUNT),3) RUN='$(value RUN)' ./.ci/flake $(or $(PKG),./...)

test-kafka: ## run the real-Kafka tier: real brokers, Java clients, kafka-consumer-groups.sh (needs java, mvn, node, npm; apt-gets the Python libraries and kcat)
	@for v in $(KAFKA_VERSIONS); do ./.ci/kafka fetch $$v >/dev/null || exit 1; done
	@cd kafka/rebalance/testdata/capture && $(GO) mod download
	@missing=""; \
	/usr/bin/python3 -I -c 'import kafka' >/dev/null 2>&1 || missing="$$missing python3-kafka"; \
	/usr/bin/python3 -I -c 'import confluent_kafka' >/dev/null 2>&1 || missing="$$missing python3-confluent-kafka"; \
	command -v kcat >/dev/null 2>&1 || missing="$$missing kcat"; \
	if [ -n "$$missing" ]; then \
		sudo=""; [ "$$(id -u)" -eq 0 ] || sudo=sudo; \
		echo "installing with apt-get:$$missing"; \
		$$sudo apt-get update -q && $$sudo apt-get install -y -q --no-install-recommends $$missing || exit 1; \
	fi
	@if [ "$$(node -p "require('$(KAFKA_CACHE)/node/node_modules/kafkajs/package.json').version" 2>/dev/null)" != "$(KAFKAJS_VERSION)" ]; then \
		npm install --prefix "$(KAFKA_CACHE)/node" --no-audit --no-fund kafkajs@$(KAFKAJS_VERSION) || exit 1; \
	fi
	$(GO) test -tags realkafka -race -count=1 -timeout 45m -run '^TestReal' ./kafka/realkafka/ ./kafka/recording/ ./cmd/kgroups/

golden: ## rewrite every golden file, the recorded verdicts and the docs' generated tables
	$(GO) test -count=1 $(GOLDEN_PKGS) -update
	$(GO) test -count=1 ./kafka/lag -run TestHistoryAnswers -update
	$(GO) test -count=1 ./cmd/kgroups -run 'TestSupportTable|TestSettingsTableDoc' -update

lint: ## gofmt, go vet, staticcheck and golangci-lint, as CI runs them
	@unformatted="$$(gofmt -l .)"; \
	if [ -n "$$unformatted" ]; then \
		echo "these files need gofmt -w:" >&2; echo "$$unformatted" >&2; exit 1; \
	fi
	$(GO) vet ./...
	$(GO) vet -tags realkafka ./...
	@command -v $(STATICCHECK) >/dev/null || { echo "no $(STATICCHECK): run make tools" >&2; exit 1; }
	$(STATICCHECK) ./...
	$(STATICCHECK) -tags realkafka ./...
	@command -v $(GOLANGCI_LINT) >/dev/null || { echo "no $(GOLANGCI_LINT): run make tools" >&2; exit 1; }
	$(GOLANGCI_LINT) run ./...

tools: ## install the pinned staticcheck and golangci-lint that lint runs
	$(GO) install $(STATICCHECK_PKG)
	$(GO) install $(GOLANGCI_LINT_PKG)

bench: ## run the README's benchmarks (or BENCH=regex PKG=./pkg/...)
ifneq ($(BENCH)$(PKG),)
	$(GO) test -run '^$$' -bench '$(or $(BENCH),.)' $(BENCHFLAGS) $(or $(PKG),./...)
else
	$(GO) test -run '^$$' -bench BenchmarkPoll -benchtime 20x ./kafka/
	$(GO) test -run '^$$' -bench BenchmarkView -benchmem ./views/screens/grouplist/ ./views/screens/groupdetail/
	$(GO) test -run '^$$' -bench . -benchtime 30x ./kafka/lag/
	$(GO) test -run '^$$' -bench Diagnose2000 -benchtime 20x ./kafka/diagnose/
	$(GO) test -run '^$$' -bench TakePoll10000 -benchtime 20x ./views/screens/grouplist/
	$(GO) test -run '^$$' -bench PollAgainstFloor -benchtime 10x -count 3 ./cmd/floorbench/
	$(GO) test -run '^$$' -bench DescribeAll -benchtime 20x -count 3 ./views/render/
	$(GO) test -run '^$$' -bench 'HistoryMemory' -benchtime 1x -count 3 ./kafka/lag/
	$(GO) test -run '^$$' -bench 'HistoryAdd|Evaluate' -benchtime 30x -count 3 -benchmem ./kafka/lag/
	$(GO) test -run '^$$' -bench BenchmarkLagAdd -benchtime 10x -count 3 ./kafka/lag/
	$(GO) test -run '^$$' -bench BenchmarkPollResult -benchtime 20x -count 3 ./tui/
	$(GO) test -run '^$$' -bench BenchmarkPollDataMemory -benchtime 1x ./tui/
	$(GO) test -run '^$$' -bench BenchmarkLiveUI ./cmd/uibench/
	$(GO) test -run '^$$' -bench BenchmarkPollAllocs -benchtime 10x -count 3 -benchmem ./kafka/
endif

screenshot: ## render the pictures of the UI in docs/images (.ci/screenshot)
	./.ci/screenshot

ci: ## run the whole CI script (.ci/run) on this machine
	./.ci/run
