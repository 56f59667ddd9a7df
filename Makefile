# The two commands a user needs; both install missing Debian packages first.
#   make demo   build launchopt, transform examples/bfs_cdp.cu, and run both versions on a GPU if present
#   make check  build and run every test (unit, golden lit tests, nvcc compile checks, bench CPU tests)
#   make sanitize  launchopt built with ASan + UBSan, the golden lit tests with it
BUILD ?= build
JOBS ?= $(shell nproc)

.PHONY: all deps build demo check sanitize clean

all: build

deps:
	@scripts/install-deps.sh

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release > $(BUILD).cmake.log 2>&1 || (cat $(BUILD).cmake.log; exit 1)
	@cmake --build $(BUILD) -j $(JOBS)

demo: build
	@scripts/demo.sh $(BUILD)

check: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

sanitize: build
	@BUILD_ASAN=$(BUILD)/asan scripts/sanitize-check.sh

clean:
	rm -rf $(BUILD) $(BUILD).cmake.log
