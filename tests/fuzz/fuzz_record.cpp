// libFuzzer target: the run-record reader (gigacheck show, the lab's File > Open).
// Any input may be refused with an InputError; nothing else may escape, crash, hang or leak, and a
// record that is accepted must survive a save and a reload unchanged and print a report.
#include "gigacheck/record.hpp"

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    gigacheck::RunRecord record;
    try {
        record = gigacheck::recordFromJson(std::string(reinterpret_cast<const char*>(data), size));
    } catch (const gigacheck::InputError&) {
        return 0;
    }
    (void)gigacheck::formatReport(record);
    const std::string saved = gigacheck::toJson(record);
    if (gigacheck::toJson(gigacheck::recordFromJson(saved)) != saved)
        std::abort();  // an accepted record must reload to the same text
    return 0;
}
