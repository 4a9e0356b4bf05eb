// Reduced matmul's contract (gigacheck/family.hpp): C(i,j) = (row 2i + row 2i+1 of A) .
// (col 2j + col 2j+1 of B), from the naive kernel to tiled ones.
#include "families/family_contract.hpp"

#include "families/gallery/contract_parts.hpp"
#include "families/reduced_matmul/run/reduced_run.hpp"
#include "families/reduced_matmul/cli/verb.hpp"
#include "families/reduced_matmul/ops.hpp"
#include "gigacheck/reduced_matmul.hpp"

#include <array>

namespace gigacheck::reduced_matmul {
namespace {

constexpr std::array kSuites{BenchSuite{"reduced", &runBench}};

std::string wrongWords(const Record& r)
{
    return std::to_string(r.wrong) + " of " + std::to_string(r.checked) +
           " checked element(s) of C are off from the FP64 reference beyond its tolerance";
}

}  // namespace

std::string describeConfig(const Config& c)
{
    return "reduced matmul n = " + std::to_string(c.n) + " " + std::string(toString(c.variant)) + ", " +
           std::string(toString(c.precision)) + ", " + std::to_string(c.reps) + (c.reps == 1 ? " rep" : " reps");
}

const Family& familyContract()
{
    static const Family f{kFamilyName, "reduced matmul", "reduced", &family, &contract::loadRecordAs<Record, &loadRecord>,
                          &contract::reportAs<Record, &report>, kSuites, &command(), nullptr,
                          &gallery::saveAs<Record, &toJson>,
                          &gallery::verdictAs<Record, &wrongWords>, &ConfiguredRun::fromRecord};
    return f;
}

}  // namespace gigacheck::reduced_matmul
