// CUDA accumulation of Γ and H against the CPU path (skips without a CUDA build or device).
#include "core/Rng.h"
#include "cuda/CudaDevice.h"
#include "torusgraph/ScoreMatching.h"

#include <QtTest>

#include <numbers>

using namespace pl::torusgraph;

class TestTorusGraphCuda : public QObject {
    Q_OBJECT
private slots:
    void gammaMatchesCpu() {
        if (!pl::cuda::built())
            QSKIP("built without CUDA kernels");
        if (pl::cuda::deviceCount() <= 0)
            QSKIP("no CUDA device");
        pl::Rng rng(1);
        for (int d : {3, 8, 17}) {
            RowMat x(1500, d);
            for (Eigen::Index i = 0; i < x.size(); ++i)
                x.data()[i] = rng.uniform(0, 2 * std::numbers::pi);
            const TrigTables t = TrigTables::of(x);
            Vec w(1500);
            for (int i = 0; i < 1500; ++i)
                w(i) = rng.uniform();
            for (const Vec& weights : {Vec(), w}) {
                const GammaH cpu = accumulateGammaH(t, weights, {}, false);
                const GammaH gpu = accumulateGammaH(t, weights, {}, true);
                const double scale = cpu.gamma.cwiseAbs().maxCoeff();
                QVERIFY2((cpu.gamma - gpu.gamma).cwiseAbs().maxCoeff() < 1e-10 * scale,
                         qPrintable(QString::number((cpu.gamma - gpu.gamma).cwiseAbs().maxCoeff())));
                QVERIFY((cpu.h - gpu.h).cwiseAbs().maxCoeff() < 1e-12 * (1 + cpu.h.cwiseAbs().maxCoeff()));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestTorusGraphCuda)
#include "tst_torusgraph_cuda.moc"
