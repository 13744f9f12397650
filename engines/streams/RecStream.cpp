#include "streams/RecStream.h"

#include "core/Errors.h"
#include "streams/StreamCsv.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <unordered_map>

namespace pl::streams {

int RecStream::setSize(size_t t, double lambda, int maxSize) const {
    const std::vector<double>& n = lists[size_t(rows[t].list)].needs;
    const auto end = n.begin() + std::min<ptrdiff_t>(ptrdiff_t(n.size()), maxSize);
    return int(std::upper_bound(n.begin(), end, lambda) - n.begin());
}

int32_t rankCandidates(const std::vector<int64_t>& items, const std::vector<double>& scores, int64_t trueItem,
                       CandidateList& out) {
    const size_t n = items.size();
    double lo = 0, hi = 0;
    if (n) {
        lo = *std::min_element(scores.begin(), scores.end());
        hi = *std::max_element(scores.begin(), scores.end());
    }
    thread_local std::vector<double> need;
    thread_local std::vector<size_t> order;
    need.resize(n);
    for (size_t i = 0; i < n; ++i)
        need[i] = hi > lo ? 1.0 - (scores[i] - lo) / (hi - lo) : 0.0;
    order.resize(n);
    std::iota(order.begin(), order.end(), size_t(0));
    if (n <= 64) { // insertion sort: stable, and cheaper than stable_sort's buffer for short lists
        for (size_t i = 1; i < n; ++i) {
            const size_t v = order[i];
            size_t j = i;
            for (; j > 0 && need[v] < need[order[j - 1]]; --j)
                order[j] = order[j - 1];
            order[j] = v;
        }
    } else {
        std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return need[a] < need[b]; });
    }
    out.items.resize(n);
    out.needs.resize(n);
    int32_t rank = -1;
    for (size_t r = 0; r < n; ++r) {
        out.items[r] = items[order[r]];
        out.needs[r] = need[order[r]];
        if (rank < 0 && out.items[r] == trueItem)
            rank = int32_t(r);
    }
    return rank;
}

namespace {

int64_t intField(StreamCsvReader& csv, const std::string& s, const char* what, int64_t col) {
    int64_t v = 0;
    if (!parseInt64(s, &v))
        csv.fail(std::string(what) + " '" + s + "' is not an integer", col);
    return v;
}

} // namespace

RecStream readRecStream(std::istream& in, const std::string& name) {
    StreamCsvReader csv(in, name);
    RecStream out;
    std::vector<std::string> f;
    std::vector<double> itemsD, scores;
    std::vector<int64_t> items;
    std::unordered_map<int64_t, int64_t> lastStep;
    bool first = true;
    size_t width = 0;
    while (csv.next(f)) {
        int64_t probe = 0;
        if (first) {
            first = false;
            if (!f.empty() && !parseInt64(f[0], &probe))
                continue; // header
        }
        if (f.size() != 5 && f.size() != 6)
            csv.fail("expected user_idx,step,true_item,candidate_items,scores[,loss], found " +
                     std::to_string(f.size()) + " fields");
        if (width == 0)
            width = f.size();
        else if (f.size() != width)
            csv.fail("the loss column is present on some rows only");
        RecRow row;
        row.line = csv.line();
        row.user = intField(csv, f[0], "user_idx", 1);
        row.step = intField(csv, f[1], "step", 2);
        row.trueItem = intField(csv, f[2], "true_item", 3);
        if (!parseNumberList(f[3], itemsD))
            csv.fail("candidate_items is not a list of item ids", 4);
        if (!parseNumberList(f[4], scores))
            csv.fail("scores is not a list of numbers", 5);
        if (itemsD.size() != scores.size())
            csv.fail("list lengths differ: " + std::to_string(itemsD.size()) + " candidates, " +
                         std::to_string(scores.size()) + " scores",
                     5);
        items.resize(itemsD.size());
        for (size_t i = 0; i < itemsD.size(); ++i) {
            if (!(std::abs(itemsD[i]) < 9e15) || itemsD[i] != std::floor(itemsD[i]))
                csv.fail("candidate item " + std::to_string(i + 1) + " is not an integer id", 4);
            items[i] = int64_t(itemsD[i]);
            if (!std::isfinite(scores[i]))
                csv.fail("non-finite score at position " + std::to_string(i + 1), 5);
        }
        if (width == 6) {
            if (!parseDouble(f[5], &row.weight) || !(row.weight >= 0 && row.weight <= 1))
                csv.fail("loss '" + f[5] + "' is not a number in [0, 1]", 6);
            out.hasLoss = true;
        }
        auto [it, fresh] = lastStep.try_emplace(row.user, row.step);
        if (!fresh) {
            if (row.step <= it->second)
                csv.fail("step " + std::to_string(row.step) + " does not rise for user " +
                             std::to_string(row.user) + " (previous " + std::to_string(it->second) + ")",
                         2);
            it->second = row.step;
        }
        CandidateList list;
        row.rank = rankCandidates(items, scores, row.trueItem, list);
        out.missingTrue += row.rank < 0;
        row.list = int32_t(out.lists.size());
        if (out.lists.size() >= size_t(std::numeric_limits<int32_t>::max()))
            csv.fail("too many rows");
        out.lists.push_back(std::move(list));
        out.rows.push_back(row);
    }
    if (out.rows.empty())
        throw InputError(name, "no interaction rows", csv.line());
    return out;
}

} // namespace pl::streams
