// Online ABFT's contract (gigacheck/family.hpp): outer-product GEMM whose checksums hold after
// every step, against offline ABFT and TMR. No verb of its own: `gigacheck run` (families/cli/run/,
// shared with blocked GEMM) runs it with --scheme online|offline|tmr.
#include "families/family_contract.hpp"
#include "families/online_abft/run/missed_faults.hpp"

#include "families/online_abft/ops.hpp"
#include "families/online_abft/run/online_run.hpp"
#include "gigacheck/online_abft.hpp"

#include <array>

namespace gigacheck {
const FamilyCampaign& onlineCampaign();  // its campaigns: its campaign/ folder
}

namespace gigacheck::online_abft {
namespace {

constexpr std::array kSuites{BenchSuite{"online", &runOnlineBench}};

RecordVerdict verdict(const RecordEnvelope& record)
{
    const OnlineRecord& r = static_cast<const OnlineRecord&>(record);
    return {r.verifiedCorrect(), r.notVerified(),
            "TMR found no majority for some cells and no reference of every cell checked them", !r.reference.passed,
            missedFaultsWords(r)};
}

std::unique_ptr<FamilyRun> configureFromRecord(const RecordEnvelope& record)
{
    return std::make_unique<OnlineRun>(static_cast<const OnlineRecord&>(record).config);
}

}  // namespace

const Family& familyContract()
{
    static const Family f{kFamilyName, "online ABFT", "run", &family, &contract::loadRecordAs<OnlineRecord, &loadOnlineRecord>,
                          &contract::reportAs<OnlineRecord, &formatOnlineReport>, kSuites, nullptr, &onlineCampaign,
                          &contract::saveRecordAs<OnlineRecord, &saveOnlineRecord>, &verdict, &configureFromRecord};
    return f;
}

}  // namespace gigacheck::online_abft
