#pragma once
/// One recommender's interaction stream for the care-recsets panel: per row the user, step, true
/// item and the candidate list with its scores, min–max normalised per row (a constant row → 1) and
/// stored as "needs" 1 − ŝ in ascending order (ties keep the list order), so that the capped set
/// C_λ is a prefix of the list. Rows may share a list (generated streams). The streamed reader takes
/// `user_idx,step,true_item,candidate_items,scores[,loss]` with lists as "[3, 17, 42]" or space
/// separated. Immutable once built; any thread; no Qt.

#include <cstdint>
#include <istream>
#include <limits>
#include <string>
#include <vector>

namespace pl::streams {

/// A ranked candidate list: items best first and their needs 1 − ŝ (ascending).
struct CandidateList {
    std::vector<int64_t> items;
    std::vector<double> needs;
};

/// One interaction.
struct RecRow {
    int64_t user = 0, step = 0, trueItem = 0;
    int32_t list = 0;  ///< index into RecStream::lists
    int32_t rank = -1; ///< position of the true item in the list (−1: not a candidate)
    double weight = 1; ///< the file's loss column (1 when absent), in [0, 1]
    int64_t line = 0;  ///< 1-based file line (0 for generated rows)
};

struct RecStream {
    std::vector<CandidateList> lists;
    std::vector<RecRow> rows;
    int64_t missingTrue = 0; ///< rows whose true item is no candidate
    bool hasLoss = false;

    /// Need of row t's true item with sets capped at \a maxSize (infinity when it cannot enter).
    double needTrue(size_t t, int maxSize) const {
        const RecRow& r = rows[t];
        return r.rank >= 0 && r.rank < maxSize ? lists[size_t(r.list)].needs[size_t(r.rank)]
                                               : std::numeric_limits<double>::infinity();
    }
    /// |C_λ| of row t: min(maxSize, #{needs ≤ λ}).
    int setSize(size_t t, double lambda, int maxSize) const;
};

/// Ranks \a items by min–max normalised \a scores (stable, best first) into a CandidateList; returns
/// the rank of \a trueItem (−1 when absent).
int32_t rankCandidates(const std::vector<int64_t>& items, const std::vector<double>& scores, int64_t trueItem,
                       CandidateList& out);

/// Reads a whole CARE stream from \a in (\a name in errors). Throws pl::InputError (file, line,
/// reason): wrong field count, list lengths differ, non-finite score, non-integer item, loss outside
/// [0, 1], step not rising per user, no rows.
RecStream readRecStream(std::istream& in, const std::string& name);

} // namespace pl::streams
