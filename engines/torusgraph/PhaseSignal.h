#pragma once
/// Phases from raw real-valued signals: band-pass and analytic signal in one frequency-domain
/// step (Eigen's FFT module): keep the positive-frequency bins inside [low, high] Hz doubled,
/// zero the rest, inverse transform, take the argument. Signals are demeaned and zero-padded to
/// the next 2^a 3^b 5^c length (fast transform sizes). Pure function.

#include "TorusModel.h"

namespace pl::torusgraph {

/// signal: samples × channels; fs in Hz; 0 < low < high ≤ fs/2. Returns phases in [0, 2π).
/// Throws pl::UsageError for a band outside (0, fs/2].
RowMat bandPhases(const RowMat& signal, double fs, double low, double high);

} // namespace pl::torusgraph
