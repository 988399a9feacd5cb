# Thin wrapper over CMake presets: the README's quick start is `make serve` and `make test`.
# Both install missing Debian packages first (scripts/install-deps.sh).

JOBS ?= $(shell nproc)

.PHONY: all deps release asan serve test format clean

all: release

deps:
	bash scripts/install-deps.sh

release: deps
	cmake --preset release
	cmake --build --preset release -j $(JOBS)

asan: deps
	cmake --preset asan
	cmake --build --preset asan -j $(JOBS)

# Checks the host, then serves on 127.0.0.1:8080 until Ctrl-C (SIGINT) or SIGTERM.
serve: release
	./build/release/verdict doctor --skip-toolchains
	./build/release/verdict serve

# The whole suite, twice: under AddressSanitizer+UBSan, and on the release build. Both
# builds use -Werror, so a warning fails the run.
test: asan release
	ctest --preset asan -j $(JOBS)
	ctest --preset release -j $(JOBS)

format:
	clang-format -i $$(find server runners tests benchmarks languages -name '*.[ch]' -not -path '*/sandbox/languages/*' 2>/dev/null)

clean:
	rm -rf build compile_commands.json
