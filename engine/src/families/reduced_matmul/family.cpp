// Reduced matmul's contract (gigacheck/family.hpp): C(i,j) = (row 2i + row 2i+1 of A) .
// (col 2j + col 2j+1 of B), from the naive kernel to tiled ones.
#include "gigacheck/family.hpp"

#include "families/reduced_matmul/ops.hpp"
#include "gigacheck/reduced_matmul.hpp"

#include <array>

namespace gigacheck::reduced_matmul {
namespace {

std::shared_ptr<const RecordEnvelope> load(const std::string& path)
{
    return std::make_shared<const Record>(loadRecord(path));
}

std::string reportText(const RecordEnvelope& record) { return report(static_cast<const Record&>(record)); }

constexpr std::array kSuites{BenchSuite{"reduced", &runBench}};

}  // namespace

const Family& familyContract()
{
    static const Family f{kFamilyName, "reduced matmul", "reduced", &family, &load, &reportText, kSuites};
    return f;
}

}  // namespace gigacheck::reduced_matmul
