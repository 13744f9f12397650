#pragma once
/// Readers of vector files for nearest-neighbour search: NumPy `.npy` (2-D, any dtype NpyReader
/// accepts) and `.fvecs` (per row: little-endian int32 dimension, then that many float32). Both are
/// staged and validated (consistent row dimensions, finite values, size caps checked before the
/// data is allocated) and stored as row-major float32. A NaN or infinite row is reported with its
/// 1-based row number as the error's line. Pure functions; any thread.

#include "core/Engine.h"

#include <cstdint>
#include <string>
#include <vector>

namespace pl::search {

/// Caps of one vector file (the "memory cap"): bytes on disk, dimension, and stored values.
inline constexpr int64_t kMaxVectorFileBytes = int64_t(1) << 30; ///< 1 GiB
inline constexpr int64_t kMaxVectorDim = 4096;
inline constexpr int64_t kMaxVectorValues = int64_t(1) << 27; ///< 128 Mi floats = 512 MiB stored

/// n vectors of one dimension, row-major float32.
struct VectorSet {
    int64_t rows = 0;
    int64_t dim = 0;
    std::vector<float> data; ///< rows * dim
    const float* row(int64_t i) const { return data.data() + i * dim; }
};

/// A loaded vector file (the engine input).
struct VectorInput : LoadedInput {
    VectorSet vectors;
};

/// Parses `.fvecs` bytes; \a name is used in errors.
VectorSet parseFvecs(const std::string& bytes, const std::string& name);
/// Parses `.npy` bytes (a 2-D array; a 1-D array is one row).
VectorSet parseNpyVectors(const std::string& bytes, const std::string& name);
/// Reads a `.npy` or `.fvecs` file by its extension. Throws pl::InputError.
VectorSet readVectorFile(const std::string& path);
/// readVectorFile wrapped as an engine input (kind "npy" or "fvecs", summary "n x dim").
std::shared_ptr<const VectorInput> loadVectorInput(const std::string& path);

/// The four files of a bi-metric search in order: base expensive, base proxy, queries expensive,
/// queries proxy. Throws pl::InputError naming the offending file on a row-count mismatch between
/// the two metrics, a dimension mismatch between base and queries of a metric, or when the four
/// together pass \a maxValues stored values.
void checkBimetricFiles(const std::vector<const VectorInput*>& files,
                        int64_t maxValues = 2 * kMaxVectorValues);

} // namespace pl::search
