#pragma once
/// Asks for the name and description of a user preset and, for teachers, which parameter
/// controls the preset locks or hides for a class. GUI thread.

#include "core/ParamSpec.h"

#include <QDialog>
#include <QStringList>

class QLineEdit;
class QTableWidget;

namespace pl::gui {

class SavePresetDialog : public QDialog {
    Q_OBJECT
public:
    SavePresetDialog(const std::vector<ParamSpec>& specs, QWidget* parent = nullptr);

    QString name() const;
    QString description() const;
    QStringList lockedKeys() const;
    QStringList hiddenKeys() const;

private:
    QStringList checkedKeys(int column) const;
    QLineEdit* m_name;
    QLineEdit* m_description;
    QTableWidget* m_table;
};

} // namespace pl::gui
