// Without CUDA there is no device to race on: the comparison says so.
#include "families/strassen/bench/shared_target_products.hpp"

#include "gigacheck/backend.hpp"

namespace gigacheck::strassen {

std::vector<SharedTargetTiming> measureSharedTargetProducts(int, std::int64_t, Precision, int)
{
    throw BackendError("atomics against ordering runs on a CUDA device: this build has no CUDA");
}

}  // namespace gigacheck::strassen
