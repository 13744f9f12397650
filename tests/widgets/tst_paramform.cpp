// ParamForm: generated editors, value round trip, slider <-> spin sync (linear and log),
// reset, lock/hide, signals, accessibility.

#include "widgets/NumberSpinBox.h"
#include "widgets/ParamForm.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGroupBox>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSlider>
#include <QToolButton>
#include <QtTest>

#include <cmath>

using namespace pl::gui;
using pl::ParamSpec;

namespace {

std::vector<ParamSpec> specs() {
    std::vector<ParamSpec> s;
    s.push_back(ParamSpec::integer("n", "Players", 2, 50, 5, "Number of players"));
    s.push_back(ParamSpec::real("lr", "Learning rate", 1e-5, 1.0, 1e-2, "Step size of the update", "", true));
    s.push_back(ParamSpec::real("temp", "Temperature", 0.0, 2.0, 0.5, "Softmax temperature", "K"));
    s.push_back(ParamSpec::boolean("warm", "Warm start", true, "Reuse the previous solution"));
    s.push_back(ParamSpec::choice("method", "Method", {"ssn", "ftrl", "hybrid"}, "hybrid", "Solver"));
    s.push_back(ParamSpec::integer("seed", "Seed", 0, 4000000000000LL, 42, "Random seed"));
    s[0].group = "Game";
    s[4].group = "Game";
    s[1].group = "Solver";
    s[2].group = "Solver";
    return s;
}

} // namespace

class TestParamForm : public QObject {
    Q_OBJECT
private slots:
    void buildsEditorsAndGroups();
    void roundTripValues();
    void logSliderMapping();
    void linearSliderMapping();
    void sliderAndSpinStayInSync();
    void resetRowAndAll();
    void lockAndHide();
    void tooltipsAndAccessibility();
    void spinBoxFormatting();
};

void TestParamForm::buildsEditorsAndGroups() {
    ParamForm form(specs());
    QVERIFY(qobject_cast<NumberSpinBox*>(form.editor(QStringLiteral("n"))));
    QVERIFY(qobject_cast<QCheckBox*>(form.editor(QStringLiteral("warm"))));
    QVERIFY(qobject_cast<QComboBox*>(form.editor(QStringLiteral("method"))));
    QVERIFY(form.slider(QStringLiteral("lr")));
    QVERIFY(!form.slider(QStringLiteral("seed")));             // effectively unbounded: spin box only
    QCOMPARE(form.slider(QStringLiteral("n"))->maximum(), 48); // one position per integer
    QCOMPARE(form.slider(QStringLiteral("lr"))->maximum(), ParamForm::SliderSteps);
    QStringList titles;
    for (QGroupBox* g : form.findChildren<QGroupBox*>())
        titles << g->title();
    QCOMPARE(titles, (QStringList{"Game", "Solver", "General"}));
    QVERIFY(!form.editor(QStringLiteral("nope")));
    QCOMPARE(static_cast<QDoubleSpinBox*>(form.editor(QStringLiteral("temp")))->suffix(),
             QStringLiteral(" K"));
}

void TestParamForm::roundTripValues() {
    ParamForm form(specs());
    QCOMPARE(form.values(), pl::ParamSet(specs())); // defaults
    pl::ParamSet set(specs());
    set.set("n", int64_t(17));
    set.set("lr", 3.5e-4);
    set.set("temp", 1.25);
    set.set("warm", false);
    set.set("method", std::string("ftrl"));
    set.set("seed", int64_t(3000000000LL));
    QSignalSpy spy(&form, &ParamForm::valueChanged);
    form.setValues(set);
    QCOMPARE(spy.count(), 0); // programmatic: silent
    const pl::ParamSet back = form.values();
    QVERIFY(back == set);
    QCOMPARE(back.getDouble("lr"), 3.5e-4);
    QCOMPARE(back.getInt("seed"), int64_t(3000000000LL));
    QCOMPARE(form.slider(QStringLiteral("n"))->value(), 15);
    // setValue validates.
    QVERIFY(!form.setValue(QStringLiteral("n"), int64_t(99)));
    QVERIFY(!form.setValue(QStringLiteral("unknown"), 1.0));
    QVERIFY(form.setValue(QStringLiteral("method"), std::string("ssn")));
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).toString(), QStringLiteral("method"));
    QCOMPARE(spy.at(0).at(1).toBool(), false);
}

void TestParamForm::logSliderMapping() {
    const ParamSpec lr = specs()[1];
    QCOMPARE(ParamForm::sliderSteps(lr), 1000);
    QCOMPARE(ParamForm::sliderPosition(lr, 1e-5), 0);
    QCOMPARE(ParamForm::sliderPosition(lr, 1.0), 1000);
    QCOMPARE(ParamForm::sliderPosition(lr, 1e-3), 400); // 2 of 5 decades
    QCOMPARE(ParamForm::sliderPosition(lr, 1e-1), 800);
    QCOMPARE(ParamForm::sliderValue(lr, 400), 1e-3);
    QCOMPARE(ParamForm::sliderValue(lr, 0), 1e-5);
    QCOMPARE(ParamForm::sliderValue(lr, 1000), 1.0);
    // Equal slider steps are equal ratios; values are rounded to 3 significant digits.
    const double a = ParamForm::sliderValue(lr, 500), b = ParamForm::sliderValue(lr, 700);
    QVERIFY(std::fabs(a - 0.00316) < 1e-12);
    QVERIFY(std::fabs(b - 0.0316) < 1e-12);
    for (int pos = 0; pos <= 1000; pos += 37)
        QVERIFY(std::abs(ParamForm::sliderPosition(lr, ParamForm::sliderValue(lr, pos)) - pos) <= 1);
}

void TestParamForm::linearSliderMapping() {
    const ParamSpec t = specs()[2];
    QCOMPARE(ParamForm::sliderPosition(t, 1.0), 500);
    QCOMPARE(ParamForm::sliderValue(t, 300), 0.6); // no 0.6000000000000001
    const ParamSpec n = specs()[0];
    QCOMPARE(ParamForm::sliderValue(n, 3), 5.0);
    QCOMPARE(ParamForm::sliderPosition(n, 50), 48);
    QCOMPARE(ParamForm::sliderSteps(specs()[5]), 0);
}

void TestParamForm::sliderAndSpinStayInSync() {
    ParamForm form(specs());
    QSignalSpy spy(&form, &ParamForm::valueChanged);
    auto* spin = static_cast<QDoubleSpinBox*>(form.editor(QStringLiteral("lr")));
    QSlider* slider = form.slider(QStringLiteral("lr"));
    QCOMPARE(slider->value(), 600); // default 1e-2: 3 of 5 decades
    slider->setValue(500);
    QCOMPARE(spin->value(), 0.00316);
    QCOMPARE(std::get<double>(form.value(QStringLiteral("lr"))), 0.00316);
    slider->setValue(800);
    QCOMPARE(spin->value(), 0.1);
    QCOMPARE(spy.count(), 2);
    QCOMPARE(spy.last().at(1).toBool(), false); // not dragging (programmatic)
    // Dragging: the flag is true while the slider is down, then a final false on release.
    spy.clear();
    slider->setSliderDown(true);
    slider->setValue(900);
    slider->setSliderDown(false); // emits sliderReleased
    QCOMPARE(spy.count(), 2);
    QCOMPARE(spy.at(0).at(1).toBool(), true);
    QCOMPARE(spy.at(1).at(1).toBool(), false);
    // Spin -> slider.
    spy.clear();
    spin->setValue(1e-4);
    QCOMPARE(slider->value(), 200);
    QCOMPARE(spy.count(), 1);
}

void TestParamForm::resetRowAndAll() {
    ParamForm form(specs());
    QToolButton* reset = form.resetButton(QStringLiteral("temp"));
    QVERIFY(!reset->isEnabled()); // at default
    QVERIFY(form.setValue(QStringLiteral("temp"), 1.5));
    QVERIFY(reset->isEnabled());
    QSignalSpy spy(&form, &ParamForm::valueChanged);
    reset->click();
    QCOMPARE(std::get<double>(form.value(QStringLiteral("temp"))), 0.5);
    QCOMPARE(spy.count(), 1);
    QVERIFY(!reset->isEnabled());
    form.setValue(QStringLiteral("n"), int64_t(9));
    form.setValue(QStringLiteral("warm"), false);
    form.setLocked(QStringLiteral("warm"), true);
    spy.clear();
    form.resetAll();
    QCOMPARE(std::get<int64_t>(form.value(QStringLiteral("n"))), int64_t(5));
    QCOMPARE(std::get<bool>(form.value(QStringLiteral("warm"))), false); // locked: kept
    QCOMPARE(spy.count(), 1);
}

void TestParamForm::lockAndHide() {
    ParamForm form(specs());
    form.setLocked(QStringLiteral("lr"), true);
    QVERIFY(form.isLocked(QStringLiteral("lr")));
    QVERIFY(!form.editor(QStringLiteral("lr"))->isEnabled());
    QVERIFY(!form.slider(QStringLiteral("lr"))->isEnabled());
    form.setLocked(QStringLiteral("lr"), false);
    QVERIFY(form.editor(QStringLiteral("lr"))->isEnabled());
    form.show();
    form.setHidden(QStringLiteral("method"), true);
    QVERIFY(form.isRowHidden(QStringLiteral("method")));
    QVERIFY(!form.editor(QStringLiteral("method"))->isVisible());
    form.setHidden(QStringLiteral("method"), false);
    QVERIFY(form.editor(QStringLiteral("method"))->isVisible());
    QCOMPARE(std::get<std::string>(form.values().values().at("method")), std::string("hybrid"));
}

void TestParamForm::tooltipsAndAccessibility() {
    ParamForm form(specs());
    const QString tip = form.editor(QStringLiteral("temp"))->toolTip();
    QVERIFY(tip.contains(QStringLiteral("Softmax temperature")));
    QVERIFY(tip.contains(QStringLiteral("[0, 2]")));
    QVERIFY(tip.contains(QStringLiteral("Default: 0.5")));
    QCOMPARE(form.editor(QStringLiteral("temp"))->accessibleName(), QStringLiteral("Temperature"));
    QCOMPARE(form.slider(QStringLiteral("temp"))->accessibleName(), QStringLiteral("Temperature slider"));
    QCOMPARE(form.resetButton(QStringLiteral("temp"))->accessibleName(), QStringLiteral("Reset Temperature"));
}

void TestParamForm::spinBoxFormatting() {
    NumberSpinBox box;
    box.setRange(1e-9, 1e9);
    box.setValue(2.5e-7);
    QCOMPARE(box.text(), QStringLiteral("2.5e-07"));
    box.setValue(1500);
    QCOMPARE(box.text(), QStringLiteral("1500"));
    QCOMPARE(box.valueFromText(QStringLiteral("3e-4")), 3e-4);
    QString t = QStringLiteral("1e-");
    int pos = 3;
    QCOMPARE(box.validate(t, pos), QValidator::Intermediate);
    t = QStringLiteral("abc");
    QCOMPARE(box.validate(t, pos), QValidator::Invalid);
    // Exact display: re-reading the text (as on focus-out) never changes the value.
    box.setRange(0, 1);
    box.setValue(0.00123456789);
    QCOMPARE(box.text(), QStringLiteral("0.00123456789"));
    box.interpretText();
    QCOMPARE(box.value(), 0.00123456789);
    box.setValue(1e-20);
    QCOMPARE(box.value(), 1e-20);
    box.setRange(1e-9, 1e9);
    box.setLogStepping(true);
    box.setValue(1e-3);
    box.stepBy(10); // one decade
    QCOMPARE(box.value(), 1e-2);
}

QTEST_MAIN(TestParamForm)
#include "tst_paramform.moc"
