// The kernel gallery's families (reduced matmul, transpose) in the family contract, written once:
// their record written again, their verdict (verified, or wrong in the family's own words) and
// their rerun (the recorded configuration on the backend asked for, cancellable between calls).
#pragma once

#include "gigacheck/family.hpp"
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

template <class Record, class Config, Record (*run)(const Config&)>
std::shared_ptr<const RecordEnvelope> rerunAs(const RecordEnvelope& record, const RerunOptions& options, const RunHooks& hooks)
{
    Config c = static_cast<const Record&>(record).config;
    c.backend = rerunBackend(record, options);
    c.device = options.device;
    c.cancel = hooks.cancel;
    return std::make_shared<const Record>(run(c));
}

}  // namespace gigacheck::gallery
