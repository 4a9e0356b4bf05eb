// libFuzzer target: the ceilings store (~/.config/gigacheck/ceilings.json), read by every run and
// by the lab's roofline, rewritten by `gigacheck devices --measure`. Any input may be refused with
// an InputError; nothing else may escape, crash, hang or leak.
#include "gigacheck/bench.hpp"

#include <cstdint>
#include <fstream>
#include <string>

#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    // The store is a file: the input goes through one, as it would on a user's machine.
    static const std::string path = "/tmp/gigacheck-fuzz-ceilings-" + std::to_string(::getpid()) + ".json";
    std::ofstream(path, std::ios::binary | std::ios::trunc).write(reinterpret_cast<const char*>(data),
                                                                  std::streamsize(size));
    gigacheck::DeviceInfo device;
    device.name = "NVIDIA H200";
    try {
        if (gigacheck::loadCeilings(path, device))
            gigacheck::saveCeilings(device, path);  // read-modify-write keeps the other entries
    } catch (const gigacheck::InputError&) {
    }
    return 0;
}
