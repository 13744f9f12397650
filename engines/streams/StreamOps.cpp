#include "streams/StreamOps.h"

#include "core/Errors.h"
#include "streams/KeyedHash.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

namespace pl::streams {

double StatisticFn::operator()(double v) const {
    double f = 0;
    if (v > 0) {
        switch (kind) {
        case StatisticKind::Cardinality:
            f = 1;
            break;
        case StatisticKind::Sum:
            f = v;
            break;
        case StatisticKind::Lp:
            f = std::pow(v, p);
            break;
        case StatisticKind::Softcap:
            f = -std::expm1(-v / scale);
            break;
        }
    }
    return cap > 0 ? std::min(f, cap) : f;
}

double StatisticFn::bound() const {
    double b = std::numeric_limits<double>::infinity();
    if (kind == StatisticKind::Cardinality || kind == StatisticKind::Softcap)
        b = 1;
    else if (kind == StatisticKind::Lp && p == 0)
        b = 1;
    return cap > 0 ? std::min(b, cap) : b;
}

StatisticKind statisticFromName(const std::string& name) {
    if (name == "cardinality")
        return StatisticKind::Cardinality;
    if (name == "sum")
        return StatisticKind::Sum;
    if (name == "lp")
        return StatisticKind::Lp;
    if (name == "softcap")
        return StatisticKind::Softcap;
    throw UsageError("unknown statistic '" + name + "' (cardinality, sum, lp or softcap)");
}

OpStreamReader::OpStreamReader(std::istream& in, std::string name) : m_csv(in, std::move(name)) {}

bool OpStreamReader::next(StreamOp& op) {
    while (m_csv.next(m_fields)) {
        int64_t t = 0;
        if (m_first) {
            m_first = false;
            if (!m_fields.empty() && !parseInt64(m_fields[0], &t))
                continue; // header row
        }
        if (m_fields.size() != 4)
            m_csv.fail("expected 4 fields t,op,key,delta, found " + std::to_string(m_fields.size()));
        if (!parseInt64(m_fields[0], &t))
            m_csv.fail("t '" + m_fields[0] + "' is not an integer", 1);
        if (t < m_lastT)
            m_csv.fail("t decreases (" + std::to_string(t) + " after " + std::to_string(m_lastT) + ")", 1);
        m_lastT = t;
        std::string o = m_fields[1];
        std::transform(o.begin(), o.end(), o.begin(), [](unsigned char c) { return char(std::tolower(c)); });
        if (o != "inc" && o != "reset")
            m_csv.fail("unknown op '" + m_fields[1] + "' (inc or reset)", 2);
        if (m_fields[2].empty())
            m_csv.fail("empty key", 3);
        op.t = t;
        op.reset = o == "reset";
        op.key = keyId(m_fields[2]);
        op.delta = 0;
        if (op.reset) {
            double d = 0;
            if (!m_fields[3].empty() && (!parseDouble(m_fields[3], &d) || d != 0))
                m_csv.fail("a reset takes no delta (leave it empty)", 4);
            return true;
        }
        if (!parseDouble(m_fields[3], &op.delta) || !std::isfinite(op.delta))
            m_csv.fail("delta '" + m_fields[3] + "' is not a finite number", 4);
        if (op.delta < 0)
            m_csv.fail("negative delta: the resettable model has only increments and resets", 4);
        return true;
    }
    return false;
}

} // namespace pl::streams
