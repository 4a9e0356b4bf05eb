#include "core/memory_check.hpp"

#include "gigacheck/types.hpp"

#include <cstdlib>
#include <fstream>

namespace gigacheck {

namespace {
constexpr double kNoMachineHas = 4611686018427387904.0;  // 2^62 bytes

void refuse(double need, double available, const std::string& where, const std::string& what, const std::string& parts)
{
    throw InputError(what + " needs " + formatBytes(need) + " (" + parts + ") of " + where + " but " +
                     (available > 0 ? "only " + formatBytes(available) + " is available" : std::string("no machine has that much")) +
                     "; choose a smaller size");
}
}  // namespace

double hostMemoryAvailable()
{
    std::ifstream meminfo("/proc/meminfo");
    for (std::string line; std::getline(meminfo, line);)
        if (line.rfind("MemAvailable:", 0) == 0)
            return std::strtod(line.c_str() + 13, nullptr) * 1024.0;  // the file says kB
    return 0;
}

void requireHostMemory(double needBytes, const std::string& what, const std::string& parts)
{
    const double available = hostMemoryAvailable();
    if (needBytes > kNoMachineHas || (available > 0 && needBytes > available))
        refuse(needBytes, needBytes > kNoMachineHas ? 0 : available, "host memory", what, parts);
}

void requireDeviceMemory(double needBytes, std::uint64_t deviceBytes, const std::string& deviceName, const std::string& what,
                         const std::string& parts)
{
    if (needBytes > kNoMachineHas || (deviceBytes > 0 && needBytes > double(deviceBytes)))
        refuse(needBytes, needBytes > kNoMachineHas ? 0 : double(deviceBytes), "device memory (" + deviceName + ")", what, parts);
}

}  // namespace gigacheck
