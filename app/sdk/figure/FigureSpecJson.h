#pragma once
/// JSON form of a FigureSpec (the "export data" JSON, also usable to store and replay figures).
/// Non-finite numbers are written as null and read back as NaN. Pure functions, any thread.

#include "sdk/figure/FigureSpec.h"

#include <QJsonObject>

namespace pl::gui {

class FigureSpecJson {
public:
    /// Format version written as "format": "paperlab-figure/1".
    static QString formatTag();
    /// Every field of \a spec.
    static QJsonObject toJson(const FigureSpec& spec);
    /// Reads what toJson() wrote. Unknown keys are ignored, missing keys keep their defaults.
    /// Returns false with a message for wrong types, unknown enum names or inconsistent sizes.
    static bool fromJson(const QJsonObject& json, FigureSpec* out, QString* error = nullptr);
};

} // namespace pl::gui
