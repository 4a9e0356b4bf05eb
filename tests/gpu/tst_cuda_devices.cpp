// Several devices on the CUDA executor: a schedule over two logical devices — one GPU listed
// twice, and two GPUs where the machine has them — with a strided copy from device 0's buffer to
// device 1's (core/cuda/device_copy.hpp) as a dependency across devices.
#include "gpu_available.hpp"

#ifdef GIGACHECK_HAVE_CUDA
#include "../../engine/src/core/cuda/testing_hooks.hpp"
#endif

#include <string>
#include <vector>

using namespace gigacheck;

class TestCudaDevices : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { GIGACHECK_REQUIRE_CUDA_DEVICE(); }
    void copiesAcrossDevices_data();
    void copiesAcrossDevices();
};

void TestCudaDevices::copiesAcrossDevices_data()
{
    QTest::addColumn<int>("first");
    QTest::addColumn<int>("second");
    QTest::newRow("GPU 0 listed twice") << 0 << 0;
    std::string why;
    if (makeCudaBackend(&why, 1))
        QTest::newRow("GPU 0 and GPU 1") << 0 << 1;
    else
        qInfo("one GPU only: the two-GPU row is left out (%s)", why.c_str());
}

void TestCudaDevices::copiesAcrossDevices()
{
#ifdef GIGACHECK_HAVE_CUDA
    QFETCH(int, first);
    QFETCH(int, second);
    std::vector<double> in(4 * 300);
    for (std::size_t e = 0; e < in.size(); ++e)
        in[e] = double(e) + 0.5;
    const cuda::testing::CopyAcrossDevices r = cuda::testing::copyAcrossDevices(in, first, second);
    for (std::size_t row = 1; row < 300; ++row)
        for (std::size_t col = 1; col <= 2; ++col)
            QCOMPARE(r.out[row * 4 + col], in[row * 4 + col]);
    QCOMPARE(r.spans.size(), std::size_t(3));
    for (const Span& s : r.spans)
        QCOMPARE(s.device, s.opId == 0 ? 0 : 1);
    QCOMPARE(r.devicePeakBytes, (std::vector<std::size_t>{in.size() * sizeof(double), in.size() * sizeof(double)}));
#else
    QSKIP("GPU test skipped: this build has no CUDA backend (nvcc not found at configure)");
#endif
}

QTEST_GUILESS_MAIN(TestCudaDevices)
#include "tst_cuda_devices.moc"
