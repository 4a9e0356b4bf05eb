// Blocked GEMM's contract (gigacheck/family.hpp): the Gigacheck report's checked, blocked GEMM
// under a device-memory cap.
#include "gigacheck/family.hpp"

#include "families/blocked_gemm/ops.hpp"
#include "gigacheck/record.hpp"

#include <array>

namespace gigacheck::blocked_gemm {
namespace {

std::shared_ptr<const RecordEnvelope> load(const std::string& path)
{
    return std::make_shared<const RunRecord>(gigacheck::loadRecord(path));
}

std::string report(const RecordEnvelope& record) { return formatReport(static_cast<const RunRecord&>(record)); }

// runBench tells its five suites apart by options.suite.
constexpr std::array kSuites{
    BenchSuite{"abft-overhead", &runBench}, BenchSuite{"kernels", &runBench},
    BenchSuite{"out-of-core", &runBench},   BenchSuite{"paper", &runBench},
    BenchSuite{"link", &runBench},          BenchSuite{"multi-gpu-gemm", &runMultiGpuGemmBench},
};

}  // namespace

const Family& familyContract()
{
    static const Family f{kFamilyName, "blocked GEMM", "run", &family, &load, &report, kSuites};
    return f;
}

}  // namespace gigacheck::blocked_gemm
