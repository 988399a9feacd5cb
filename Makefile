# Thin wrapper over CMake presets: the README's quick start is `make serve` and `make test`.
# Both install missing Debian packages first (scripts/install-deps.sh).

JOBS ?= $(shell nproc)

.PHONY: all deps release asan tsan serve test test-datasets test-cgroup-v2 test-container format clean

all: release

deps:
	bash scripts/install-deps.sh

release: deps
	cmake --preset release
	cmake --build --preset release -j $(JOBS)

asan: deps
	cmake --preset asan
	cmake --build --preset asan -j $(JOBS)

tsan: deps
	cmake --preset tsan
	cmake --build --preset tsan -j $(JOBS)

# Benchmark data imported at start (unchanged sources are not read again): verdict's own
# problem sets, and ../shared/datasets where it exists.
DATASETS ?= problems $(firstword $(wildcard ../shared/datasets /work/shared/datasets))

# Checks the host, then serves on 127.0.0.1:8080 until Ctrl-C (SIGINT) or SIGTERM.
serve: release
	./build/release/verdict doctor --skip-toolchains
	./build/release/verdict serve $(addprefix --datasets ,$(DATASETS))

# The whole suite, twice: under AddressSanitizer+UBSan, and on the release build; then the
# threaded parts under ThreadSanitizer. All builds use -Werror, so a warning fails the run.
# The datasets self-check (a quarter of every benchmark's problems: minutes of compiling),
# the integrity suite (hundreds of attacks, each a real program judged) and the soak judge
# programs more than they exercise verdict's own code paths, so they run once, on the release
# build (the graders' server side, graded.c, lint.c, seal.c, is under ASan in the unit and API
# tests); so do the per-language runs (thirty toolchains through the cell's paths that the
# sandbox test already takes under ASan) and the benchmarks' smoke runs (their drivers kept
# from rotting: a sanitizer's build measures nothing). Under TSan: the unit tests (scheduler, cache, store writer), the
# HTTP API (the server's poll thread, workers, scheduler, pool replacement, store writer,
# `verdict bench`'s workers), the cli and the sandbox test (the pool); not the per-language
# runs, which add no thread of verdict's, nor the hostile probes run inside sessions (the
# sessions' threads are the API tests'), nor api_hostile (header rules on the poll thread, and
# the memory budget of sandbox output, which a sanitizer's allocator measures badly).
# The API suite's entries that both sanitizer passes run are not run a third time on the release
# build: every other HTTP suite (datasets, integrity, soak, deploy, browser, bench) serves from it.
RELEASE_SKIP = -E '^(api|api_load|api_edges)$$'
TSAN_TESTS = -L 'unit|api|cli|sandbox' -E '^(languages|compile|cuda|session_probes|api_hostile)$$'
test: asan release tsan
	ctest --preset asan -j $(JOBS) -LE 'datasets|soak|integrity|bench' -E '^languages$$'
	ctest --preset release -j $(JOBS) -LE datasets_full $(RELEASE_SKIP)
	ctest --preset tsan -j $(JOBS) $(TSAN_TESTS)

# The datasets self-check on every problem (make test judges every 4th: tests/CMakeLists.txt).
test-datasets: release
	ctest --preset release -L datasets_full --output-on-failure

# The suite's sandbox, unit and cli tests on the unified cgroup v2 hierarchy, in a Debian
# guest under QEMU (scripts/vm/test-v2.sh): its image built from Debian's packages and cached
# in /var/cache/verdict-vm; results in build/vm-v2-results. V2_TESTS: other ctest arguments
# (V2_TESTS='-R sandbox').
test-cgroup-v2: deps
	bash scripts/vm/test-v2.sh $(V2_TESTS)

# verdict's container image (docker/) built with podman from Debian's packages and tested for
# real (tests/container/run.sh: installs podman, runc and mmdebstrap where missing); the base
# image is cached in /var/cache/verdict-container, nothing else is left behind. Figures in
# build/container/figures.json.
test-container: release
	VERDICT_CONTAINER_TEST=1 ctest --preset release -L container --output-on-failure

format:
	clang-format -i $$(find server runners tests benchmarks languages -name '*.[ch]' -not -path '*/sandbox/languages/*' 2>/dev/null) \
	    $$(find problems -name '*.c' -o -name '*.cpp')

clean:
	rm -rf build compile_commands.json
