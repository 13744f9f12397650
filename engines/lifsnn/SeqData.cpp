#include "lifsnn/SeqData.h"

#include <cmath>

namespace pl::lifsnn {

int SeqData::trainRows(double testFraction) const {
    const int test = int(std::ceil(testFraction * double(n) - 1e-12));
    return n - test;
}

int64_t holdDroppedFrames(SeqData& d, int i) {
    int64_t dropped = 0;
    double* s = d.x.data() + size_t(i) * size_t(d.steps) * size_t(d.channels);
    for (int t = 0; t < d.steps; ++t) {
        double* f = s + size_t(t) * size_t(d.channels);
        bool nan = false;
        for (int c = 0; c < d.channels; ++c)
            nan = nan || std::isnan(f[c]);
        if (!nan)
            continue;
        ++dropped;
        for (int c = 0; c < d.channels; ++c)
            f[c] = t == 0 ? 0.0 : f[c - d.channels];
    }
    return dropped;
}

} // namespace pl::lifsnn
