#pragma once
/// User datasets of the robusttrain panels: a labelled CSV with a header (feature columns, `label`
/// in 0..K-1, optional `client_id`, `clean_label` and `split` = train|test) and MNIST-style IDX
/// pairs (images: magic 0x00000803, unsigned bytes scaled to [0, 1]; labels: 0x00000801). Every
/// refusal is a pl::InputError naming the file, the 1-based line (CSV) or byte offset (IDX) and the
/// reason. Pure; any thread.
#include "robusttrain/Datasets.h"

#include <cstdint>
#include <string>
#include <vector>

namespace pl::robusttrain {

/// A parsed labelled table. Optional columns are empty when the file has none.
struct LabeledTable {
    Dataset data; ///< features (columns other than the named ones) and `label`
    std::vector<std::string> featureNames;
    std::vector<int64_t> clientId; ///< `client_id` per row (integers >= 0)
    std::vector<int> cleanLabel;   ///< `clean_label` per row, in [0, classes)
    std::vector<char> isTest;      ///< `split` per row: 1 = test, 0 = train
    std::vector<int64_t> lines;    ///< 1-based file line of each row
};

/// Parses CSV text (',' ';' or tab separated; '#' comments and blank lines skipped; the first
/// remaining line is the header and must name a `label` column and at least one feature). Refuses a
/// ragged row, a non-numeric or non-finite feature, a label that is not an integer in [0, 1000),
/// a bad `split` value and fewer than two rows. classes = 1 + the largest label (or clean label).
LabeledTable parseLabeledCsv(const std::string& text, const std::string& name);
/// Reads and parses a file (at most 256 MiB).
LabeledTable readLabeledCsv(const std::string& path);

/// An IDX array of unsigned bytes: dims and values (row-major).
struct IdxArray {
    std::vector<int64_t> dims;
    std::vector<unsigned char> values;
};
/// Parses IDX bytes (big-endian header, type 0x08 = unsigned byte only, 1 to 3 dimensions; the
/// payload must match the dimensions exactly).
IdxArray parseIdx(const std::string& bytes, const std::string& name);
/// Reads and parses a file (at most 256 MiB).
IdxArray readIdx(const std::string& path);
/// True when \a bytes start like an IDX file (two zero bytes, type 0x08).
bool looksLikeIdx(const std::string& bytes);

/// Combines an image array (n x rows x cols, or n x d) and a label array (n) into a dataset with
/// features scaled to [0, 1]. Throws pl::InputError naming both files and both counts when they
/// differ.
Dataset idxPair(const IdxArray& images, const std::string& imagesName, const IdxArray& labels,
                const std::string& labelsName);

} // namespace pl::robusttrain
