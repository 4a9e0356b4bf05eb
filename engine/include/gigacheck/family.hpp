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
//   command                its CLI verb: options, usage lines and configure (nullptr: the family
//                          runs through another family's verb, as online ABFT through `run --scheme`)
//   campaign               its part in `gigacheck campaign --family` (families/<name>/campaign/;
//                          nullptr: no campaigns)
//   saveRecord             a record of it written again in its own format (the lab's File > Save;
//                          nullptr: only its run writes its records)
//   verdict                what a record of it that ended says of C (the closing line, the exit code)
//   configureFromRecord    the run a record of it describes, configured again (`gigacheck rerun`)
// A configured run of any family is a FamilyRun: its configuration parsed and checked (from its
// verb's options or from a record), described in one line, placed on a backend and run; every verb
// then ends the same way (families/cli/run_configured.hpp).
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

struct Family;

// One run of a family, configured and checked: what its verb's options (FamilyCommand::configure)
// or a record of it (Family::configureFromRecord) describe. Every family's runs are started this
// way: configure, place, run; the record that comes back ends the verb the same way for all.
class FamilyRun {
public:
    virtual ~FamilyRun() = default;
    virtual const Family& family() const = 0;
    // The run in one line for people ("Strassen 387x321x449, 2 levels winograd, f32, 1 fault").
    virtual std::string describe() const = 0;
    virtual BackendKind backend() const = 0;
    virtual int device() const = 0;  // CUDA ordinal; -1: the first
    // Where it runs (`gigacheck rerun --backend --device`).
    virtual void placeOn(BackendKind backend, int device) = 0;
    // Files it writes besides the record, checked before it runs (InputError naming the file when
    // one cannot be written).
    virtual void checkOtherOutputs() const {}
    // Runs it with the hooks' observer, cancel and backend; the record, also of a run cancelled or
    // failed midway (its status says so). InputError before anything runs when it cannot run here.
    virtual std::shared_ptr<const RecordEnvelope> run(const RunHooks& hooks) = 0;
    // Whether the record says something of C for the family's verdict (Family::verdict): a run
    // that ended ("ok"). The kernel gallery files a wrong result as "failed" with what is wrong:
    // its verdict, exit 1, not a failure of the run (exit 2).
    virtual bool hasVerdict(const RecordEnvelope& record) const { return record.status == "ok"; }
    // After the run: the outputs its options asked for besides the record (`run --save-c`); what
    // the closing line adds about one it could not write ("; C.npy not written (...)"), else empty.
    virtual std::string writeOtherOutputs(const RecordEnvelope&, std::ostream&) const { return {}; }
    // Printed above the report (`gigacheck rerun`: which record ran again, and how it had ended).
    virtual std::string reportHeading() const { return {}; }
};

// A family's CLI verb (`gigacheck VERB [options]`): app/cli builds its parser from options(),
// lists summary and usage in `gigacheck --help`, hands the values to configure and runs what it
// returns (runCommand).
struct FamilyCommand {
    // The first line of its entry in `gigacheck --help`, after the verb.
    std::string_view summary;
    // The entry's further lines (the usage), each shown under the summary.
    std::span<const std::string_view> usage;
    // The description at the top of `gigacheck VERB --help`.
    std::string_view description;
    // Its options, in the order its --help lists them.
    std::vector<OptionSpec> (*options)() = nullptr;
    // The run its options describe, checked: InputError naming the option otherwise.
    std::unique_ptr<FamilyRun> (*configure)(const CommandOptions& options) = nullptr;
};

// `gigacheck VERB`: the command's run configured from the options, run (cancellable by a signal),
// then its report, its record (--json), its other outputs, the closing line; the exit code (0
// verified, 1 wrong, 2 bad input or failure, 3 not verified). Bad input: InputError.
int runCommand(const FamilyCommand& command, std::string_view verb, const CommandOptions& options, CommandIo& io);

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

// Parts of FamilyRun::describe written once: ", 1 fault" (", no faults"); ", on cuda" (auto: "").
std::string describeFaults(std::size_t faults);
std::string describeBackend(BackendKind backend);

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
    // The run a record of this family describes, configured again: its recorded shape, type, seed,
    // faults, scheme or variant, ... on the backend it ran on. InputError naming why a record
    // cannot run again (the user's own matrices).
    std::unique_ptr<FamilyRun> (*configureFromRecord)(const RecordEnvelope& record) = nullptr;
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
// The run it describes, configured again by its family (Family::configureFromRecord) and placed
// where options say (rerunBackend, options.device).
std::unique_ptr<FamilyRun> configureRerun(const RecordEnvelope& record, const RerunOptions& options);
// That run, run with the hooks.
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
