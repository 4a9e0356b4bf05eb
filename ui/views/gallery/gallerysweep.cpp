#include "views/gallery/gallerysweep.hpp"

#include "models/ceilingpresets.hpp"

#include <gigacheck/reduced_matmul.hpp>
#include <gigacheck/transpose.hpp>

#include <algorithm>
#include <map>

namespace gigacheck::ui::gallery {

namespace {

// The names of a family's variants that runsThere (onCpu / onCuda) accepts, in the family's order.
template <class Variant> QStringList variantNames(bool (*runsThere)(Variant))
{
    QStringList names;
    for (const auto& row : enumTable<Variant>().rows)
        if (runsThere(row.value))
            names << QString::fromUtf8(row.name.data(), qsizetype(row.name.size()));
    return names;
}

}  // namespace

QStringList variantsOf(Family family, bool gpu)
{
    if (family == Family::Reduced)
        return variantNames(gpu ? &reduced_matmul::onCuda : &reduced_matmul::onCpu);
    return variantNames(gpu ? &transpose::onCuda : &transpose::onCpu);
}

QString rateUnit(Family family) { return family == Family::Reduced ? QStringLiteral("GFLOP/s") : QStringLiteral("GB/s"); }

namespace {

void roofsOf(const RecordEnvelope& r, SweepPoint& p)
{
    if (r.devices.empty())
        return;
    static const std::vector<CeilingPreset> presets = loadCeilingPresets();  // read once, from any thread
    const Ceilings c = ceilingsForDevice(r.devices.front(), presets);
    p.memoryRoofGBs = c.deviceBandwidthGBs;
    p.computeRoofGflops = c.gflopsF32;
    // "datasheet: <its reference>" / "measured <date>": the kind only, the legend has one line.
    p.roofSource = QString::fromStdString(c.source).section(QLatin1Char(':'), 0, 0).trimmed();
}

// The figures every gallery record has (time, verdict, roofs).
template <class Record> void commonFigures(const Record& r, SweepPoint& p)
{
    if (r.status == "cancelled")
        p.error = QStringLiteral("cancelled");
    p.ms = r.kernelMs;
    p.verified = r.verified;
    roofsOf(r, p);
}

// One timed call of the point's configuration (shape and variant set by the caller) on the chosen
// backend, cancellable.
template <class Config, class Record>
Record runGalleryPoint(Config c, bool gpu, const std::atomic<bool>* cancel, Record (*run)(const Config&))
{
    c.backend = gpu ? BackendKind::Cuda : BackendKind::Cpu;
    c.reps = 1;
    c.cancel = cancel;
    return run(c);
}

}  // namespace

SweepPoint pointOf(const reduced_matmul::Record& r)
{
    SweepPoint p;
    p.variant = QString::fromUtf8(reduced_matmul::toString(r.config.variant).data());
    p.n = r.config.n;
    commonFigures(r, p);
    p.rate = r.gflops;
    p.flops = r.counts.flops;
    p.memoryBytes = r.counts.footprintBytes;
    p.requestedBytes = r.counts.loadBytesRequested;
    return p;
}

SweepPoint pointOf(const transpose::Record& r)
{
    SweepPoint p;
    p.variant = QString::fromUtf8(transpose::toString(r.config.variant).data());
    p.n = std::max(r.config.m, r.config.n);
    commonFigures(r, p);
    p.rate = r.gbps;
    p.memoryBytes = r.counts.bytesRead + r.counts.bytesWritten;
    if (r.copyGbps > 0) {  // measured beside the kernel: the fairest memory roof there is
        p.memoryRoofGBs = r.copyGbps;
        p.roofSource = QStringLiteral("device copy, this run");
    }
    return p;
}

SweepPoint runPoint(Family family, const QString& variant, std::int64_t n, bool gpu, const std::atomic<bool>* cancel)
{
    SweepPoint p;
    try {
        if (family == Family::Reduced) {
            reduced_matmul::Config c;
            c.n = n;
            c.variant = reduced_matmul::variantFromString(variant.toStdString());
            p = pointOf(runGalleryPoint(c, gpu, cancel, &reduced_matmul::runReduced));
        } else {
            transpose::Config c;
            c.m = c.n = n;
            c.variant = transpose::variantFromString(variant.toStdString());
            p = pointOf(runGalleryPoint(c, gpu, cancel, &transpose::runTranspose));
        }
    } catch (const std::exception& e) {
        p.error = QString::fromUtf8(e.what());
    }
    p.variant = variant;
    p.n = n;
    return p;
}

std::vector<SeedSeries> seedSeries(Family family, bool gpu)
{
    std::vector<SeedSeries> out;
    if (family == Family::Reduced) {
        std::map<reduced_matmul::Variant, SeedSeries> byVariant;
        for (const reduced_matmul::SeedFigure& f : reduced_matmul::seedFigures()) {
            if (f.gpu != gpu)
                continue;
            SeedSeries& s = byVariant[f.variant];
            s.variant = QString::fromUtf8(reduced_matmul::toString(f.variant).data());
            s.hardware = QString::fromUtf8((gpu ? reduced_matmul::kSeedGpu : reduced_matmul::kSeedCpu).data());
            const double h = double(f.n) / 2;
            SweepPoint point;
            point.variant = s.variant;
            point.n = f.n;
            point.ms = f.ms;
            point.rate = 2 * h * h * double(f.n) / (f.ms * 1e-3) / 1e9;
            point.verified = true;
            s.points.push_back(point);
        }
        for (auto& [v, s] : byVariant)
            out.push_back(s);
    } else if (gpu) {
        for (const transpose::SeedFigure& f : transpose::seedFigures()) {
            SeedSeries s;
            s.variant = QString::fromUtf8(transpose::toString(f.variant).data());
            s.hardware = QString::fromUtf8(transpose::kSeedGpu.data());
            const double bytes = 2.0 * double(f.n) * double(f.n) * 4;
            SweepPoint point;
            point.variant = s.variant;
            point.n = f.n;
            point.ms = bytes / (f.gbps * 1e9) * 1e3;
            point.rate = f.gbps;
            point.verified = true;
            s.points.push_back(point);
            out.push_back(s);
        }
    }
    return out;
}

}  // namespace gigacheck::ui::gallery
