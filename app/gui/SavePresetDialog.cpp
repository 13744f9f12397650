#include "SavePresetDialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace pl::gui {

SavePresetDialog::SavePresetDialog(const std::vector<ParamSpec>& specs, QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Save Preset"));
    m_name = new QLineEdit(this);
    m_name->setAccessibleName(tr("Preset name"));
    m_description = new QLineEdit(this);
    m_description->setAccessibleName(tr("Preset description"));
    m_description->setPlaceholderText(tr("What this preset shows (optional)"));
    auto* form = new QFormLayout;
    form->addRow(tr("&Name:"), m_name);
    form->addRow(tr("&Description:"), m_description);

    auto* hint =
        new QLabel(tr("For a class: lock controls (shown, not editable) or hide them while this preset "
                      "is selected."),
                   this);
    hint->setWordWrap(true);
    m_table = new QTableWidget(int(specs.size()), 3, this);
    m_table->setAccessibleName(tr("Locked and hidden controls"));
    m_table->setHorizontalHeaderLabels({tr("Parameter"), tr("Lock"), tr("Hide")});
    m_table->verticalHeader()->setVisible(false);
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    for (int r = 0; r < int(specs.size()); ++r) {
        const ParamSpec& s = specs[size_t(r)];
        auto* item = new QTableWidgetItem(QString::fromStdString(s.label.empty() ? s.key : s.label));
        item->setData(Qt::UserRole, QString::fromStdString(s.key));
        item->setToolTip(QString::fromStdString(s.key));
        m_table->setItem(r, 0, item);
        for (int c : {1, 2}) {
            auto* check = new QTableWidgetItem;
            check->setFlags(Qt::ItemIsUserCheckable | Qt::ItemIsEnabled | Qt::ItemIsSelectable);
            check->setCheckState(Qt::Unchecked);
            m_table->setItem(r, c, check);
        }
    }
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);
    QPushButton* save = buttons->button(QDialogButtonBox::Save);
    save->setEnabled(false);
    connect(m_name, &QLineEdit::textChanged, this,
            [save](const QString& t) { save->setEnabled(!t.trimmed().isEmpty()); });
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(hint);
    layout->addWidget(m_table, 1);
    layout->addWidget(buttons);
    resize(sizeHint().width() + 100, 480);
}

QString SavePresetDialog::name() const {
    return m_name->text().trimmed();
}
QString SavePresetDialog::description() const {
    return m_description->text().trimmed();
}
QStringList SavePresetDialog::lockedKeys() const {
    return checkedKeys(1);
}
QStringList SavePresetDialog::hiddenKeys() const {
    return checkedKeys(2);
}

QStringList SavePresetDialog::checkedKeys(int column) const {
    QStringList keys;
    for (int r = 0; r < m_table->rowCount(); ++r)
        if (m_table->item(r, column)->checkState() == Qt::Checked)
            keys << m_table->item(r, 0)->data(Qt::UserRole).toString();
    return keys;
}

} // namespace pl::gui
