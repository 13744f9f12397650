# Install layout and the Debian package (cpack -G DEB from the build folder).
#   /usr/bin/paperlab
#   /usr/lib/<triplet>/paperlab/libpaperlab_{core,figure,widgets,vtkviews,sdk}.so   (private, RUNPATH $ORIGIN)
#   /usr/lib/<triplet>/paperlab/plugins/paperlab_<id>.so
#   /usr/share/applications, metainfo, icons, mime
#   /usr/share/paperlab/examples/<panel-id>/...  (File > Open Example; resources/examples)
include(GNUInstallDirs)
set(PAPERLAB_PRIVATE_LIBDIR ${CMAKE_INSTALL_LIBDIR}/paperlab)

foreach(lib paperlab_core paperlab_figure paperlab_widgets paperlab_vtkviews paperlab_sdk)
  set_target_properties(${lib} PROPERTIES INSTALL_RPATH "$ORIGIN")
  install(TARGETS ${lib} LIBRARY DESTINATION ${PAPERLAB_PRIVATE_LIBDIR} NAMELINK_SKIP)
endforeach()
get_property(plugin_targets GLOBAL PROPERTY PAPERLAB_PLUGIN_TARGETS)
foreach(p ${plugin_targets})
  set_target_properties(${p} PROPERTIES INSTALL_RPATH "$ORIGIN/..")
endforeach()

set(linux ${PROJECT_SOURCE_DIR}/packaging/linux)
install(FILES ${linux}/org.paperlab.paperlab.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES ${linux}/org.paperlab.paperlab.metainfo.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
install(FILES ${linux}/paperlab-mime.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/mime/packages)
install(FILES ${linux}/icons/org.paperlab.paperlab.svg DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
foreach(size 16 32 48 64 128 256)
  install(FILES ${linux}/icons/org.paperlab.paperlab-${size}.png
          DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/${size}x${size}/apps
          RENAME org.paperlab.paperlab.png)
endforeach()

# Example inputs for users, with their sources and terms (README.md); the generator stays behind.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/resources/examples/ DESTINATION ${CMAKE_INSTALL_DATADIR}/paperlab/examples
        PATTERN "*.py" EXCLUDE)

set(CPACK_PACKAGE_NAME paperlab)
set(CPACK_PACKAGE_VENDOR "The Paperlab developers")
set(CPACK_PACKAGE_CONTACT "Paperlab developers <dev@paperlab.org>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Desktop workbench for exploring research papers")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${CMAKE_BINARY_DIR}/lib)
# Runtime pieces that are loaded, not linked: Qt's platform plugins and fonts.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "qt6-qpa-plugins, fonts-dejavu-core")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "xvfb, lrslib")
include(CPack)
