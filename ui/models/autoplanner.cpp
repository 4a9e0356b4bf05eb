#include "models/autoplanner.hpp"

#include "engine/backgroundjobs.hpp"

#include <gigacheck/bench.hpp>
#include <gigacheck/defaults.hpp>

#include <QCoreApplication>
#include <QThread>
#include <QTimer>

#include <memory>

namespace gigacheck::ui {

DeviceInfo previewDevice(const RunConfig& config)
{
    std::string why;
    const std::vector<DeviceInfo> devices = listDevices(&why);
    const DeviceInfo* cpu = nullptr;
    const DeviceInfo* firstGpu = nullptr;
    const DeviceInfo* chosenGpu = nullptr;
    for (const DeviceInfo& d : devices) {
        if (d.backend == BackendKind::Cpu && !cpu)
            cpu = &d;
        if (d.backend == BackendKind::Cuda) {
            if (!firstGpu)
                firstGpu = &d;
            if (d.index == config.device)
                chosenGpu = &d;
        }
    }
    const DeviceInfo* gpu = config.device < 0 ? firstGpu : chosenGpu;
    switch (config.backend) {
    case BackendKind::Cpu:
        break;
    case BackendKind::Cuda:
        if (!gpu)
            throw InputError(config.device < 0 ? "no CUDA device: " + why
                                               : "CUDA device " + std::to_string(config.device) + " is not on this machine");
        return *gpu;
    case BackendKind::Auto:
        if (gpu)
            return *gpu;
        break;
    }
    if (!cpu)
        throw InputError("no CPU device listed");
    return *cpu;
}

std::uint64_t previewCapBytes(const RunConfig& config, const DeviceInfo& device)
{
    if (config.memCapBytes)
        return config.memCapBytes;
    return device.backend == BackendKind::Cpu || device.memoryBytes == 0 ? kDefaultCpuMemCapBytes : device.memoryBytes;
}

std::uint64_t previewCapBytes(const RunConfig& config)
{
    if (config.memCapBytes)
        return config.memCapBytes;
    try {
        return previewCapBytes(config, previewDevice(config));
    } catch (const std::exception&) {
        return 0;
    }
}

PlannerChoice planAuto(const RunConfig& config)
{
    const DeviceInfo device = previewDevice(config);
    const std::vector<StrategyKind> all = {StrategyKind::None, StrategyKind::S1, StrategyKind::S2, StrategyKind::S3,
                                           StrategyKind::S4};
    return planWithCostModel(config.shape, config.precision, all, previewCapBytes(config, device), config.abft,
                             costModelOf(device), gemmRateKind(config.precision, config.gemm), {}, EndTaper::Auto,
                             config.gemm);
}

AutoPlanner::AutoPlanner(QObject* parent) : QObject(parent)
{
    qRegisterMetaType<AutoPlanResult>();
    debounce_ = new QTimer(this);
    debounce_->setSingleShot(true);
    debounce_->setInterval(250);
    connect(debounce_, &QTimer::timeout, this, &AutoPlanner::launch);
}

AutoPlanner::~AutoPlanner() = default;

void AutoPlanner::setDebounceMs(int ms)
{
    debounce_->setInterval(ms);
}

void AutoPlanner::request(const RunConfig& config)
{
    config_ = config;
    ++requested_;
    pending_ = true;
    debounce_->start();  // restarts: typing 1-0-2-4 plans once
}

void AutoPlanner::launch()
{
    if (job_)
        return;  // the running preview ends first; its end launches the latest request
    const RunConfig config = config_;
    const quint64 request = requested_;
    launched_ = request;
    QThread* gui = QCoreApplication::instance() ? QCoreApplication::instance()->thread() : nullptr;
    auto result = std::make_shared<AutoPlanResult>();  // written by the job, read in onDone
    JobSpec spec;
    spec.name = QStringLiteral("planner preview");
    spec.owner = this;
    spec.kind = JobKind::Preview;
    spec.lowPriority = true;
    spec.onDone = [this, result] {
        job_ = 0;
        if (result->request == requested_) {
            pending_ = false;
            latest_ = *result;
            emit planned(*result);
        } else if (!debounce_->isActive()) {
            launch();  // a newer request came while this one was planned
        }
    };
    job_ = BackgroundJobs::instance()->start(spec, [result, config, request, gui](const JobContext&) {
        result->request = request;
        result->onGuiThread = QThread::currentThread() == gui;
        try {
            PlannerChoice choice = planAuto(config);
            result->plan = std::move(choice.plan);
            result->predictedSeconds = choice.predictedSeconds;
            result->calibrated = hasMeasuredRates(previewDevice(config).ceilings);
            result->ok = true;
        } catch (const std::exception& e) {
            result->error = QString::fromStdString(e.what());
        }
    });
}

}  // namespace gigacheck::ui
