// Strassen's contract (gigacheck/family.hpp): the thesis' memory-efficient Strassen and
// Strassen-Winograd, on one or several devices.
#include "gigacheck/family.hpp"

#include "families/strassen/cli/verb.hpp"
#include "families/strassen/ops.hpp"
#include "gigacheck/strassen.hpp"

#include <array>

namespace gigacheck {
const FamilyCampaign& strassenCampaign();  // its campaigns: its campaign/ folder
}

namespace gigacheck::strassen {
namespace {

// A Strassen record as an envelope: the shared part, with the run's result as the payload.
struct StrassenRecord : RecordEnvelope {
    StrassenResult result;
};

std::shared_ptr<const RecordEnvelope> load(const std::string& path)
{
    auto record = std::make_shared<StrassenRecord>();
    record->result = loadStrassenRecord(path);
    const StrassenResult& r = record->result;
    record->family = std::string(kFamilyName);
    record->status = r.status == "uncorrectable" || r.status == "not_verified" ? "ok" : r.status;
    record->error = r.error;
    record->devices = r.devices.empty() ? std::vector<DeviceInfo>{r.device} : r.devices;
    record->spans = r.spans;
    record->injections = r.injections;
    return record;
}

std::string report(const RecordEnvelope& record)
{
    return formatStrassenReport(static_cast<const StrassenRecord&>(record).result);
}

int benchStrassen(const BenchOptions& o, std::ostream& out, std::ostream& err)
{
    return runStrassenBench(o.quick, o.device, o.jsonPath, out, err);
}

int benchMultiGpu(const BenchOptions& o, std::ostream& out, std::ostream& err)
{
    return runMultiGpuStrassenBench(o.quick, o.device, o.jsonPath, out, err);
}

constexpr std::array kSuites{
    BenchSuite{"strassen", &benchStrassen},
    BenchSuite{"multi-gpu-strassen", &benchMultiGpu,
               "the Strassen decompositions on every visible GPU, against one GPU and cuBLAS"},
};

}  // namespace

const Family& familyContract()
{
    static const Family f{kFamilyName, "Strassen", "strassen", &family, &load, &report, kSuites, &command(), &strassenCampaign};
    return f;
}

}  // namespace gigacheck::strassen
