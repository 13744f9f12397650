# paperlab_add_test(NAME <name> SOURCES <files...> LIBS <targets...> [LABELS <labels...>] [GL] [TIMEOUT s])
# Builds one Qt Test executable and registers it with CTest, headless:
# QT_QPA_PLATFORM=offscreen, fixed scale factor. GL tests get the label "gl" and use the
# display of the Xvfb that tests/run-tests.sh starts for the whole run.
function(paperlab_add_test)
  cmake_parse_arguments(T "GL" "NAME;TIMEOUT" "SOURCES;LIBS;LABELS" ${ARGN})
  add_executable(${T_NAME} ${T_SOURCES})
  target_link_libraries(${T_NAME} PRIVATE Qt6::Test ${T_LIBS} paperlab_warnings)
  target_compile_definitions(${T_NAME} PRIVATE
    PAPERLAB_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    PAPERLAB_BINARY_DIR="${PROJECT_BINARY_DIR}")
  # tests/ on the include path: shared test helpers as "common/<Helper>.h".
  target_include_directories(${T_NAME} PRIVATE ${PROJECT_SOURCE_DIR}/tests)
  add_test(NAME ${T_NAME} COMMAND ${T_NAME})
  set(labels ${T_LABELS})
  set(env "QT_QPA_PLATFORM=offscreen;QT_ENABLE_HIGHDPI_SCALING=0;QT_SCALE_FACTOR=1;PAPERLAB_PLUGIN_PATH=${PAPERLAB_PLUGIN_OUTPUT_DIR}")
  if(T_GL)
    list(APPEND labels gl)
    set(env "QT_ENABLE_HIGHDPI_SCALING=0;QT_SCALE_FACTOR=1;PAPERLAB_PLUGIN_PATH=${PAPERLAB_PLUGIN_OUTPUT_DIR}")
  endif()
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 300)
  endif()
  set_tests_properties(${T_NAME} PROPERTIES ENVIRONMENT "${env}" TIMEOUT ${T_TIMEOUT} LABELS "${labels}")
endfunction()
