// Transpose's contract (gigacheck/family.hpp): CPU and GPU transpose kernels against the
// bandwidth peak.
#include "families/family_contract.hpp"

#include "families/gallery/contract_parts.hpp"
#include "families/transpose/cli/verb.hpp"
#include "families/transpose/ops.hpp"
#include "gigacheck/transpose.hpp"

#include <array>

namespace gigacheck::transpose {
namespace {

constexpr std::array kSuites{BenchSuite{"transpose", &runBench}};

std::string wrongWords(const Record& r)
{
    return std::to_string(r.mismatches) + " element(s) are not at their transposed place";
}

}  // namespace

const Family& familyContract()
{
    static const Family f{kFamilyName, "transpose", "transpose", &family, &contract::loadRecordAs<Record, &loadRecord>,
                          &contract::reportAs<Record, &report>, kSuites, &command(), nullptr,
                          &gallery::saveAs<Record, &toJson>,
                          &gallery::verdictAs<Record, &wrongWords>, &gallery::rerunAs<Record, Config, &runTranspose>};
    return f;
}

}  // namespace gigacheck::transpose
