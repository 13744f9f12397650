#include "lifsnn/MmwaveGenerator.h"

#include "core/Numeric.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace pl::lifsnn {

namespace {

struct Component {
    double freq = 0, centre = 0, width = 1, slope = 0;
};

std::vector<std::vector<Component>> classTemplates(const GeneratorSettings& s, Rng rng) {
    std::vector<std::vector<Component>> t(size_t(s.classes));
    for (auto& cls : t) {
        const int parts = 2 + int(rng.uniformInt(2));
        for (int k = 0; k < parts; ++k) {
            Component c;
            c.freq = rng.uniform(0.25 * s.band, s.band);
            c.centre = rng.uniform(0.0, double(s.channels - 1));
            c.width = std::max(1.0, double(s.channels) / 6.0);
            c.slope = rng.uniform(-0.5 * std::numbers::pi, 0.5 * std::numbers::pi);
            cls.push_back(c);
        }
    }
    return t;
}

double variance(const std::vector<double>& v) {
    double m = 0, q = 0;
    for (double x : v)
        m += x;
    m /= double(v.size());
    for (double x : v)
        q += (x - m) * (x - m);
    return q / double(v.size());
}

/// One sequence (T x C, C order) of class \a cls before spikes and drops.
std::vector<double> cleanSequence(const GeneratorSettings& s, const std::vector<Component>& cls, Rng& rng,
                                  double* signalSd) {
    const int T = s.steps, C = s.channels;
    std::vector<double> sig(size_t(T * C), 0.0), noise(size_t(T * C), 0.0);
    const double amp = rng.uniform(0.8, 1.2);
    for (const Component& c : cls) {
        const double f = c.freq * (1.0 + 0.03 * rng.normal()), phase = rng.uniform(0.0, kTau);
        for (int ch = 0; ch < C; ++ch) {
            const double z = (ch - c.centre) / c.width, g = amp * std::exp(-0.5 * z * z);
            for (int t = 0; t < T; ++t)
                sig[size_t(t * C + ch)] += g * std::sin(kTau * f * t + phase + c.slope * ch);
        }
    }
    const double lo = std::min(0.5, 2.0 * s.band);
    for (int m = 0; m < 16; ++m) {
        const double f = rng.uniform(lo, 0.5);
        for (int ch = 0; ch < C; ++ch) {
            const double a = rng.uniform(0.5, 1.5), ph = rng.uniform(0.0, kTau);
            for (int t = 0; t < T; ++t)
                noise[size_t(t * C + ch)] += a * std::sin(kTau * f * t + ph);
        }
    }
    const double vs = variance(sig), vn = variance(noise);
    const double gain = vn > 0 ? std::sqrt(s.noiseRatio * vs / vn) : 0.0;
    *signalSd = std::sqrt(vs);
    for (size_t i = 0; i < sig.size(); ++i) {
        sig[i] += gain * noise[i] + 0.05 * *signalSd * rng.normal();
        if (s.highBand && (i / size_t(C)) % 2 == 1)
            sig[i] = -sig[i];
    }
    return sig;
}

} // namespace

SeqData generateMmwave(const GeneratorSettings& s, const Rng& rng) {
    const auto templates = classTemplates(s, rng.fork("classes"));
    Rng seq = rng.fork("sequences");
    SeqData d;
    d.n = s.samples;
    d.steps = s.steps;
    d.channels = s.channels;
    d.classes = s.classes;
    for (int c = 0; c < s.classes; ++c)
        d.labelValues.push_back(c);
    d.y.resize(size_t(s.samples));
    for (int i = 0; i < s.samples; ++i)
        d.y[size_t(i)] = i % s.classes;
    for (int i = s.samples - 1; i > 0; --i)
        std::swap(d.y[size_t(i)], d.y[size_t(seq.uniformInt(uint64_t(i + 1)))]);
    d.x.reserve(size_t(s.samples) * size_t(s.steps * s.channels));
    for (int i = 0; i < s.samples; ++i) {
        double sd = 0;
        std::vector<double> x = cleanSequence(s, templates[size_t(d.y[size_t(i)])], seq, &sd);
        for (double& v : x)
            if (seq.uniform() < s.impulseRate)
                v += (seq.uniform() < 0.5 ? -1.0 : 1.0) * seq.uniform(3.0, 6.0) * sd;
        for (int t = 0; t < s.steps; ++t)
            if (seq.uniform() < s.dropRate)
                for (int c = 0; c < s.channels; ++c)
                    x[size_t(t * s.channels + c)] = kNaN;
        d.x.insert(d.x.end(), x.begin(), x.end());
    }
    for (int i = 0; i < d.n; ++i)
        d.droppedFrames += holdDroppedFrames(d, i);
    return d;
}

} // namespace pl::lifsnn
