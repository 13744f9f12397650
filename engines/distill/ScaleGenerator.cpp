#include "ScaleGenerator.h"

#include "core/Errors.h"
#include "nn/Tape.h"

#include <cmath>
#include <numeric>

namespace pl::distill {

ScaleGenerator::ScaleGenerator(const MultiScaleQuantiser& q, int classes, int hidden, Rng& init)
    : m_q(q), m_classes(classes) {
    for (int k = 0; k < q.scaleCount(); ++k) {
        const int s = q.scales()[size_t(k)], prev = k > 0 ? q.scales()[size_t(k - 1)] : 0;
        const int in = q.dim() * (1 + prev * prev) + s * s + classes + 1;
        m_mlp.push_back({nn::Parameter("W1", nn::glorotUniform(in, hidden, init)),
                         nn::Parameter("b1", Eigen::MatrixXd::Zero(1, hidden)),
                         nn::Parameter("W2", nn::glorotUniform(hidden, q.codebookSize(), init)),
                         nn::Parameter("b2", Eigen::MatrixXd::Zero(1, q.codebookSize()))});
    }
}

std::vector<Eigen::MatrixXd> ScaleGenerator::weights(int k) const {
    const Mlp& m = m_mlp[size_t(k)];
    return {m.w1.value, m.b1.value, m.w2.value, m.b2.value};
}

Eigen::MatrixXd ScaleGenerator::inputs(int k, const std::vector<Eigen::MatrixXd>& fhat,
                                       const std::vector<int>& cls) const {
    const int s = m_q.scales()[size_t(k)], P = s * s, C = m_q.dim();
    const int prev = k > 0 ? m_q.scales()[size_t(k - 1)] : 0, G = C * prev * prev;
    Eigen::MatrixXd X = Eigen::MatrixXd::Zero(Eigen::Index(fhat.size()) * P, C + G + P + m_classes + 1);
    for (size_t n = 0; n < fhat.size(); ++n) {
        const Eigen::MatrixXd ctx = m_q.down(k) * fhat[n];
        Eigen::RowVectorXd global(G);
        if (k > 0) {
            const Eigen::MatrixXd coarse = m_q.down(k - 1) * fhat[n]; // the whole image at scale k-1
            for (Eigen::Index q = 0; q < coarse.rows(); ++q)
                global.segment(q * C, C) = coarse.row(q);
        }
        for (int p = 0; p < P; ++p) {
            const Eigen::Index r = Eigen::Index(n) * P + p;
            X.row(r).head(C) = ctx.row(p);
            X.row(r).segment(C, G) = global;
            X(r, C + G + p) = 1;
            X(r, C + G + P + cls[n]) = 1;
        }
    }
    return X;
}

Eigen::MatrixXd ScaleGenerator::logits(int k, const Eigen::MatrixXd& X) const {
    const Mlp& m = m_mlp[size_t(k)];
    Eigen::MatrixXd h = X * m.w1.value;
    h.rowwise() += m.b1.value.row(0);
    h = h.cwiseMax(0.0);
    Eigen::MatrixXd z = h * m.w2.value;
    z.rowwise() += m.b2.value.row(0);
    return z;
}

void ScaleGenerator::train(const std::vector<ScaleTokens>& tokens, const std::vector<int>& labels,
                           const GeneratorTraining& cfg, Rng& rng, const std::function<void(double)>& poll) {
    const int K = m_q.scaleCount(), C = m_q.dim();
    const size_t N = tokens.size();
    // contexts f_hat_<k of every image, scale by scale
    std::vector<Eigen::MatrixXd> fhat(N, Eigen::MatrixXd::Zero(m_q.grid() * m_q.grid(), C));
    for (int k = 0; k < K; ++k) {
        const int s = m_q.scales()[size_t(k)], P = s * s;
        const Eigen::MatrixXd X = inputs(k, fhat, labels);
        std::vector<int> y(size_t(X.rows()));
        for (size_t n = 0; n < N; ++n)
            for (int p = 0; p < P; ++p)
                y[n * size_t(P) + size_t(p)] = tokens[n][size_t(k)][size_t(p)];
        Mlp& m = m_mlp[size_t(k)];
        const std::vector<nn::Parameter*> ps = {&m.w1, &m.b1, &m.w2, &m.b2};
        nn::Adam adam(cfg.lr);
        std::vector<int> order(y.size());
        std::iota(order.begin(), order.end(), 0);
        const int rows = int(y.size()), batches = (rows + cfg.batch - 1) / cfg.batch;
        const int epochs = std::max(1, (cfg.steps + batches - 1) / batches);
        const int prev = k > 0 ? m_q.scales()[size_t(k - 1)] : 0;
        const int classCol = C * (1 + prev * prev) + P;
        int step = 0;
        for (int e = 0; e < epochs && step < cfg.steps; ++e) {
            for (int i = rows - 1; i > 0; --i)
                std::swap(order[size_t(i)], order[size_t(rng.uniformInt(uint64_t(i) + 1))]);
            for (int b = 0; b < batches && step < cfg.steps; ++b, ++step) {
                const int lo = b * cfg.batch, hi = std::min(rows, lo + cfg.batch);
                Eigen::MatrixXd xb(hi - lo, X.cols());
                std::vector<int> yb(size_t(hi - lo));
                for (int r = lo; r < hi; ++r) {
                    const int src = order[size_t(r)];
                    xb.row(r - lo) = X.row(src);
                    yb[size_t(r - lo)] = y[size_t(src)];
                    if (rng.uniform() < cfg.classDropout) { // class dropout -> null class
                        xb.row(r - lo).segment(classCol, m_classes + 1).setZero();
                        xb(r - lo, classCol + m_classes) = 1;
                    }
                }
                for (nn::Parameter* p : ps)
                    p->zeroGrad();
                nn::Tape t;
                const nn::Var h = nn::relu(nn::add(nn::matmul(t.constant(xb), t.param(m.w1)), t.param(m.b1)));
                const nn::Var z = nn::add(nn::matmul(h, t.param(m.w2)), t.param(m.b2));
                t.backward(nn::mean(nn::softmaxCrossEntropy(z, yb)));
                adam.step(ps);
                poll((k + double(step + 1) / cfg.steps) / K);
            }
        }
        // advance the contexts with the true tokens of scale k
        for (size_t n = 0; n < N; ++n) {
            Eigen::MatrixXd q(P, C);
            for (int p = 0; p < P; ++p)
                q.row(p) = m_q.codebook().row(tokens[n][size_t(k)][size_t(p)]);
            fhat[n] += m_q.up(k) * q;
        }
    }
}

namespace {

constexpr int kSampleBlock = 64; ///< samples processed together (keeps the scratch matrices in cache)

} // namespace

SampledPool ScaleGenerator::sample(const SampleRequest& req, Rng& rng) const {
    const int K = m_q.scaleCount(), C = m_q.dim(), N = req.count, g2 = m_q.grid() * m_q.grid();
    const int V = m_q.codebookSize();
    const bool guided = !req.prototypes.empty();
    SampledPool out;
    const int M = guided ? int(req.prototypes.front().size()) : 1;
    out.prototype.resize(size_t(N));
    for (int n = 0; n < N; ++n)
        out.prototype[size_t(n)] = int(rng.uniformInt(uint64_t(M)));
    out.tokens.assign(size_t(N), ScaleTokens(size_t(K)));
    // all latents side by side: g^2 x (N * C), sample n in columns n*C .. n*C + C - 1
    Eigen::MatrixXd L = Eigen::MatrixXd::Zero(g2, Eigen::Index(N) * C);
    const Eigen::MatrixXd& E = m_q.codebook();
    const Eigen::RowVectorXd codeNorm = E.rowwise().squaredNorm().transpose();
    std::vector<double> pr(size_t(V), 0.0);
    for (int k = 0; k < K; ++k) {
        const Mlp& mlp = m_mlp[size_t(k)];
        const int s = m_q.scales()[size_t(k)], P = s * s;
        const int prev = k > 0 ? m_q.scales()[size_t(k - 1)] : 0, G = C * prev * prev;
        const int H = int(mlp.w1.value.cols());
        // The one-hot inputs become row look-ups of W1, the global context one row per sample, and
        // CFG mixes the hidden layers ((1 + w) l_c - w l_null is linear in them): one GEMM out.
        const Eigen::RowVectorXd cls = mlp.w1.value.row(C + G + P + req.cls) + mlp.b1.value.row(0);
        const Eigen::RowVectorXd nul = mlp.w1.value.row(C + G + P + m_classes) + mlp.b1.value.row(0);
        const Eigen::MatrixXd posRows = mlp.w1.value.middleRows(C + G, P).transpose(); // H x P
        const double beta = guided && size_t(k) < req.betaK.size() ? req.betaK[size_t(k)] : 0.0;
        std::vector<Eigen::MatrixXd> protoDown;
        if (beta != 0)
            for (const Eigen::MatrixXd& Pm : req.prototypes[size_t(k)])
                protoDown.push_back(m_q.down(k) * Pm);
        double entropyNats = 0;
        for (int n0 = 0; n0 < N; n0 += kSampleBlock) {
            const int nb = std::min(kSampleBlock, N - n0);
            const auto Lb = L.middleCols(Eigen::Index(n0) * C, Eigen::Index(nb) * C);
            const Eigen::MatrixXd local = m_q.down(k) * Lb; // P x (nb * C)
            Eigen::MatrixXd X(Eigen::Index(nb) * P, C);
            for (int n = 0; n < nb; ++n)
                X.middleRows(Eigen::Index(n) * P, P) = local.middleCols(Eigen::Index(n) * C, C);
            Eigen::MatrixXd globalPre = Eigen::MatrixXd::Zero(nb, H);
            if (k > 0) {
                const Eigen::MatrixXd coarse = m_q.down(k - 1) * Lb; // prev^2 x (nb * C)
                Eigen::MatrixXd Gx(nb, G);
                for (int n = 0; n < nb; ++n)
                    for (Eigen::Index q = 0; q < coarse.rows(); ++q)
                        Gx.row(n).segment(q * C, C) = coarse.block(q, Eigen::Index(n) * C, 1, C);
                globalPre = Gx * mlp.w1.value.middleRows(C, G);
            }
            const Eigen::MatrixXd globT = globalPre.transpose();              // H x nb
            Eigen::MatrixXd preT = (X * mlp.w1.value.topRows(C)).transpose(); // H x (nb * P)
            for (int n = 0; n < nb; ++n)
                for (int p = 0; p < P; ++p) {
                    double* col = preT.col(Eigen::Index(n) * P + p).data();
                    const double* gp = globT.col(n).data();
                    const double* pp = posRows.col(p).data();
                    for (int h = 0; h < H; ++h) {
                        const double base = col[h] + gp[h] + pp[h];
                        col[h] = (1 + req.cfg) * std::max(0.0, base + cls(h)) -
                                 req.cfg * std::max(0.0, base + nul(h));
                    }
                }
            Eigen::MatrixXd logitsT = mlp.w2.value.transpose() * preT; // V x (nb * P)
            logitsT.colwise() += mlp.b2.value.row(0).transpose();
            logitsT /= req.temperature;
            if (beta != 0) {
                // Delta = down_k(f_hat_<k) - down_k(P): ||Delta + e_v||^2 = |Delta|^2 + 2 Delta.e_v + |e_v|^2
                for (int n = 0; n < nb; ++n)
                    X.middleRows(Eigen::Index(n) * P, P) -= protoDown[size_t(out.prototype[size_t(n0 + n)])];
                Eigen::MatrixXd distT = 2.0 * E * X.transpose(); // V x (nb * P)
                distT.colwise() += codeNorm.transpose();
                distT.rowwise() += X.rowwise().squaredNorm().transpose();
                logitsT -= (beta / C) * distT;
            }
            Eigen::MatrixXd Q(P, Eigen::Index(nb) * C);
            for (int n = 0; n < nb; ++n)
                for (int p = 0; p < P; ++p) {
                    const double* l = logitsT.col(Eigen::Index(n) * P + p).data();
                    double mx = l[0];
                    for (int v = 1; v < V; ++v)
                        mx = std::max(mx, l[v]);
                    double Z = 0, pl = 0;
                    for (int v = 0; v < V; ++v) {
                        pr[size_t(v)] = std::exp(l[v] - mx);
                        Z += pr[size_t(v)];
                        pl += pr[size_t(v)] * (l[v] - mx);
                    }
                    entropyNats += std::log(std::max(Z, 1.0)) - pl / Z; // Z >= 1: the largest term is exp(0) // H = log Z - sum_v p_v (l_v - max)
                    const double u = rng.uniform() * Z;
                    double acc = 0;
                    int tok = V - 1;
                    for (int v = 0; v < V; ++v) {
                        acc += pr[size_t(v)];
                        if (acc > u) {
                            tok = v;
                            break;
                        }
                    }
                    out.tokens[size_t(n0 + n)][size_t(k)].push_back(tok);
                    Q.block(p, Eigen::Index(n) * C, 1, C) = E.row(tok);
                }
            L.middleCols(Eigen::Index(n0) * C, Eigen::Index(nb) * C) += m_q.up(k) * Q;
        }
        out.entropyBits.push_back(N > 0 ? entropyNats / std::log(2.0) / (double(N) * P) : 0.0);
    }
    out.latents.resize(size_t(N));
    for (int n = 0; n < N; ++n)
        out.latents[size_t(n)] = L.middleCols(Eigen::Index(n) * C, C);
    return out;
}

} // namespace pl::distill
