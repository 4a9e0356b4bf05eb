// Transpose's contract (gigacheck/family.hpp): CPU and GPU transpose kernels against the
// bandwidth peak.
#include "gigacheck/family.hpp"

#include "families/transpose/ops.hpp"
#include "gigacheck/transpose.hpp"

#include <array>

namespace gigacheck::transpose {
namespace {

std::shared_ptr<const RecordEnvelope> load(const std::string& path)
{
    return std::make_shared<const Record>(loadRecord(path));
}

std::string reportText(const RecordEnvelope& record) { return report(static_cast<const Record&>(record)); }

constexpr std::array kSuites{BenchSuite{"transpose", &runBench}};

}  // namespace

const Family& familyContract()
{
    static const Family f{kFamilyName, "transpose", "transpose", &family, &load, &reportText, kSuites};
    return f;
}

}  // namespace gigacheck::transpose
