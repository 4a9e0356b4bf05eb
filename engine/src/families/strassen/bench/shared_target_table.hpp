// bench strassen's "atomics against ordering" section: the products of msmes's two product stages
// run serially, in ordered rounds, at once with atomic adds (the seed's) and at once without
// (the race), at N = 2048 ... 16384 (quick: 1024, 2048) within the device's memory, FP32 and FP64
// (GIGACHECK_BENCH_TYPES filters; GIGACHECK_BENCH_ATOMICS=off leaves the section out).
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <ostream>

namespace gigacheck::strassen {

// Prints the table to out (progress to err) and returns its rows as JSON.
nlohmann::json printSharedTargetTable(int device, bool quick, std::uint64_t deviceBytes, std::ostream& out,
                                      std::ostream& err);

}  // namespace gigacheck::strassen
