// Reduced matmul's contract (gigacheck/family.hpp): C(i,j) = (row 2i + row 2i+1 of A) .
// (col 2j + col 2j+1 of B), from the naive kernel to tiled ones.
#include "families/family_contract.hpp"

#include "families/gallery/contract_parts.hpp"
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

const Family& familyContract()
{
    static const Family f{kFamilyName, "reduced matmul", "reduced", &family, &contract::loadRecordAs<Record, &loadRecord>,
                          &contract::reportAs<Record, &report>, kSuites, &command(), nullptr,
                          &gallery::saveAs<Record, &toJson>,
                          &gallery::verdictAs<Record, &wrongWords>, &gallery::rerunAs<Record, Config, &runReduced>};
    return f;
}

}  // namespace gigacheck::reduced_matmul
