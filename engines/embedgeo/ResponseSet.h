#pragma once
/// Responses of the aporia-hallucination panel: prompt ids, texts, labels and (unit-row) embeddings,
/// from a JSONL file `{"prompt_id", "response", "label"}` (+ optional .npy/.csv embeddings, row i ↔
/// line i) or from the stand-ins. Plain values; any thread.

#include "core/Engine.h"

#include <Eigen/Core>

#include <string>
#include <vector>

namespace pl::embedgeo {

struct ResponseSet {
    std::vector<int> prompt;              ///< prompt index per response, 0..prompts-1
    std::vector<std::string> promptNames; ///< by index
    std::vector<std::string> text;
    std::vector<int> label;    ///< 1 hallucinated, 0 genuine, -1 unlabelled
    std::vector<int64_t> line; ///< 1-based source line (file mode)
    Eigen::MatrixXd emb;       ///< responses x d, unit rows (empty until embedded)
    int prompts() const { return int(promptNames.size()); }
};

/// A parsed JSONL file.
struct ResponseJsonlInput : LoadedInput {
    ResponseSet set;
};
/// A parsed embedding matrix (.npy or .csv).
struct EmbeddingInput : LoadedInput {
    Eigen::MatrixXd emb;
};

/// Parses JSONL text: one object per non-blank line with "prompt_id" (string or integer),
/// "response" (string) and optional "label" (1 / "hallucinated", 0 / "genuine", null or absent =
/// unlabelled). Throws pl::InputError(name, reason, line) for bad JSON or fields; unknown label
/// values are collected and listed in one error; an empty file is an error.
ResponseSet parseResponseJsonl(const std::string& text, const std::string& name);

/// Reads a .jsonl, .npy or .csv file for the panel.
std::shared_ptr<const LoadedInput> loadAporiaFile(const std::string& path);

} // namespace pl::embedgeo
