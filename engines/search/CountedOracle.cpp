#include "CountedOracle.h"

#include <algorithm>
#include <limits>

namespace pl::search {

bool CountedOracle::tryCharge(int64_t n) {
    if (n < 0 || (m_cap >= 0 && m_calls + n > m_cap))
        return false;
    m_calls += n;
    return true;
}

int64_t CountedOracle::grant(int64_t want) const {
    return std::clamp<int64_t>(want, 0, remaining());
}

int64_t CountedOracle::remaining() const {
    if (m_cap < 0)
        return std::numeric_limits<int64_t>::max() / 4;
    return std::max<int64_t>(0, m_cap - m_calls);
}

} // namespace pl::search
