// Measured roofs stored as JSON, one entry per device name, so that the roofline of a later run
// (and of the GUI on another machine) uses them.
#include "gigacheck/bench.hpp"

#include "core/record/json_limits.hpp"
#include "gigacheck/safe_write.hpp"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>

namespace gigacheck {

namespace {

nlohmann::json readAll(const std::string& path)
{
    std::error_code ec;
    if (!std::filesystem::exists(path, ec))  // nothing measured yet (a dangling link counts as none)
        return nlohmann::json::object();
    const std::string source = "ceilings file " + path;
    const std::string text = jsonlimits::readFile(path, "ceilings file");  // a regular file, bounded
    nlohmann::json j = jsonlimits::parse<nlohmann::json>(text, source);
    return j.is_object() ? j : nlohmann::json::object();
}

}  // namespace

std::string defaultCeilingsPath()
{
    std::filesystem::path base(".");
    if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg)
        base = xdg;
    else if (const char* home = std::getenv("HOME"); home && *home)
        base = std::filesystem::path(home) / ".config";
    return (base / "gigacheck" / "ceilings.json").string();
}

void saveCeilings(const DeviceInfo& device, const std::string& path)
{
    nlohmann::json all = readAll(path);
    if (all.contains("devices") && !all["devices"].is_object())
        throw InputError("ceilings file " + path + ": field 'devices' must be an object");
    all["format_version"] = 1;
    const Ceilings& c = device.ceilings;
    all["devices"][device.name] = {{"gflops_f32", c.gflopsF32},         {"gflops_tf32", c.gflopsTf32},
                                   {"gflops_bf16", c.gflopsBf16},       {"gflops_f16", c.gflopsF16},
                                   {"gflops_f64", c.gflopsF64},         {"device_bandwidth_gbs", c.deviceBandwidthGBs},
                                   {"h2d_gbs", c.h2dGBs},               {"d2h_gbs", c.d2hGBs},
                                   {"host_pack_gbs", c.hostPackGBs},
                                   {"source", c.source},                {"memory_bytes", device.memoryBytes},
                                   {"compute_capability", device.computeCapability}};
    // The cost model's tables (optional: files written before them still load).
    nlohmann::json gemm = nlohmann::json::array(), copy = nlohmann::json::array();
    for (const GemmRatePoint& p : c.gemmRates)
        gemm.push_back({{"kind", p.kind}, {"m", p.m}, {"n", p.n}, {"k", p.k}, {"gflops", p.gflops}});
    for (const CopyRatePoint& p : c.copyRates)
        copy.push_back({{"row_bytes", p.rowBytes},
                        {"h2d_gbs", p.h2dGBs},
                        {"d2h_gbs", p.d2hGBs},
                        {"h2d_loaded_gbs", p.h2dLoadedGBs},
                        {"d2h_loaded_gbs", p.d2hLoadedGBs},
                        {"host_pitch_bytes", p.hostPitchBytes}});
    all["devices"][device.name]["gemm_rates"] = gemm;
    all["devices"][device.name]["copy_rates"] = copy;
    std::error_code ec;
    const std::filesystem::path p(path);
    if (p.has_parent_path())
        std::filesystem::create_directories(p.parent_path(), ec);
    writeFileAtomically(path, all.dump(1) + "\n", "ceilings file");
}

namespace {

// An integer field of a stored rate (a float such as 1e30 must be refused, not cast).
std::int64_t storedInteger(const nlohmann::json& rate, const char* key)
{
    if (const std::optional<std::int64_t> v = jsonlimits::integerValue<std::int64_t>(rate.at(key)))
        return *v;
    throw InputError(std::string("'") + key + "' is not an integer");
}

}  // namespace

bool loadCeilings(const std::string& path, DeviceInfo& device)
{
    const nlohmann::json all = readAll(path);
    const auto devices = all.find("devices");
    if (devices == all.end() || !devices->is_object() || !devices->contains(device.name))
        return false;
    const nlohmann::json& e = (*devices)[device.name];
    Ceilings c;
    try {
        c.gflopsF32 = e.value("gflops_f32", 0.0);
        c.gflopsTf32 = e.value("gflops_tf32", 0.0);
        c.gflopsBf16 = e.value("gflops_bf16", 0.0);  // files before the 16-bit roofs: unknown
        c.gflopsF16 = e.value("gflops_f16", 0.0);
        c.gflopsF64 = e.value("gflops_f64", 0.0);
        c.deviceBandwidthGBs = e.value("device_bandwidth_gbs", 0.0);
        c.h2dGBs = e.value("h2d_gbs", 0.0);
        c.d2hGBs = e.value("d2h_gbs", 0.0);
        c.hostPackGBs = e.value("host_pack_gbs", 0.0);  // files before host packing: not measured
        c.source = e.value("source", std::string("stored"));
        if (const auto gemm = e.find("gemm_rates"); gemm != e.end())
            for (const nlohmann::json& p : gemm->get_ref<const nlohmann::json::array_t&>())
                c.gemmRates.push_back({p.at("kind").get<std::string>(), storedInteger(p, "m"),
                                       storedInteger(p, "n"), storedInteger(p, "k"),
                                       p.at("gflops").get<double>()});
        if (const auto copy = e.find("copy_rates"); copy != e.end())
            for (const nlohmann::json& p : copy->get_ref<const nlohmann::json::array_t&>())
                c.copyRates.push_back({storedInteger(p, "row_bytes"), p.at("h2d_gbs").get<double>(),
                                       p.at("d2h_gbs").get<double>(), p.value("h2d_loaded_gbs", 0.0),
                                       p.value("d2h_loaded_gbs", 0.0), p.contains("host_pitch_bytes") ? storedInteger(p, "host_pitch_bytes") : 0});
    } catch (const nlohmann::json::exception& error) {
        throw InputError("ceilings file " + path + ": the entry of '" + device.name + "' is malformed: " + error.what());
    } catch (const InputError& error) {
        throw InputError("ceilings file " + path + ": the entry of '" + device.name + "' is malformed: " + error.what());
    }
    device.ceilings = c;
    return true;
}

}  // namespace gigacheck
