/* libFuzzer harness for server/datasets/extract: `cmake -DVERDICT_FUZZ=ON` with clang, then
 * `./fuzz_extract -max_total_time=60`. The entry point checks the result's invariants. */
#include <stddef.h>
#include <stdint.h>

#include "server/datasets/extract.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return extract_fuzz_one(data, size);
}
