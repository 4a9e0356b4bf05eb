// Random device matrices for the device measurements (benches, rate tables, `devices --measure`):
// reproducible uniform(-1, 1) values from a counter hash, no state, gigabytes in milliseconds.
#pragma once

#include "gigacheck/types.hpp"

#include <cuda_runtime.h>

#include <cstdint>

namespace gigacheck::cuda {

// rows x cols elements of precision p at ptr (leading dimension ld, row-major), from seed.
void fill(Precision p, void* ptr, std::int64_t rows, std::int64_t cols, std::int64_t ld, unsigned long long seed,
          cudaStream_t s);

}  // namespace gigacheck::cuda
