// The frame of a kernel-gallery bench (bench_frame.hpp).
#include "families/gallery/bench_frame.hpp"

#include "core/bench_filter.hpp"
#include "core/timestamp.hpp"
#include "gigacheck/safe_write.hpp"
#include "gigacheck/version.hpp"

#include <exception>

namespace gigacheck::gallery {

int runGalleryBench(std::string_view suite, bool (*gpuAvailable)(std::string* why), std::span<const BenchSection> sections,
                    const BenchOptions& options, std::ostream& out, std::ostream& err)
{
    std::string why;
    const bool gpu = gpuAvailable(&why);
    out << "gigacheck " << kVersion << " bench " << suite << (options.quick ? " (quick)" : "") << "\ndate: " << nowIso8601()
        << "\n" << (gpu ? "" : "no CUDA device (" + why + "): the CPU part only\n") << std::flush;
    nlohmann::json doc = {{"suite", suite}, {"quick", options.quick}, {"date", nowIso8601()}};
    try {
        for (const BenchSection& section : sections)
            if ((gpu || !section.needsGpu) && bench::selected("GIGACHECK_GALLERY_SECTIONS", section.name))
                doc[std::string(section.jsonKey)] = section.run(options, out);
    } catch (const std::exception& e) {
        err << "bench " << suite << " failed: " << e.what() << "\n";
        return 1;
    }
    if (!options.jsonPath.empty())
        writeFileAtomically(options.jsonPath, doc.dump(1) + "\n", "bench JSON");  // InputError: exit 2
    return 0;
}

}  // namespace gigacheck::gallery
