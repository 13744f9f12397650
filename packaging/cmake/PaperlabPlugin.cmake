# paperlab_add_plugin(ID <panel-id> PLUGIN_SOURCES <plugin class .cpp/.h> IMPL_SOURCES <model/figure code>
#                     LIBS <engine targets> [RESOURCES <files>] [NO_INSTALL])
# Builds <id>_impl (static, PIC: engine glue and figure builders; linked by tests) and the shared
# MODULE plugin paperlab_<id> into build/lib/paperlab/plugins. paper.json is embedded with
# Q_PLUGIN_METADATA in the plugin class.
function(paperlab_add_plugin)
  cmake_parse_arguments(P "NO_INSTALL" "ID" "PLUGIN_SOURCES;IMPL_SOURCES;LIBS;RESOURCES" ${ARGN})
  string(REPLACE "-" "_" target_id ${P_ID})
  add_library(${target_id}_impl STATIC ${P_IMPL_SOURCES})
  target_link_libraries(${target_id}_impl PUBLIC paperlab_sdk ${P_LIBS} PRIVATE paperlab_warnings)
  target_include_directories(${target_id}_impl PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
  if(P_RESOURCES)
    qt_add_resources(${target_id}_impl "${target_id}_resources" PREFIX "/${P_ID}" FILES ${P_RESOURCES})
  endif()
  qt_add_plugin(paperlab_${target_id} SHARED CLASS_NAME ${target_id}Plugin)
  target_sources(paperlab_${target_id} PRIVATE ${P_PLUGIN_SOURCES})
  set_target_properties(paperlab_${target_id} PROPERTIES AUTOMOC ON)
  target_link_libraries(paperlab_${target_id} PRIVATE ${target_id}_impl paperlab_warnings)
  set_target_properties(paperlab_${target_id} PROPERTIES
    LIBRARY_OUTPUT_DIRECTORY ${PAPERLAB_PLUGIN_OUTPUT_DIR}
    PREFIX "")
  if(NOT P_NO_INSTALL)
    install(TARGETS paperlab_${target_id} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/paperlab/plugins)
    set_property(GLOBAL APPEND PROPERTY PAPERLAB_PLUGIN_TARGETS paperlab_${target_id})
  endif()
endfunction()
