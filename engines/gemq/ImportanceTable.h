#pragma once
/// The importance table of gemq-moe-quant: a CSV `layer,expert,bits,cost,params` (header required,
/// rows in any order, '#' comments and blank lines skipped) giving, for every expert of every layer
/// and every bit-width, the quantisation cost and the expert's parameter count, to run the allocator
/// alone (e.g. on costs measured on a real model). Every (layer, expert, bits) of the grid spanned
/// by the file must appear exactly once; costs are finite and >= 0; an expert's params are the same
/// on all its rows and positive. Errors are pl::InputError with file and line. Pure functions.
#include "core/Engine.h"

#include <Eigen/Core>

#include <string>
#include <vector>

namespace pl::gemq {

struct ImportanceInput : LoadedInput {
    int layers = 0, experts = 0;
    std::vector<int> bits;      ///< ascending
    Eigen::MatrixXd cost;       ///< (layers * experts) x bits.size(), row l * experts + e
    std::vector<double> params; ///< per row
};

/// Parses CSV text (\a name for messages). Throws pl::InputError.
std::shared_ptr<ImportanceInput> parseImportanceCsv(const std::string& text, const std::string& name);
/// Reads a file (at most 64 MiB) and parses it.
std::shared_ptr<ImportanceInput> readImportanceCsv(const std::string& path);

} // namespace pl::gemq
