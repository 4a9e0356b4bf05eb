// Online ABFT's contract (gigacheck/family.hpp): outer-product GEMM whose checksums hold after
// every step, against offline ABFT and TMR. No verb of its own: `gigacheck run` (families/cli/run/,
// shared with blocked GEMM) runs it with --scheme online|offline|tmr.
#include "families/family_contract.hpp"

#include "families/online_abft/ops.hpp"
#include "gigacheck/online_abft.hpp"

#include <array>

namespace gigacheck {
const FamilyCampaign& onlineCampaign();  // its campaigns: its campaign/ folder
}

namespace gigacheck::online_abft {
namespace {

constexpr std::array kSuites{BenchSuite{"online", &runOnlineBench}};

}  // namespace

const Family& familyContract()
{
    static const Family f{kFamilyName, "online ABFT", "run", &family, &contract::loadRecordAs<OnlineRecord, &loadOnlineRecord>,
                          &contract::reportAs<OnlineRecord, &formatOnlineReport>, kSuites, nullptr, &onlineCampaign,
                          &contract::saveRecordAs<OnlineRecord, &saveOnlineRecord>};
    return f;
}

}  // namespace gigacheck::online_abft
