#pragma once
/// Dense and tile-sparse decode attention over shared (MLA-style) keys. Rows of Q are query rows
/// (head x MTP token), K and V hold the shared keys and values. Tiles are (head group x key block):
/// groups of `groupRows` consecutive rows and blocks of `blockKeys` consecutive keys (the last group
/// and block may be shorter). Pure functions; thread-safe.

#include <Eigen/Dense>

#include <cstdint>
#include <functional>
#include <vector>

namespace pl::tilesparse {

using Mat = Eigen::MatrixXd;

/// The tile grid of one attention call.
struct TileGrid {
    int rows = 0;       ///< query rows R
    int keys = 0;       ///< context tokens N
    int groupRows = 4;  ///< rows per head group G_h
    int blockKeys = 16; ///< keys per block B_k
    int groups() const { return (rows + groupRows - 1) / groupRows; }
    int blocks() const { return (keys + blockKeys - 1) / blockKeys; }
    int tiles() const { return groups() * blocks(); }
    int groupOf(int row) const { return row / groupRows; }
    int blockBegin(int b) const { return b * blockKeys; }
    int blockEnd(int b) const { return std::min(keys, (b + 1) * blockKeys); }
};

/// A selection of tiles: groups x blocks, row-major, 1 = computed.
struct TileMask {
    int groups = 0;
    int blocks = 0;
    std::vector<uint8_t> on;
    TileMask() = default;
    TileMask(int g, int b) : groups(g), blocks(b), on(size_t(g) * size_t(b), 0) {}
    bool at(int g, int b) const { return on[size_t(g) * size_t(blocks) + size_t(b)] != 0; }
    void set(int g, int b, bool v = true) { on[size_t(g) * size_t(blocks) + size_t(b)] = v ? 1 : 0; }
    int count() const;
    /// Distinct key blocks that at least one group computes (blocks fetched from memory).
    int fetchedBlocks() const;
};

/// Called between chunks of work (cancellation checks); may throw.
using Poll = std::function<void()>;

/// Dense attention O = softmax(Q K^T / sqrt(d)) V. When probs is given it receives the R x N
/// attention probabilities.
Mat denseAttention(const Mat& Q, const Mat& K, const Mat& V, Mat* probs = nullptr, const Poll& poll = {});

/// The R x N attention probabilities softmax(Q K^T / sqrt(d)) alone (no value product).
Mat attentionProbs(const Mat& Q, const Mat& K, const Poll& poll = {});

/// Exact attention restricted to the selected tiles: per group, the selected blocks are gathered
/// into contiguous buffers and the softmax is renormalised over the selected keys only. A group
/// with no selected block gets a zero output.
Mat sparseAttention(const Mat& Q, const Mat& K, const Mat& V, const TileGrid& grid, const TileMask& mask,
                    const Poll& poll = {});

/// Sum of probabilities per (row, block): R x N_b.
Mat rowBlockMass(const Mat& probs, const TileGrid& grid);
/// Sum of probabilities per tile (group, block): G x N_b (sums over the group's rows).
Mat tileMass(const Mat& rowBlock, const TileGrid& grid);
/// Retained mass per row: sum of the row's probabilities on its group's selected blocks.
Eigen::VectorXd retainedMassPerRow(const Mat& rowBlock, const TileGrid& grid, const TileMask& mask);
/// Mean over rows of ||o_r - o^_r|| / ||o_r|| (rows with ||o_r|| = 0 are skipped).
double relativeError(const Mat& exact, const Mat& approx);

} // namespace pl::tilesparse
