// Which timed cuBLASLt configuration tuneGemm keeps (gemm_tuning.hpp). No CUDA here, so that the
// CPU tests check the rule.
#pragma once

#include <cstddef>
#include <vector>

namespace gigacheck::cuda {

// The index of the fastest entry of `ms` (entries <= 0 were refused), or, when the fastest entry
// marked `preferred` is within `within` of it (0.02: at most 2 % slower), that one instead; -1 when
// none ran. A lone timing does not see what a kernel costs in a sustained series or beside other
// kernels; a caller that measured that prefers some tiles (online_abft/README.md, "Tiles").
inline int chooseConfiguration(const std::vector<double>& ms, const std::vector<bool>& preferred, double within)
{
    int fastest = -1, fastestPreferred = -1;
    for (std::size_t i = 0; i < ms.size(); ++i) {
        if (ms[i] <= 0)
            continue;
        if (fastest < 0 || ms[i] < ms[std::size_t(fastest)])
            fastest = int(i);
        if (i < preferred.size() && preferred[i] && (fastestPreferred < 0 || ms[i] < ms[std::size_t(fastestPreferred)]))
            fastestPreferred = int(i);
    }
    if (fastestPreferred >= 0 && ms[std::size_t(fastestPreferred)] <= ms[std::size_t(fastest)] * (1.0 + within))
        return fastestPreferred;
    return fastest;
}

}  // namespace gigacheck::cuda
