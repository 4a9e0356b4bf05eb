// What the CLI, the record reader and the lab ask of the registry (gigacheck/family.hpp).
#include "gigacheck/family.hpp"

#include "gigacheck/types.hpp"

namespace gigacheck {

const Family* findFamily(std::string_view name)
{
    for (const Family* f : families())
        if (f->name == name)
            return f;
    return nullptr;
}

const Family* findFamilyByVerb(std::string_view verb)
{
    for (const Family* f : families())
        if (f->command && f->verb == verb)
            return f;
    return nullptr;
}

const Family& familyOfRecordFile(const std::string& path)
{
    const std::string name = recordFamilyOfFile(path);
    if (const Family* f = findFamily(name))
        return *f;
    throw InputError(path + ": this gigacheck has no report for records of family '" + name + "'");
}

std::shared_ptr<const RecordEnvelope> loadAnyRecord(const std::string& path)
{
    return familyOfRecordFile(path).loadRecord(path);
}

std::string reportOf(const RecordEnvelope& record)
{
    const Family* f = findFamily(record.family);
    if (!f)
        throw InputError("this gigacheck has no report for records of family '" + record.family + "'");
    return f->report(record);
}

void saveAnyRecord(const RecordEnvelope& record, const std::string& path)
{
    const Family* f = findFamily(record.family);
    if (!f || !f->saveRecord)
        throw InputError("records of family '" + record.family + "' are written by their run only; this one cannot be saved again");
    f->saveRecord(record, path);
}

RecordVerdict verdictOf(const RecordEnvelope& record)
{
    const Family* f = findFamily(record.family);
    if (!f || !f->verdict)
        throw InputError("this build cannot judge records of family '" + record.family + "'");
    return f->verdict(record);
}

std::unique_ptr<FamilyRun> configureRerun(const RecordEnvelope& record, const RerunOptions& options)
{
    const Family* f = findFamily(record.family);
    if (!f || !f->configureFromRecord)
        throw InputError("records of family '" + record.family + "' cannot be run again by this build");
    std::unique_ptr<FamilyRun> run = f->configureFromRecord(record);
    run->placeOn(rerunBackend(record, options), options.device);
    return run;
}

std::shared_ptr<const RecordEnvelope> rerunRecord(const RecordEnvelope& record, const RerunOptions& options,
                                                  const RunHooks& hooks)
{
    return configureRerun(record, options)->run(hooks);
}

std::string describeFaults(std::size_t faults)
{
    return faults == 0 ? ", no faults" : ", " + std::to_string(faults) + (faults == 1 ? " fault" : " faults");
}

std::string describeBackend(BackendKind backend)
{
    return backend == BackendKind::Auto ? std::string() : ", on " + std::string(toString(backend));
}

BackendKind rerunBackend(const RecordEnvelope& record, const RerunOptions& options)
{
    if (options.backend)
        return *options.backend;
    const BackendKind recorded = record.devices.front().backend;
    return recorded == BackendKind::Cuda ? BackendKind::Cuda : BackendKind::Cpu;
}

const BenchSuite* findBenchSuite(std::string_view name)
{
    for (const Family* f : families())
        for (const BenchSuite& s : f->benchSuites)
            if (s.name == name)
                return &s;
    return nullptr;
}

std::string benchSuiteNames()
{
    std::string names;
    for (const Family* f : families())
        for (const BenchSuite& s : f->benchSuites)
            names += (names.empty() ? "" : ", ") + std::string(s.name);
    return names;
}

}  // namespace gigacheck
