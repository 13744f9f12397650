#pragma once
/// Prompt files: token ids, one sequence per line, separated by spaces or tabs. The parse keeps the
/// line and column of every id, so that checks made later against a model (id >= V, prompt plus
/// generation beyond the positions) still name them. Pure functions; any thread.
#include <string>
#include <vector>

namespace pl::tinylm {

struct PromptSet {
    std::string path;
    std::vector<std::vector<int>> seqs;
    std::vector<int> lines;                ///< 1-based line of each sequence
    std::vector<std::vector<int>> columns; ///< 1-based column of each id
};

/// Parses text. Empty lines (other than at the very end), non-integers, negative or huge ids,
/// more than 10 000 sequences or 100 000 ids per line: pl::InputError with line and column.
PromptSet parsePrompts(const std::string& text, const std::string& name);
/// Reads a file (at most 64 MiB).
PromptSet readPrompts(const std::string& path);
/// Throws pl::InputError (line, column) for the first id >= vocab.
void checkPromptIds(const PromptSet& p, int vocab);
/// Throws pl::InputError (line) for the first prompt whose length + genLen exceeds maxPositions.
void checkPromptLengths(const PromptSet& p, int genLen, int maxPositions);

} // namespace pl::tinylm
