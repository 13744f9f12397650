#pragma once
/// Staged, validated reader for NumPy `.npy` files: format versions 1.0 and 2.0, little-endian
/// `<f4 <f8 <f2 <i4 <i8` (and `|i1 |u1`), C order. Refuses Fortran order, object and other
/// dtypes, unknown versions, and headers whose shape does not match the file size, before
/// allocating the data.

#include <cstdint>
#include <string>
#include <vector>

namespace pl {

struct NpyArray {
    std::vector<int64_t> shape; ///< empty for a 0-d array
    std::string dtype;          ///< as in the header, e.g. "<f8"
    std::vector<double> data;   ///< C order, converted to double
    int64_t size() const;
    int64_t rows() const { return shape.empty() ? 1 : shape[0]; }
    int64_t cols() const;       ///< product of the trailing dims (1 for 1-d)
};

class NpyReader {
public:
    static constexpr int64_t kDefaultMaxBytes = 2ll << 30;
    /// Reads a file. Throws pl::InputError naming the file, byte offset and reason.
    static NpyArray readFile(const std::string& path, int64_t maxBytes = kDefaultMaxBytes);
    /// Parses bytes already in memory.
    static NpyArray parse(const std::string& bytes, const std::string& name);
};

/// Writes a C-order little-endian `<f8` .npy (format 1.0) into a byte string.
std::string writeNpy(const std::vector<int64_t>& shape, const std::vector<double>& data);

} // namespace pl
