# Thin wrapper over CMake/CTest; the README's commands.
BUILD ?= build
JOBS ?= 2

.PHONY: deps build dev test unit e2e bench soak manifests clean

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

bench: build
	./bench/run.sh $(BUILD)

# Minutes of churn across every controller; RSS, threads, fds and queue depths must stay flat.
soak: build
	./bench/soak.sh $(BUILD)

clean:
	rm -rf $(BUILD)
