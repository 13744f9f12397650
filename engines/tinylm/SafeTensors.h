#pragma once
/// Staged, validated reader for `.safetensors` files (8-byte little-endian header length, a JSON
/// header {name: {dtype, shape, data_offsets}, "__metadata__": {string: string}}, then the data).
/// Only F32 and F64 tensors are accepted; everything is converted to double. The header is checked
/// completely (sizes, offsets inside the buffer, byte counts equal to the shapes, no overlaps)
/// before any tensor is decoded. Errors are pl::InputError with the file and a byte offset.
/// Pure functions; any thread.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace pl::tinylm {

/// One tensor, row-major, converted to double.
struct Tensor {
    std::vector<int64_t> shape;
    std::string dtype; ///< "F32" or "F64" as stored
    std::vector<double> data;
    int64_t size() const;
};

/// A parsed file: its tensors by name and the string metadata.
struct SafeTensorsFile {
    std::map<std::string, Tensor> tensors;
    std::map<std::string, std::string> metadata;
};

/// Parses bytes already in memory (\a name for messages). Throws pl::InputError.
SafeTensorsFile parseSafeTensors(const std::string& bytes, const std::string& name);
/// Reads and parses a file (at most \a maxBytes). Throws pl::InputError.
SafeTensorsFile readSafeTensors(const std::string& path, int64_t maxBytes = int64_t(1) << 30);

/// Serialises tensors (written as F64, or F32 when \a f32) with metadata into `.safetensors`
/// bytes (for tests, examples and fixtures).
std::string writeSafeTensors(const SafeTensorsFile& f, bool f32 = false);

} // namespace pl::tinylm
