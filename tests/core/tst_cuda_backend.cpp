// Backend parsing and resolution (engines/cuda). On a machine without a CUDA device (CI) auto
// falls back to the CPU and an explicit cuda request is an error; with a device, auto uses it.
#include "core/Backend.h"
#include "core/Errors.h"
#include "cuda/CudaDevice.h"

#include <QtTest>

class TestCudaBackend : public QObject {
    Q_OBJECT
private slots:
    void parse() {
        QCOMPARE(pl::parseBackend("auto"), pl::Backend::Auto);
        QCOMPARE(pl::parseBackend("cpu"), pl::Backend::Cpu);
        QCOMPARE(pl::parseBackend("cuda"), pl::Backend::Cuda);
        QVERIFY_THROWS_EXCEPTION(pl::UsageError, pl::parseBackend("gpu"));
        QCOMPARE(pl::backendName(pl::Backend::Cuda), std::string("cuda"));
    }
    void resolve() {
        QVERIFY(!pl::cuda::useCuda(pl::Backend::Cpu));
        const bool device = pl::cuda::built() && pl::cuda::deviceCount() > 0;
        QCOMPARE(pl::cuda::useCuda(pl::Backend::Auto), device);
        if (device) {
            QVERIFY(pl::cuda::useCuda(pl::Backend::Cuda));
            QVERIFY(!pl::cuda::deviceName().empty());
        } else {
            QVERIFY_THROWS_EXCEPTION(pl::EngineError, pl::cuda::useCuda(pl::Backend::Cuda));
        }
    }
};

QTEST_GUILESS_MAIN(TestCudaBackend)
#include "tst_cuda_backend.moc"
