#pragma once
/// The spec's "mmWave-like" micro-Doppler workload (§11.3): each class is a pattern of 2-3
/// sinusoidal modulations with class-specific frequencies in [band / 4, band] cycles/sample, each on a
/// Gaussian bump of range/Doppler channels with a class-specific phase slope across channels (the
/// classes differ only in how the modulation is spread over channels and time; every class has zero
/// mean). Per sequence: random phases, amplitude and 3 % frequency jitter; band-limited noise (16
/// tones in [2 band, 0.5] cycles/sample, power noise_ratio times the signal's, plus a 5 % white floor);
/// impulsive multipath spikes; random frame drops (zero-order hold, counted). The high-band switch
/// multiplies signal and noise by (-1)^t before spikes and drops, which maps every frequency f to
/// 0.5 - f: the same task with the discriminative band at high and the noise at low frequencies
/// (a model that ignores frequency, such as the raw-window MLP, sees an equally hard problem).
/// Deterministic in (settings, rng). Pure C++; any thread.
#include "lifsnn/SeqData.h"

#include "core/Rng.h"

namespace pl::lifsnn {

struct GeneratorSettings {
    int classes = 4;
    int steps = 128;
    int channels = 8;
    int samples = 600;
    double band = 0.06;         ///< upper edge of the discriminative band (cycles/sample)
    bool highBand = false;      ///< mirror the spectrum: f -> 0.5 - f
    double noiseRatio = 2.0;    ///< noise power / signal power
    double dropRate = 0.1;      ///< probability that a frame is dropped
    double impulseRate = 0.005; ///< probability of a multipath spike per frame and channel
};

/// Draws the labelled sequences (balanced classes in random order).
SeqData generateMmwave(const GeneratorSettings& s, const Rng& rng);

} // namespace pl::lifsnn
