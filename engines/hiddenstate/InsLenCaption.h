#pragma once
/// One caption's exported hidden states for the inslen-hallucination panel, and its reader from a
/// `.npz` archive (`image_states [L,P,d]`, `instr_states [L,I,d]`, `answer_states [L,A,d]`,
/// `answer_ids [A]`, `objects [n]`, `labels [n]` (1 real, 0 hallucinated), optional `svar [A]`).
/// Plain values; any thread.

#include "core/NpzReader.h"

#include <Eigen/Core>

#include <string>
#include <vector>

namespace pl::hiddenstate {

struct InsLenCaption {
    std::string source;                  ///< file name for messages
    std::vector<Eigen::MatrixXd> image;  ///< per layer, P x d patch states
    std::vector<Eigen::MatrixXd> instr;  ///< per layer, I x d instruction-token states
    std::vector<Eigen::MatrixXd> answer; ///< per layer, A x d answer-token states
    std::vector<int> answerIds;          ///< A token ids
    std::vector<int> objects;            ///< n object token ids
    std::vector<int> labels;             ///< n labels, 1 = real, 0 = hallucinated
    std::vector<double> svar;            ///< A values or empty
    int layers() const { return int(image.size()); }
    int dim() const { return image.empty() ? 0 : int(image[0].cols()); }
};

/// Validates and converts one archive. Throws pl::InputError naming the file and the array: missing
/// array, wrong rank, L or d mismatch between the three state arrays, empty blocks, non-integer or
/// negative ids, labels outside {0,1}, objects and labels of different lengths, svar not [A], NaN.
InsLenCaption captionFromArchive(const NpzArchive& z);

/// Checks a caption against the LM head size \a vocab and the layer count / width of the first
/// caption (\a layers, \a dim; 0 = not known yet). Throws pl::InputError naming the file and array.
void checkCaptionAgainst(const InsLenCaption& c, int64_t vocab, int layers, int dim);

} // namespace pl::hiddenstate
