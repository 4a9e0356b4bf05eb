// The frame of a kernel-gallery bench (`gigacheck bench reduced`, `bench transpose`): the header,
// the sections the environment asks for, the GPU ones only with a device, the JSON document and the
// exit code. Each family writes its own sections' tables.
#pragma once

#include "gigacheck/bench.hpp"

#include <nlohmann/json.hpp>

#include <functional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>

namespace gigacheck::gallery {

struct BenchSection {
    std::string_view name;     // its word in GIGACHECK_GALLERY_SECTIONS (cpu, gpu, cache)
    std::string_view jsonKey;  // its rows' key in the JSON document
    bool needsGpu = false;     // left out, with the reason in the header, when there is no device
    std::function<nlohmann::json(const BenchOptions&, std::ostream&)> run;  // prints its table, returns its rows
};

// Prints "gigacheck <version> bench <suite>", the date and, without a device, why; runs the
// sections that GIGACHECK_GALLERY_SECTIONS=cpu,gpu,... names (unset: all), so that a long CPU table
// and the GPU table can run as separate commands; writes options.jsonPath. Returns 0, or 1 when a
// section throws (its message on err); InputError from writing the JSON (exit 2) passes through.
int runGalleryBench(std::string_view suite, bool (*gpuAvailable)(std::string* why), std::span<const BenchSection> sections,
                    const BenchOptions& options, std::ostream& out, std::ostream& err);

}  // namespace gigacheck::gallery
