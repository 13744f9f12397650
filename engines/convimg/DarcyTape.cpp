#include "convimg/DarcyTape.h"

#include "core/Errors.h"

namespace pl::convimg {

Var fvResidualOp(Var p, Var K, const MapShape& s, const Eigen::MatrixXd& f, DarcyTask task,
                 const std::vector<double>& g) {
    nn::Tape& t = *p.tape;
    const int n = s.height, P = s.pixels();
    if (s.width != n || f.rows() != n || f.cols() != n || p.rows() != 1 || K.rows() != 1 ||
        p.cols() != s.columns() || K.cols() != s.columns() ||
        (task == DarcyTask::Conditional && int(g.size()) != s.batch))
        throw EngineError("convimg::fvResidualOp: shape mismatch");
    const double inv = double(n) * n;
    const Mat& pv = p.value();
    const Mat& kv = K.value();
    Mat R(1, s.columns());
    for (int b = 0; b < s.batch; ++b) {
        const int o = b * P;
        for (int i = 0; i < P; ++i)
            R(0, o + i) = -f(i / n, i % n);
        const double gb = task == DarcyTask::Conditional ? g[size_t(b)] : 0.0;
        forEachFace(n, task, [&](int a, int c, bool left) {
            if (c < 0) {
                R(0, o + a) += 2 * kv(0, o + a) * (pv(0, o + a) - (left ? gb : 0.0)) * inv;
                return;
            }
            const double ka = kv(0, o + a), kc = kv(0, o + c);
            const double flux = 2 * ka * kc / (ka + kc) * (pv(0, o + a) - pv(0, o + c)) * inv;
            R(0, o + a) += flux;
            R(0, o + c) -= flux;
        });
    }
    return t.push(std::move(R), t.requiresGrad(p) || t.requiresGrad(K),
                  [p, K, s, n, P, inv, task, g](nn::Tape& t, const Mat& gR) {
                      const Mat& pv = p.value();
                      const Mat& kv = K.value();
                      Mat gp = Mat::Zero(1, pv.cols()), gk = Mat::Zero(1, kv.cols());
                      for (int b = 0; b < s.batch; ++b) {
                          const int o = b * P;
                          const double gb = task == DarcyTask::Conditional ? g[size_t(b)] : 0.0;
                          forEachFace(n, task, [&](int a, int c, bool left) {
                              const double ra = gR(0, o + a);
                              if (c < 0) {
                                  gp(0, o + a) += 2 * kv(0, o + a) * inv * ra;
                                  gk(0, o + a) += 2 * (pv(0, o + a) - (left ? gb : 0.0)) * inv * ra;
                                  return;
                              }
                              const double ka = kv(0, o + a), kc = kv(0, o + c), sum = ka + kc;
                              const double T = 2 * ka * kc / sum, dr = ra - gR(0, o + c);
                              const double dp = pv(0, o + a) - pv(0, o + c);
                              gp(0, o + a) += T * inv * dr;
                              gp(0, o + c) -= T * inv * dr;
                              const double dT = inv * dp * dr;
                              gk(0, o + a) += dT * 2 * kc * kc / (sum * sum);
                              gk(0, o + c) += dT * 2 * ka * ka / (sum * sum);
                          });
                      }
                      t.accumulate(p, gp);
                      t.accumulate(K, gk);
                  });
}

} // namespace pl::convimg
