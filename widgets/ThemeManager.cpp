#include "ThemeManager.h"

namespace pl::gui {

ThemeManager::ThemeManager(QObject* parent) : QObject(parent) {}

ThemeManager* ThemeManager::instance() {
    static ThemeManager* s_instance = new ThemeManager();
    return s_instance;
}

} // namespace pl::gui
