// The family contract: how an algorithm family (blocked GEMM, online ABFT, Strassen, reduced
// matmul, transpose) enters the engine, the CLI, the records and the lab, the same way for all.
// A family fills one Family in its folder (families/<name>/family.cpp) and adds one line to the
// registry (engine/src/families/family_list.hpp); `gigacheck show`, `gigacheck bench`, the CLI's
// verbs, the record reader and the lab's File > Open find it here, never by an if-chain.
//
// What a family declares:
//   name, title, verb      its records' "family", how people call it, its CLI command
//   ops                    its op kinds and their CPU / CUDA implementations (core/op_table.hpp)
//   loadRecord, report     its records read back (every format it ever wrote) as a RecordEnvelope
//                          with its own payload, and their text report
//   benchSuites            the `gigacheck bench` suites it owns
//   command                its CLI verb: options, usage lines and run (nullptr: the family runs
//                          through another family's verb, as online ABFT through `run --scheme`)
//   campaign               its part in `gigacheck campaign --family` (families/<name>/campaign/;
//                          nullptr: no campaigns)
//   saveRecord             a record of it written again in its own format (the lab's File > Save;
//                          nullptr: only its run writes its records)
//   verdict                what a record of it that ended says of C (the closing line, the exit code)
//   rerun                  the run a record of it describes, run again (`gigacheck rerun`)
// Its part of the CUDA module is declared beside it (families/<name>/cuda_module/part.hpp).
#pragma once

#include "gigacheck/bench.hpp"
#include "gigacheck/command_options.hpp"
#include "gigacheck/record_envelope.hpp"
#include "gigacheck/run_hooks.hpp"

#include <memory>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gigacheck {

struct FamilyOps;       // engine/src/core/op_table.hpp (the executors' view)
class FamilyCampaign;   // engine/src/campaign/family_campaign.hpp

struct BenchSuite {
    std::string_view name;  // gigacheck bench NAME
    // Prints the suite's table to out; returns the exit code (0, or 2 with the reason on err).
    int (*run)(const BenchOptions& options, std::ostream& out, std::ostream& err) = nullptr;
    // What `gigacheck --help` says of it beside its name; empty for the suites named alone.
    std::string_view summary = {};
};

// A family's CLI verb (`gigacheck VERB [options]`): app/cli builds its parser from options(),
// lists summary and usage in `gigacheck --help` and hands the values to run.
struct FamilyCommand {
    // The first line of its entry in `gigacheck --help`, after the verb.
    std::string_view summary;
    // The entry's further lines (the usage), each shown under the summary.
    std::span<const std::string_view> usage;
    // The description at the top of `gigacheck VERB --help`.
    std::string_view description;
    // Its options, in the order its --help lists them.
    std::vector<OptionSpec> (*options)() = nullptr;
    // Reads the options, runs, prints the report and writes the record; returns the exit code (0
    // verified, 1 wrong, 2 bad input or failure, 3 not verified). Bad input: InputError.
    int (*run)(const CommandOptions& options, CommandIo& io) = nullptr;
};

// What a run that ended says of C, in the words every verb ends with: verified (exit 0); not
// verified, and why (exit 3); or wrong (exit 1): the reference disagrees, or uncorrectable errors
// remain, or the family's own words (wrongWhy).
struct RecordVerdict {
    bool verified = false;
    bool notVerified = false;
    std::string notVerifiedWhy;
    bool referenceDisagrees = false;
    std::string wrongWhy;  // a wrong result in the family's words; empty: the two above
};

// Where a recorded run runs again (`gigacheck rerun --backend --device`).
struct RerunOptions {
    std::optional<BackendKind> backend;  // unset: the backend the record ran on
    int device = -1;                     // CUDA ordinal; -1: the first
};

struct Family {
    std::string_view name;   // the records' "family" and the namespace ("blocked_gemm")
    std::string_view title;  // for people ("blocked GEMM")
    std::string_view verb;   // the CLI command that runs it ("run", "strassen", ...)
    const FamilyOps& (*ops)() = nullptr;
    // The record at path, of this family (InputError naming the file otherwise), as the family's
    // own type derived from RecordEnvelope.
    std::shared_ptr<const RecordEnvelope> (*loadRecord)(const std::string& path) = nullptr;
    // The report of a record loadRecord returned.
    std::string (*report)(const RecordEnvelope& record) = nullptr;
    std::span<const BenchSuite> benchSuites;
    const FamilyCommand* command = nullptr;
    const FamilyCampaign& (*campaign)() = nullptr;
    // A record loadRecord returned (or its run made) written to path, to reopen as the same record;
    // InputError on I/O failure.
    void (*saveRecord)(const RecordEnvelope& record, const std::string& path) = nullptr;
    // The verdict of a record of this family whose run ended (status "ok").
    RecordVerdict (*verdict)(const RecordEnvelope& record) = nullptr;
    // The run a record of this family describes, run again: its recorded configuration (shape,
    // type, seed, faults, scheme or variant, ...) on the backend options name, with the hooks'
    // observer, cancel and backend; the new record. InputError naming why a record cannot run
    // again (the user's own matrices, a backend this machine lacks).
    std::shared_ptr<const RecordEnvelope> (*rerun)(const RecordEnvelope& record, const RerunOptions& options,
                                                   const RunHooks& hooks) = nullptr;
};

// Every family of this build, in the registry's order.
std::span<const Family* const> families();
// nullptr when no family of this build has that name.
const Family* findFamily(std::string_view name);
// The family whose command is `gigacheck verb`; nullptr when none.
const Family* findFamilyByVerb(std::string_view verb);
// The family of the record at path (recordFamilyOfFile); InputError naming the file and the
// family when this build has none of that name.
const Family& familyOfRecordFile(const std::string& path);
// The record at path, whatever its family and format (the one record reader).
std::shared_ptr<const RecordEnvelope> loadAnyRecord(const std::string& path);
// Its report, by the family that wrote it.
std::string reportOf(const RecordEnvelope& record);
// It written to path by its family (Family::saveRecord); InputError naming the family when the
// family has no writer of its records.
void saveAnyRecord(const RecordEnvelope& record, const std::string& path);

// Its verdict, by the family that wrote it (its run must have ended: status "ok").
RecordVerdict verdictOf(const RecordEnvelope& record);
// The run it describes, run again by its family (Family::rerun).
std::shared_ptr<const RecordEnvelope> rerunRecord(const RecordEnvelope& record, const RerunOptions& options,
                                                  const RunHooks& hooks = {});
// The backend a rerun asks for: options' backend, else the one the record ran on.
BackendKind rerunBackend(const RecordEnvelope& record, const RerunOptions& options);

// `gigacheck rerun RECORD`: any family's record run again (families/cli/rerun/), the one verb of
// the registry rather than of a family.
const FamilyCommand& rerunCommand();

// The suite of that name, nullptr when none; the names of all, comma-separated.
const BenchSuite* findBenchSuite(std::string_view name);
std::string benchSuiteNames();

}  // namespace gigacheck
