#include "gemm/input_range.hpp"

#include "gigacheck/input_rounding.hpp"

#include <cmath>
#include <sstream>

namespace gigacheck {

void requireInputFormatRange(const HostMatrix& m, InputFormat input, const std::string& name)
{
    if (input != InputFormat::F16 || m.precision() != Precision::F32)
        return;
    const float* data = m.as<float>();
    const std::int64_t rows = m.rows(), cols = m.cols();
    for (std::int64_t i = 0; i < rows; ++i)
        for (std::int64_t j = 0; j < cols; ++j) {
            const float v = data[i * cols + j];
            if (!(std::abs(v) <= kF16Max)) {  // NaN too: it has no place in a product to check
                std::ostringstream why;
                why << name << "(" << i << ", " << j << ") = " << v << " is beyond FP16's largest finite value "
                    << kF16Max << ": --type f16 (--gemm cublas-f16) cannot hold it; scale the inputs, or use "
                    << "--type bf16 (FP32's range)";
                throw InputError(why.str());
            }
        }
}

}  // namespace gigacheck
