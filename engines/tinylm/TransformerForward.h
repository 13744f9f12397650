#pragma once
/// The transformer's forward pass over a batch of new rows against a KV cache, with an arbitrary
/// mask: each row reads the cache positions its view lists (all of them without a view), the
/// earlier rows of the batch it names, and itself, in position order. Every row is computed with
/// the same row-by-row arithmetic whatever the batch, so a row gives bit for bit the logits it
/// gives alone with the same visible keys (the losslessness tests rely on it).
/// Pure functions of their arguments; one thread per call.
#include "tinylm/KvCache.h"
#include "tinylm/TinyModel.h"

#include <vector>

namespace pl::tinylm {

/// One new row: its token, its position, what it reads.
struct RowSpec {
    int token = 0;
    int pos = 0;
    const KvView* view = nullptr; ///< nullptr: the whole cache
    std::vector<int> batchKeys;   ///< earlier rows of this batch it reads (ascending; itself is implied)
};

struct ForwardOptions {
    std::vector<char> skipAttention; ///< per layer: skip that attention sublayer (empty: none)
    KvView* observer = nullptr;      ///< gets observe() for the rows flagged in observeRows
    std::vector<char> observeRows;
    int maskLayer = -1; ///< record the keys read at this layer and head (-1: none) into maskOut
    int maskHead = 0;
    std::vector<std::vector<int>>* maskOut = nullptr; ///< per row: cache positions, then len + batch row
};

struct BatchOutput {
    Mat logits;               ///< rows x V
    Mat hidden;               ///< rows x d, the final residual stream (before N_f)
    std::vector<RowMat> k, v; ///< per layer, rows x d
};

/// Runs the rows through the model. Positions must be < maxPositions() (caller checks).
BatchOutput forwardBatch(const TransformerModel& m, const KvCache& cache, const std::vector<RowSpec>& rows,
                         const ForwardOptions& opt = {});
/// Appends row \a r of a batch to the cache.
void commitRow(KvCache& cache, const BatchOutput& out, int r);
/// Index of the largest entry of row r (lowest index on ties).
int argmaxRow(const Mat& logits, int r);
/// LayerNorm of each row (eps 1e-5, biased variance) with weight and bias.
Mat layerNormRows(const Mat& x, const RowVec& w, const RowVec& b);
/// X W computed row by row (batch-independent rounding).
Mat rowTimes(const Mat& x, const Mat& w);

} // namespace pl::tinylm
