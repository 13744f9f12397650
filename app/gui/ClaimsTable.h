#pragma once
/// The claim checks of one result: statement, observed value, threshold and verdict (a coloured
/// cell with an icon and the words "holds" / "fails"). Failed claims are never hidden or sorted
/// away; the table keeps the order of the result. Recolours itself when the theme changes.
/// GUI thread.

#include "core/ResultDocument.h"

#include <QTableWidget>
#include <vector>

namespace pl::gui {

class ClaimsTable : public QTableWidget {
    Q_OBJECT
public:
    enum Column { StatementColumn, ObservedColumn, ThresholdColumn, VerdictColumn, ColumnCount };

    explicit ClaimsTable(QWidget* parent = nullptr);

    /// Shows these claims (replacing the previous ones).
    void setClaims(const std::vector<Claim>& claims);
    /// Removes every row; shows "no result yet".
    void clearClaims();
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

    std::vector<Claim> m_claims;
    bool m_hasResult = false;
};

} // namespace pl::gui
