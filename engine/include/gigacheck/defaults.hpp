// Defaults that more than one part of the lab must agree on (the engine, the CLI, the GUI).
#pragma once

#include <cstdint>

namespace gigacheck {

// The memory cap of a run whose RunConfig::memCapBytes is 0 on a device that has no size of its
// own (the CPU backend); the GUI previews plans with it too.
inline constexpr std::uint64_t kDefaultCpuMemCapBytes = 1ull << 30;  // 1 GiB

}  // namespace gigacheck
