# Thin wrapper over CMake/CTest; the README's commands.
BUILD ?= build
JOBS ?= 2

.PHONY: deps build dev test unit e2e bench soak manifests clean fuzz fuzz-build sanitize image

deps:
	@./scripts/deps.sh

$(BUILD)/build.ninja:
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release

build: deps $(BUILD)/build.ninja
	cmake --build $(BUILD) -j $(JOBS)

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) --timeout 600

unit: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) -L unit

e2e: build
	cd $(BUILD) && ctest --output-on-failure -j 1 -L e2e

dev: build
	$(BUILD)/bin/capstan dev

# Regenerates config/crd, config/rbac/role.yaml, config/webhook/manifests.yaml, the chart's CRDs and templates/_generated.tpl.
manifests: build
	$(BUILD)/bin/capstan manifests config --chart charts/capstan

# The image the chart and config/default run (Dockerfile); IMG names it, docker or podman builds it.
IMG ?= ghcr.io/capstan-dev/capstan:0.1.0
CONTAINER_TOOL ?= $(shell command -v docker 2>/dev/null || command -v podman 2>/dev/null)
image:
	@test -n "$(CONTAINER_TOOL)" || { echo "make image: needs docker or podman (or CONTAINER_TOOL=...)" >&2; exit 1; }
	$(CONTAINER_TOOL) build -t $(IMG) .

bench: build
	./bench/run.sh $(BUILD)

# Minutes of churn across every controller; RSS, threads, fds and queue depths must stay flat.
soak: build
	./bench/soak.sh $(BUILD)

# Instrumented builds, never part of `make test` (README, Testing). Each has its own build dir.
FUZZ_BUILD ?= build-fuzz
ASAN_BUILD ?= build-asan
FUZZ_SECONDS ?= 60
# Both instrumented builds use -O1 with line tables: fast enough to fuzz and to run the tests,
# stacks still name file:line, and assertions stay on (no NDEBUG).
$(FUZZ_BUILD)/build.ninja:
	CXX=clang++-14 cmake -S . -B $(FUZZ_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" -DCAPSTAN_FUZZ=ON

# libFuzzer targets under ASan+UBSan (clang 14): only the libraries they need are built.
fuzz-build: deps
	@./scripts/fuzz.sh
	@$(MAKE) --no-print-directory $(FUZZ_BUILD)/build.ninja
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target fuzzers

# Runs every target for FUZZ_SECONDS from its committed seed corpus; prints executions, corpus
# size and findings per target and fails on any crash, leak or undefined behaviour.
fuzz: fuzz-build
	./scripts/fuzz_run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS)

$(ASAN_BUILD)/build.ninja:
	cmake -S . -B $(ASAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" \
	  -DCAPSTAN_SANITIZE=address,undefined

# The unit tests under ASan+UBSan (the compiler of `make build`).
sanitize: deps $(ASAN_BUILD)/build.ninja
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --output-on-failure -j $(JOBS) -L unit --timeout 900

clean:
	rm -rf $(BUILD) $(FUZZ_BUILD) $(ASAN_BUILD)
