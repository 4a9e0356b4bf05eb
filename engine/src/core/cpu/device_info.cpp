// What the CPU backend reports as its "device": the processor and the physical memory.
#include "core/cpu/device_info.hpp"

#include <fstream>
#include <thread>
#include <unistd.h>

namespace gigacheck {

DeviceInfo cpuDeviceInfo(int index, int count)
{
    DeviceInfo info;
    info.backend = BackendKind::Cpu;
    std::string model = "unknown processor";
    std::ifstream cpuinfo("/proc/cpuinfo");
    for (std::string line; std::getline(cpuinfo, line);) {
        if (line.rfind("model name", 0) == 0) {
            const auto colon = line.find(':');
            if (colon != std::string::npos)
                model = line.substr(line.find_first_not_of(' ', colon + 1));
            break;
        }
    }
    info.name = "CPU: " + model + " (" + std::to_string(std::thread::hardware_concurrency()) + " threads)";
    if (count > 1)
        info.name += ", emulated device " + std::to_string(index) + " of " + std::to_string(count);
    info.index = index;
    const long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
    if (pages > 0 && pageSize > 0)
        info.memoryBytes = std::uint64_t(pages) * std::uint64_t(pageSize);
    return info;
}

}  // namespace gigacheck
