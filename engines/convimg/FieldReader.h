#pragma once
/// Reader for 2-D fields on a square grid: a CSV grid (N lines of N numbers, [row = y][column = x])
/// or a `.npy` array of shape N x N or n x N x N (`<f4` or `<f8`). Staged and validated: non-square
/// grids, other dtypes and shapes, empty and non-finite values are refused with pl::InputError
/// (file, line or byte offset, reason). Pure functions; any thread.
#include <Eigen/Core>

#include <string>
#include <vector>

namespace pl::convimg {

/// Fields of one file, all N x N.
struct FieldFile {
    std::vector<Eigen::MatrixXd> fields;
    int n() const { return fields.empty() ? 0 : int(fields.front().rows()); }
    /// "N x N" or "n x N x N".
    std::string shapeText() const;
};

/// Reads a file; `.npy` by extension (case-insensitive), CSV otherwise.
FieldFile readFieldFile(const std::string& path);
/// Parses bytes already in memory (\a npy selects the format); \a name is used in messages.
FieldFile parseFieldFile(const std::string& bytes, const std::string& name, bool npy);

/// Throws pl::InputError naming \a path and the first cell where K <= 0 or not finite
/// ("permeability must be positive").
void requirePositive(const FieldFile& K, const std::string& path);

} // namespace pl::convimg
