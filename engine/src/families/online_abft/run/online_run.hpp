// One online ABFT run (online, offline or TMR), configured (gigacheck/family.hpp FamilyRun): from
// `gigacheck run --scheme`'s options or from a record.
#pragma once

#include "families/family_contract.hpp"
#include "gigacheck/online_abft.hpp"

namespace gigacheck::online_abft {

const Family& familyContract();

class OnlineRun final : public contract::RunOf<OnlineConfig> {
public:
    explicit OnlineRun(OnlineConfig config) : RunOf(std::move(config)) {}
    const Family& family() const override { return familyContract(); }
    std::string describe() const override;
    std::shared_ptr<const RecordEnvelope> run(const RunHooks& hooks) override
    {
        return std::make_shared<const OnlineRecord>(runOnline(config_, hooks));
    }
};

}  // namespace gigacheck::online_abft
