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
// Its part of the CUDA module is declared beside it (families/<name>/cuda_module/part.hpp).
#pragma once

#include "gigacheck/bench.hpp"
#include "gigacheck/record_envelope.hpp"

#include <memory>
#include <ostream>
#include <span>
#include <string>
#include <string_view>

namespace gigacheck {

struct FamilyOps;  // engine/src/core/op_table.hpp (the executors' view)

struct BenchSuite {
    std::string_view name;  // gigacheck bench NAME
    // Prints the suite's table to out; returns the exit code (0, or 2 with the reason on err).
    int (*run)(const BenchOptions& options, std::ostream& out, std::ostream& err) = nullptr;
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
};

// Every family of this build, in the registry's order.
std::span<const Family* const> families();
// nullptr when no family of this build has that name.
const Family* findFamily(std::string_view name);
// The family of the record at path (recordFamilyOfFile); InputError naming the file and the
// family when this build has none of that name.
const Family& familyOfRecordFile(const std::string& path);
// The record at path, whatever its family and format (the one record reader).
std::shared_ptr<const RecordEnvelope> loadAnyRecord(const std::string& path);
// Its report, by the family that wrote it.
std::string reportOf(const RecordEnvelope& record);

// The suite of that name, nullptr when none; the names of all, comma-separated.
const BenchSuite* findBenchSuite(std::string_view name);
std::string benchSuiteNames();

}  // namespace gigacheck
