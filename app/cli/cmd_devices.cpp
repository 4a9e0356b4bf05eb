// gigacheck devices [--measure]: the devices a run can use, with their roofline ceilings.
#include "commands.hpp"

#include "command_line.hpp"
#include "output_files.hpp"

#include "gigacheck/bench.hpp"
#include "gigacheck/cuda_status.hpp"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <iostream>
#include <sstream>

namespace cli {
using namespace gigacheck;

namespace {

void printCeilings(const Ceilings& c)
{
    if (c.source.empty()) {
        std::cout << "    ceilings: unknown (gigacheck devices --measure)\n";
        return;
    }
    std::cout << "    ceilings (" << c.source << "): FP32 " << c.gflopsF32 << " GFLOP/s, TF32 " << c.gflopsTf32
              << " GFLOP/s, BF16 " << c.gflopsBf16 << " GFLOP/s, FP16 " << c.gflopsF16
              << " GFLOP/s, FP64 " << c.gflopsF64 << " GFLOP/s, device copy " << c.deviceBandwidthGBs
              << " GB/s, H2D " << c.h2dGBs << " GB/s, D2H " << c.d2hGBs << " GB/s\n";
    // The cost model's tables (the planner of --strategy auto reads them).
    for (const char* kind : {"f32", "tf32", "bf16", "f16", "f64"}) {
        std::ostringstream line;
        for (const GemmRatePoint& p : c.gemmRates)
            if (p.kind == kind)
                line << " " << p.m << "x" << p.n << "x" << p.k << " " << int(p.gflops + 0.5);
        if (!line.str().empty())
            std::cout << "    GEMM rate " << kind << " (m x n x k GFLOP/s):" << line.str() << "\n";
    }
    if (!c.copyRates.empty()) {
        // Row width (@ host pitch where it was measured out of a wider matrix than twice the row).
        auto label = [](const CopyRatePoint& p) {
            std::string text = formatBytes(double(p.rowBytes));
            if (p.hostPitchBytes > 0 && p.hostPitchBytes != 2 * p.rowBytes)
                text += " @" + formatBytes(double(p.hostPitchBytes));
            return text;
        };
        std::cout << "    2D copy rate (row width H2D/D2H GB/s):";
        for (const CopyRatePoint& p : c.copyRates)
            std::cout << " " << label(p) << " " << p.h2dGBs << "/" << p.d2hGBs << ";";
        std::cout << "\n";
        if (std::any_of(c.copyRates.begin(), c.copyRates.end(), [](const CopyRatePoint& p) { return p.h2dLoadedGBs > 0; })) {
            std::cout << "    2D copy rate beside an FP32 GEMM (row width H2D/D2H GB/s):";
            for (const CopyRatePoint& p : c.copyRates)
                std::cout << " " << label(p) << " " << p.h2dLoadedGBs << "/" << p.d2hLoadedGBs << ";";
            std::cout << "\n";
        }
    }
}

QJsonObject toJsonObject(const DeviceInfo& d)
{
    const Ceilings& c = d.ceilings;
    return QJsonObject{
        {QStringLiteral("backend"), QString::fromUtf8(toString(d.backend).data(), qsizetype(toString(d.backend).size()))},
        {QStringLiteral("name"), QString::fromStdString(d.name)},
        {QStringLiteral("memory_bytes"), double(d.memoryBytes)},
        {QStringLiteral("compute_capability"), QString::fromStdString(d.computeCapability)},
        {QStringLiteral("index"), d.index},
        {QStringLiteral("ceilings"),
         QJsonObject{{QStringLiteral("gflops_f32"), c.gflopsF32},
                     {QStringLiteral("gflops_tf32"), c.gflopsTf32},
                     {QStringLiteral("gflops_bf16"), c.gflopsBf16},
                     {QStringLiteral("gflops_f16"), c.gflopsF16},
                     {QStringLiteral("gflops_f64"), c.gflopsF64},
                     {QStringLiteral("device_bandwidth_gbs"), c.deviceBandwidthGBs},
                     {QStringLiteral("h2d_gbs"), c.h2dGBs},
                     {QStringLiteral("d2h_gbs"), c.d2hGBs},
                     {QStringLiteral("source"), QString::fromStdString(c.source)}}},
    };
}

void writeJson(const std::vector<DeviceInfo>& devices, const std::string& path)
{
    QJsonArray list;
    for (const DeviceInfo& d : devices)
        list.append(toJsonObject(d));
    // Whole or not at all, and a failed write is exit 2 (QFile's buffered write hid /dev/full's).
    const QByteArray json =
        QJsonDocument(QJsonObject{{QStringLiteral("devices"), list},
                                  {QStringLiteral("cutlass_kernels"), QString::fromStdString(cutlassKernelsStatus())}})
            .toJson();
    writeTextFile(path, json.toStdString(), "device list");
}

}  // namespace

int devicesCommand(const QStringList& args)
{
    QCommandLineParser parser;
    parser.addOption({QStringLiteral("measure"),
                      QStringLiteral("Measure the roofs (GEMM per precision, device copy, H2D, D2H) of each device and "
                                     "the cost model's rate tables (GEMM per block shape, pinned 2D copy per row "
                                     "width) and store them for the roofline and the planner.")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("Also write the list as JSON to FILE."),
                      QStringLiteral("FILE")});
    if (!parseCommandLine(parser, QStringLiteral("devices"),
                          QStringLiteral("Lists the CUDA devices and the CPU with memory and roofline ceilings."), args))
        return kExitVerified;
    if (!parser.positionalArguments().isEmpty())
        throw InputError("unexpected argument '" + text(parser.positionalArguments().first()) + "'");
    // Before the list is printed (and measured): an empty or unwritable --json is bad input.
    std::string jsonPath;
    if (parser.isSet(QStringLiteral("json")))
        jsonPath = requireOutputPath(text(parser.value(QStringLiteral("json"))), "json", "device list");

    std::string whyNoCuda;
    std::vector<DeviceInfo> devices = listDevices(&whyNoCuda);
    const std::string ceilingsPath = defaultCeilingsPath();
    if (!whyNoCuda.empty())
        std::cout << "No CUDA device: " << whyNoCuda << "\n";
    for (DeviceInfo& d : devices) {
        if (parser.isSet(QStringLiteral("measure"))) {
            std::cout << "Measuring " << d.name << " ...\n" << std::flush;
            d.ceilings = measureCeilings(d);
            saveCeilings(d, ceilingsPath);
        } else {
            loadCeilings(ceilingsPath, d);
        }
        std::cout << toString(d.backend);
        if (d.backend == BackendKind::Cuda)
            std::cout << " " << d.index << " (--device " << d.index << ")";
        std::cout << ": " << d.name << "\n";
        std::cout << "    memory: " << formatBytes(double(d.memoryBytes));
        if (!d.computeCapability.empty())
            std::cout << ", compute capability " << d.computeCapability;
        std::cout << "\n";
        printCeilings(d.ceilings);
    }
    // The fused-ABFT GEMMs (--gemm cutlass-tf32) are a build option: say whether this build has them.
    std::cout << "CUTLASS kernels: " << cutlassKernelsStatus() << "\n";
    if (parser.isSet(QStringLiteral("measure")))
        std::cout << "Ceilings stored in " << ceilingsPath << "\n";
    if (!jsonPath.empty())
        writeJson(devices, jsonPath);
    return kExitVerified;
}

}  // namespace cli
