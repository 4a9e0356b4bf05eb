// libFuzzer target: the run-record readers of every family (gigacheck show, the lab's File > Open),
// dispatched on the record's "family" as `show` does. Any input may be refused with an InputError;
// nothing else may escape, crash, hang or leak, an accepted record must print its report, and a
// family whose reader keeps the whole record must reload its own JSON to the same text.
#include "gigacheck/online_abft.hpp"
#include "gigacheck/blocked_gemm/record.hpp"
#include "gigacheck/record_envelope.hpp"
#include "gigacheck/reduced_matmul.hpp"
#include "gigacheck/strassen.hpp"
#include "gigacheck/transpose.hpp"

#include <cstdint>
#include <cstdlib>
#include <string>

namespace {

// read -> report -> write -> read -> write: the two writes must agree.
template <class Read, class Report, class Write>
void roundTrip(const std::string& text, Read read, Report report, Write write)
{
    const auto record = read(text);  // an InputError here: refused, fine
    try {
        (void)report(record);
        const std::string saved = write(record);
        if (write(read(saved)) != saved)
            std::abort();  // an accepted record must reload to the same text
    } catch (const gigacheck::InputError&) {
        std::abort();  // ... and must not be refused once written back
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    namespace g = gigacheck;
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const std::string family = g::recordFamilyOf(text);
        if (family == "strassen") {
            // Its reader keeps what the report needs, not the whole record: report only.
            if (const auto r = g::strassenResultFromJson(text))
                (void)g::formatStrassenReport(*r);
        } else if (family == g::OnlineRecord::kFamily) {
            roundTrip(text, g::onlineRecordFromJson, g::formatOnlineReport,
                      [](const g::OnlineRecord& r) { return g::onlineToJson(r); });
        } else if (family == "transpose") {
            roundTrip(text, g::transpose::recordFromJson, g::transpose::report,
                      [](const g::transpose::Record& r) { return g::transpose::toJson(r); });
        } else if (family == "reduced_matmul") {
            roundTrip(text, g::reduced_matmul::recordFromJson, g::reduced_matmul::report,
                      [](const g::reduced_matmul::Record& r) { return g::reduced_matmul::toJson(r); });
        } else {
            roundTrip(text, g::recordFromJson, g::formatReport,
                      [](const g::RunRecord& r) { return g::toJson(r); });
        }
    } catch (const g::InputError&) {
    }
    return 0;
}
