// Transpose's contract (gigacheck/family.hpp): CPU and GPU transpose kernels against the
// bandwidth peak.
#include "families/family_contract.hpp"

#include "families/gallery/contract_parts.hpp"
#include "families/transpose/run/transpose_run.hpp"
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

std::string describeConfig(const Config& c)
{
    return "transpose " + std::to_string(c.m) + "x" + std::to_string(c.n) + " " + std::string(toString(c.variant)) + ", " +
           std::string(toString(c.type)) + ", " + std::to_string(c.reps) + (c.reps == 1 ? " rep" : " reps");
}

const Family& familyContract()
{
    static const Family f{kFamilyName, "transpose", "transpose", &family, &contract::loadRecordAs<Record, &loadRecord>,
                          &contract::reportAs<Record, &report>, kSuites, &command(), nullptr,
                          &gallery::saveAs<Record, &toJson>,
                          &gallery::verdictAs<Record, &wrongWords>, &ConfiguredRun::fromRecord};
    return f;
}

}  // namespace gigacheck::transpose
