# paperlab_add_plugin(ID <panel-id> NAMESPACE <c++ namespace> SOURCES <figure code: <Id>Figures.cpp ...>
#                     LIBS <engine targets> [RESOURCES <files>] [CLASS <Qt plugin class name>] [NO_INSTALL])
# A panel states its engine and figure table once, as `const pl::PanelDefinition& <NAMESPACE>::panel()`
# in its SOURCES (app/sdk/PanelDefinition.h). This function builds
#  - <id>_impl: static, PIC: the SOURCES and the resources (help.md, tours/*.json by default,
#    under ":/<id>/"), linked by the plugin and by tests;
#  - paperlab_<id>: the shared MODULE plugin in build/lib/paperlab/plugins, whose Qt plugin class
#    (<Id>Plugin, e.g. SsnNashPlugin for ssn-nash, with paper.json embedded by Q_PLUGIN_METADATA) is
#    generated here from PaperlabPlugin.cpp.in: no panel writes plugin boilerplate.
# NO_INSTALL (or PAPERLAB_PLUGIN_NO_INSTALL set in the calling scope, as tests/plugins does for
# the template) keeps the plugin out of the install and the packaged panel list.
set(PAPERLAB_PLUGIN_TEMPLATE ${CMAKE_CURRENT_LIST_DIR}/PaperlabPlugin.cpp.in)

# paperlab_plugin_class_name(<id> <out-var>): "ftrl-potential-games" -> "FtrlPotentialGamesPlugin".
function(paperlab_plugin_class_name id out)
  string(REGEX REPLACE "[^A-Za-z0-9]+" ";" words "${id}")
  set(name "")
  foreach(w ${words})
    string(SUBSTRING "${w}" 0 1 first)
    string(SUBSTRING "${w}" 1 -1 rest)
    string(TOUPPER "${first}" first)
    string(APPEND name "${first}${rest}")
  endforeach()
  if(name MATCHES "^[0-9]")
    set(name "Panel${name}")
  endif()
  set(${out} "${name}Plugin" PARENT_SCOPE)
endfunction()

function(paperlab_add_plugin)
  cmake_parse_arguments(P "NO_INSTALL" "ID;NAMESPACE;CLASS" "SOURCES;LIBS;RESOURCES" ${ARGN})
  foreach(required ID NAMESPACE SOURCES)
    if(NOT P_${required})
      message(FATAL_ERROR "paperlab_add_plugin: ${required} is required (plugins/${P_ID})")
    endif()
  endforeach()
  if(P_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "paperlab_add_plugin(${P_ID}): unknown arguments ${P_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/paper.json)
    message(FATAL_ERROR "paperlab_add_plugin(${P_ID}): no paper.json in ${CMAKE_CURRENT_SOURCE_DIR}")
  endif()
  string(REPLACE "-" "_" target_id ${P_ID})
  if(NOT P_CLASS)
    paperlab_plugin_class_name(${P_ID} P_CLASS)
  endif()
  if(NOT P_RESOURCES)
    file(GLOB tours RELATIVE ${CMAKE_CURRENT_SOURCE_DIR} CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/tours/*.json)
    if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/help.md)
      list(APPEND P_RESOURCES help.md)
    endif()
    list(APPEND P_RESOURCES ${tours})
  endif()

  add_library(${target_id}_impl STATIC ${P_SOURCES})
  target_link_libraries(${target_id}_impl PUBLIC paperlab_sdk ${P_LIBS} PRIVATE paperlab_warnings)
  target_include_directories(${target_id}_impl PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
  if(P_RESOURCES)
    qt_add_resources(${target_id}_impl "${target_id}_resources" PREFIX "/${P_ID}" FILES ${P_RESOURCES})
  endif()

  # The generated Qt plugin class: <build>/plugins/<id>/<Class>.cpp.
  set(PANEL_ID ${P_ID})
  set(PANEL_CLASS ${P_CLASS})
  set(PANEL_NAMESPACE ${P_NAMESPACE})
  set(PANEL_JSON ${CMAKE_CURRENT_SOURCE_DIR}/paper.json)
  set(generated ${CMAKE_CURRENT_BINARY_DIR}/${P_CLASS}.cpp)
  configure_file(${PAPERLAB_PLUGIN_TEMPLATE} ${generated} @ONLY)

  qt_add_plugin(paperlab_${target_id} SHARED CLASS_NAME ${P_CLASS})
  target_sources(paperlab_${target_id} PRIVATE ${generated})
  # The generated class has Q_OBJECT/Q_PLUGIN_METADATA: moc runs for the plugin module only.
  set_target_properties(paperlab_${target_id} PROPERTIES AUTOMOC ON)
  target_link_libraries(paperlab_${target_id} PRIVATE ${target_id}_impl paperlab_warnings)
  set_target_properties(paperlab_${target_id} PROPERTIES
    LIBRARY_OUTPUT_DIRECTORY ${PAPERLAB_PLUGIN_OUTPUT_DIR}
    PREFIX "" AUTOMOC ON)
  # moc embeds paper.json: rebuild the plugin when it changes.
  set_property(SOURCE ${generated} APPEND PROPERTY OBJECT_DEPENDS ${PANEL_JSON})
  if(NOT P_NO_INSTALL AND NOT PAPERLAB_PLUGIN_NO_INSTALL)
    install(TARGETS paperlab_${target_id} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/paperlab/plugins)
    set_property(GLOBAL APPEND PROPERTY PAPERLAB_PLUGIN_TARGETS paperlab_${target_id})
  endif()
endfunction()
