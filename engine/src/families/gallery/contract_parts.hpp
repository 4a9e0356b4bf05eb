// The kernel gallery's families (reduced matmul, transpose) in the family contract, written once:
// their record written again, their verdict (verified, or wrong in the family's own words) and
// their configured run (from the verb's options or a record, cancellable between calls).
#pragma once

#include "families/family_contract.hpp"
#include "gigacheck/safe_write.hpp"

#include <memory>
#include <string>

namespace gigacheck::gallery {

template <class Record, std::string (*toJson)(const Record&)>
void saveAs(const RecordEnvelope& record, const std::string& path)
{
    writeFileAtomically(path, toJson(static_cast<const Record&>(record)) + "\n", "run record");
}

template <class Record, std::string (*wrongWords)(const Record&)>
RecordVerdict verdictAs(const RecordEnvelope& record)
{
    const Record& r = static_cast<const Record&>(record);
    RecordVerdict v;
    v.verified = r.verified;
    if (!r.verified)
        v.wrongWhy = wrongWords(r);
    return v;
}

// One run of a kernel-gallery family, configured: from its verb's options or from a record.
// describe is the family's own ("transpose 4096x4096 inplace, f32, 3 reps").
template <class Config, class Record, Record (*runConfig)(const Config&), std::string (*describeConfig)(const Config&),
          const Family& (*familyContract)()>
class GalleryRun final : public contract::RunOf<Config> {
public:
    explicit GalleryRun(Config config) : contract::RunOf<Config>(std::move(config)) {}
    const Family& family() const override { return familyContract(); }
    std::string describe() const override { return describeConfig(this->config_) + describeBackend(this->config_.backend); }
    // Cancellable between calls (the CPU loops between rows).
    std::shared_ptr<const RecordEnvelope> run(const RunHooks& hooks) override
    {
        Config c = this->config_;
        c.cancel = hooks.cancel;
        return std::make_shared<const Record>(runConfig(c));
    }

    // A wrong result is filed as "failed" with its mismatches: the verdict says so (exit 1).
    bool hasVerdict(const RecordEnvelope& record) const override { return record.status != "cancelled"; }

    // Family::configureFromRecord: the recorded configuration.
    static std::unique_ptr<FamilyRun> fromRecord(const RecordEnvelope& record)
    {
        return std::make_unique<GalleryRun>(static_cast<const Record&>(record).config);
    }
};

}  // namespace gigacheck::gallery
