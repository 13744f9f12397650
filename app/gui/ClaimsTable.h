#pragma once
/// The claim checks of one result: statement, observed value, threshold and verdict (a coloured
/// cell with an icon and the words "holds" / "fails"). Failed claims are never hidden or sorted
/// away; the table keeps the order of the result. Recolours itself when the theme changes.
/// GUI thread.

#include "core/ResultDocument.h"
#include "sdk/ClaimRobustness.h"

#include <QTableWidget>
#include <vector>

namespace pl::gui {

class ClaimsTable : public QTableWidget {
    Q_OBJECT
public:
    enum Column { StatementColumn, ObservedColumn, ThresholdColumn, VerdictColumn, SeedsColumn, ColumnCount };

    explicit ClaimsTable(QWidget* parent = nullptr);

    /// Shows these claims (replacing the previous ones).
    void setClaims(const std::vector<Claim>& claims);
    /// Removes every row; shows "no result yet".
    void clearClaims();
    /// Fills the "On seeds" column from a robustness check ("7 of 10", the Wilson interval in the
    /// tooltip), matching claims by id; claims the check did not see show "–".
    void setRobustness(const std::vector<ClaimTally>& tallies, int seeds);
    /// Empties the "On seeds" column (the parameters changed since the check).
    void clearRobustness();
    bool hasRobustness() const { return !m_tallies.empty(); }
    int claimCount() const { return int(m_claims.size()); }
    int holdingCount() const;
    /// "3 of 4 claims hold", "no claims checked" or "no result yet".
    QString summary() const;
    /// Formats a number for the table: up to 4 significant digits, scientific when needed.
    static QString formatNumber(double v);

signals:
    /// Emitted after setClaims/clearClaims, with summary().
    void summaryChanged(const QString& summary);

private:
    void recolour();
    void fillSeedsColumn();

    std::vector<Claim> m_claims;
    std::vector<ClaimTally> m_tallies;
    int m_seeds = 0;
    bool m_hasResult = false;
};

} // namespace pl::gui
