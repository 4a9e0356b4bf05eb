// One Strassen run, configured (gigacheck/family.hpp FamilyRun): from `gigacheck strassen`'s
// options or from a record.
#pragma once

#include "families/family_contract.hpp"
#include "gigacheck/strassen.hpp"

namespace gigacheck::strassen {

const Family& familyContract();

class StrassenRun final : public contract::RunOf<StrassenConfig> {
public:
    explicit StrassenRun(StrassenConfig config) : RunOf(std::move(config)) {}
    const Family& family() const override { return familyContract(); }
    std::string describe() const override;
    // The hooks' backend when given (the lab reuses one), else one made for the configuration.
    std::shared_ptr<const RecordEnvelope> run(const RunHooks& hooks) override;
};

}  // namespace gigacheck::strassen
