// The panel's "Check on seeds" action (PanelWidget + RobustnessCheck) on behavioral-abstraction:
// every claim row gets "k of K" with the Wilson interval in its tooltip, a screenshot is written
// (mainwindow-robustness.png in the working directory), and a parameter change clears the column.
#include "gui/ClaimsTable.h"
#include "gui/PanelWidget.h"
#include "sdk/JobRunner.h"
#include "sdk/PanelModel.h"
#include "sdk/PluginManager.h"
#include "sdk/RobustnessCheck.h"
#include "widgets/vtk/VtkViews.h"

#include <QApplication>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QtTest>

using pl::gui::ClaimsTable;
using pl::gui::PanelWidget;

class TestRobustnessGui : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QApplication::setFont(QFont(QStringLiteral("DejaVu Sans"), 9));
        pl::gui::registerVtkViews();
        m_pm.scan();
    }
    void checkOnSeedsFillsTheClaimsTable() {
        const pl::PluginInfo* info = m_pm.info(QStringLiteral("behavioral-abstraction"));
        if (!info)
            QSKIP("behavioral-abstraction not built");
        QString err;
        pl::IPaperPlugin* plugin = m_pm.load(info->id, &err);
        QVERIFY2(plugin, qPrintable(err));
        pl::JobRunner runner;
        auto* model = new pl::PanelModel(*info, plugin, &runner); // owned by the panel
        PanelWidget panel(model);
        panel.resize(1400, 900);
        panel.show();
        QSignalSpy shown(&panel, &PanelWidget::resultShown);
        model->requestRun();
        QVERIFY(shown.wait(120000));
        auto* seeds = panel.findChild<QSpinBox*>(QStringLiteral("RobustnessSeeds"));
        auto* button = panel.findChild<QPushButton*>(QStringLiteral("RobustnessButton"));
        QVERIFY(seeds && button);
        seeds->setValue(3);
        QSignalSpy done(panel.robustness(), &pl::RobustnessCheck::finished);
        button->click();
        QVERIFY(done.wait(120000));
        ClaimsTable* table = panel.claimsTable();
        QVERIFY(table->rowCount() > 0);
        for (int r = 0; r < table->rowCount(); ++r) {
            const QTableWidgetItem* cell = table->item(r, ClaimsTable::SeedsColumn);
            QVERIFY(cell);
            QVERIFY2(cell->text().endsWith(QStringLiteral(" of 3")), qPrintable(cell->text()));
            QVERIFY(cell->toolTip().contains(QStringLiteral("Wilson")));
        }
        QVERIFY(
            panel.grab().save(QDir::current().absoluteFilePath(QStringLiteral("mainwindow-robustness.png"))));
        pl::ParamSet p = model->params();
        p.setText("gamma", "0.8");
        model->setParams(p);
        model->requestRun();
        QTRY_VERIFY_WITH_TIMEOUT(table->item(0, ClaimsTable::SeedsColumn) &&
                                     table->item(0, ClaimsTable::SeedsColumn)->text().isEmpty(),
                                 60000);
    }

private:
    pl::PluginManager m_pm;
};

QTEST_MAIN(TestRobustnessGui)
#include "tst_robustness_gui.moc"
