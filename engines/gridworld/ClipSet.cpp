#include "gridworld/ClipSet.h"

#include <algorithm>

namespace pl::gridworld {

const char* actionName(int action) {
    static const char* const kNames[] = {"right", "left", "up", "down", "stay"};
    return action >= 0 && action < kActionCount ? kNames[action] : "unknown";
}

int ClipSet::clipOfTransition(int r) const {
    // transition rows of clip i are [start_i - i, start_{i+1} - i - 1)
    int lo = 0, hi = clips() - 1;
    while (lo < hi) {
        const int mid = (lo + hi + 1) / 2;
        if (start[size_t(mid)] - mid <= r)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

int ClipSet::frameOfTransition(int r) const {
    return r + clipOfTransition(r);
}

} // namespace pl::gridworld
