// One blocked GEMM run, configured (gigacheck/family.hpp FamilyRun): from `gigacheck run`'s
// options or from a record. `gigacheck run` adds the user's own matrices and --save-c to it
// (families/cli/run/).
#pragma once

#include "families/family_contract.hpp"
#include "gigacheck/blocked_gemm/record.hpp"

namespace gigacheck::blocked_gemm {

const Family& familyContract();

class BlockedRun : public contract::RunOf<RunConfig> {
public:
    explicit BlockedRun(RunConfig config) : RunOf(std::move(config)) {}
    const Family& family() const override { return familyContract(); }
    std::string describe() const override;
    std::shared_ptr<const RecordEnvelope> run(const RunHooks& hooks) override;
};

}  // namespace gigacheck::blocked_gemm
