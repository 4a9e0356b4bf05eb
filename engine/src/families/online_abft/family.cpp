// Online ABFT's contract (gigacheck/family.hpp): outer-product GEMM whose checksums hold after
// every step, against offline ABFT and TMR (`gigacheck run --scheme online|offline|tmr`).
#include "gigacheck/family.hpp"

#include "families/online_abft/ops.hpp"
#include "gigacheck/online_abft.hpp"

#include <array>

namespace gigacheck::online_abft {
namespace {

std::shared_ptr<const RecordEnvelope> load(const std::string& path)
{
    return std::make_shared<const OnlineRecord>(loadOnlineRecord(path));
}

std::string report(const RecordEnvelope& record) { return formatOnlineReport(static_cast<const OnlineRecord&>(record)); }

constexpr std::array kSuites{BenchSuite{"online", &runOnlineBench}};

}  // namespace

const Family& familyContract()
{
    static const Family f{kFamilyName, "online ABFT", "run", &family, &load, &report, kSuites};
    return f;
}

}  // namespace gigacheck::online_abft
