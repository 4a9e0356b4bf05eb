// The blocked ABFT GEMM spread over G = 2 CUDA devices (issue 14 item 3): two GPUs where the
// machine has them, else two logical devices on one GPU (ordinal repeated). Every strategy
// matches the reference and corrects a fault in every block product, on both devices; each
// device's spans and buffers are its own; the backend says which ordinals it used.
#include "gpu_available.hpp"

#include "gigacheck/bench.hpp"
#include "gigacheck/blocked_gemm/run.hpp"

#include <map>
#include <set>

using namespace gigacheck;

Q_DECLARE_METATYPE(gigacheck::StrategyKind)
Q_DECLARE_METATYPE(gigacheck::Precision)

class TestCudaMultiDeviceGemm : public QObject {
    Q_OBJECT

private slots:
    void spreadOverTwoDevices_data()
    {
        QTest::addColumn<StrategyKind>("strategy");
        QTest::addColumn<Precision>("precision");
        for (StrategyKind s : {StrategyKind::S1, StrategyKind::S2, StrategyKind::S3, StrategyKind::S4})
            for (Precision p : {Precision::F32, Precision::F64})
                QTest::newRow((std::string(toString(s)) + " " + std::string(toString(p))).c_str()) << s << p;
    }
    void spreadOverTwoDevices()
    {
        GIGACHECK_REQUIRE_CUDA_DEVICE();
        QFETCH(StrategyKind, strategy);
        QFETCH(Precision, precision);
        RunConfig c;
        c.shape = {157, 93, 131};  // odd everywhere: edge blocks, unaligned rows
        c.precision = precision;
        c.backend = BackendKind::Cuda;
        c.strategy = strategy;
        c.devices = 2;
        c.reference = ReferenceMode::Full;
        c.memCapBytes = precision == Precision::F32 ? 60000 : 120000;
        c.faults.count = 1;
        c.faults.scope = FaultScope::EveryProduct;
        const RunRecord r = runGemm(c);
        QVERIFY2(r.status == "ok", qPrintable(QString::fromStdString(r.error)));
        QVERIFY2(r.verifiedCorrect(), qPrintable(QStringLiteral("%1 mismatches").arg(r.reference.mismatches)));
        QCOMPARE(r.faults.uncorrectable, 0);
        QCOMPARE(r.faults.missed, 0);
        QCOMPARE(int(r.devices.size()), 2);

        std::string why;
        std::size_t gpus = 0;
        for (const DeviceInfo& d : listDevices(&why))
            gpus += d.backend == BackendKind::Cuda ? 1 : 0;
        if (gpus == 1)
            QCOMPARE(r.devices[0].index, r.devices[1].index);
        else
            QVERIFY(r.devices[0].index != r.devices[1].index);
        QVERIFY(r.devices.front().whyChosen.find("--devices 2") != std::string::npos);

        std::map<int, int> deviceOfOp;
        std::set<int> computedOn, injectedOn;
        for (const Span& s : r.spans) {
            deviceOfOp[s.opId] = s.device;
            if (s.kind == OpKind::Product)
                computedOn.insert(s.device);
        }
        for (const InjectEvent& e : r.injections)
            injectedOn.insert(deviceOfOp.at(e.opId));
        QCOMPARE(int(computedOn.size()), 2);
        QCOMPARE(int(injectedOn.size()), 2);
        QVERIFY(r.metrics.peakBufferBytes <= r.plan.capBytes);
        const std::string report = formatReport(r);
        QVERIFY(report.find("Devices (2)") != std::string::npos);
        qInfo("%s", report.substr(report.find("Devices (")).c_str());
    }
};

QTEST_GUILESS_MAIN(TestCudaMultiDeviceGemm)
#include "tst_cuda_multi_device_gemm.moc"
