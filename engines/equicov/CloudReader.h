#pragma once
/// Readers of the equivariant-covariance inputs, each refusing bad files with pl::InputError (file,
/// line, reason):
///  - clouds.csv: header `id,x,y,z`, one row per point; ids are any text, clouds in first-appearance order;
///  - an ASCII PLY file (`element vertex N` with float properties x, y, z): one cloud named after the file;
///  - tensors.csv: header `id,T11,T22,T33,T23,T13,T12` (tensor entries) or `id,v1,...,v6` (Kelvin-Mandel).
/// Every cloud needs at least 4 points and a second moment of rank >= 2; values must be finite.
/// Pure C++; any thread.
#include "equicov/KelvinMandel.h"
#include "equicov/ShapeGenerator.h"

#include <string>
#include <vector>

namespace pl::equicov {

struct TensorRow {
    std::string id;
    Vec6 v = Vec6::Zero();
    int line = 0;
};

/// True when \a text's first non-comment line is a tensor header (has T11 or v1).
bool looksLikeTensorCsv(const std::string& text);
std::vector<Cloud> parseCloudCsv(const std::string& text, const std::string& name);
std::vector<Cloud> parsePly(const std::string& text, const std::string& name);
std::vector<TensorRow> parseTensorCsv(const std::string& text, const std::string& name);
/// Checks point count and rank of every cloud (InputError naming \a name and the id).
void validateClouds(const std::vector<Cloud>& clouds, const std::string& name);

} // namespace pl::equicov
