#pragma once
/// A labelled set of multichannel sequences [N, T, C] (mmWave-like range/Doppler frames), as read
/// from a manifest or drawn by the generator. Plain data; immutable once built; any thread.
#include <cstdint>
#include <string>
#include <vector>

namespace pl::lifsnn {

struct SeqData {
    int n = 0;                       ///< sequences
    int steps = 0;                   ///< T, frames per sequence
    int channels = 0;                ///< C
    int classes = 0;                 ///< labels are 0 .. classes - 1
    double fs = 1.0;                 ///< sampling rate (Hz; 1 = cycles/sample)
    std::vector<double> x;           ///< n * steps * channels, C order [i][t][c]; finite
    std::vector<int> y;              ///< n labels
    std::vector<double> labelValues; ///< the file's label value of each class (sorted), or 0 .. K-1
    int64_t droppedFrames =
        0; ///< frames replaced by the previous frame (NaN in a file, drops in the generator)

    double at(int i, int t, int c) const {
        return x[(size_t(i) * size_t(steps) + size_t(t)) * size_t(channels) + size_t(c)];
    }
    const double* sequence(int i) const { return x.data() + size_t(i) * size_t(steps) * size_t(channels); }
    /// Rows [0, n - ceil(testFraction * n)) train, the rest test.
    int trainRows(double testFraction) const;
};

/// Replaces every frame of sequence \a i that holds a NaN by the previous frame (zeros before the
/// first); returns how many frames it replaced. Non-NaN values are left as they are.
int64_t holdDroppedFrames(SeqData& d, int i);

} // namespace pl::lifsnn
