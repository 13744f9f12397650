# paperlab_add_test(NAME <name> SOURCES <files...> LIBS <targets...> [LABELS <labels...>] [GL] [TIMEOUT s])
# Builds one Qt Test executable and registers it with CTest, headless:
# QT_QPA_PLATFORM=offscreen, fixed scale factor. GL tests get the label "gl" and use the
# display of the Xvfb that tests/run-tests.sh starts for the whole run.
function(paperlab_add_test)
  cmake_parse_arguments(T "GL" "NAME;TIMEOUT" "SOURCES;LIBS;LABELS" ${ARGN})
  add_executable(${T_NAME} ${T_SOURCES})
  set_target_properties(${T_NAME} PROPERTIES AUTOMOC ON)
  # Eigen is on every test's include path: the shared test PCH (below) includes it.
  target_link_libraries(${T_NAME} PRIVATE Qt6::Test Eigen3::Eigen ${T_LIBS} paperlab_warnings)
  target_compile_definitions(${T_NAME} PRIVATE
    PAPERLAB_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    PAPERLAB_BINARY_DIR="${PROJECT_BINARY_DIR}")
  # tests/ on the include path: shared test helpers as "common/<Helper>.h".
  target_include_directories(${T_NAME} PRIVATE ${PROJECT_SOURCE_DIR}/tests)
  # One QT_TESTCASE_BUILDDIR for every test (qtest.h tests it), so that all tests can share the
  # precompiled headers of paperlab_test_pch_core / _gui (see paperlab_apply_test_pch below).
  set_target_properties(${T_NAME} PROPERTIES QT_TESTCASE_BUILDDIR "${PROJECT_BINARY_DIR}/tests")
  set_property(GLOBAL APPEND PROPERTY PAPERLAB_TEST_TARGETS ${T_NAME})
  add_test(NAME ${T_NAME} COMMAND ${T_NAME})
  set(labels ${T_LABELS})
  set(env "QT_QPA_PLATFORM=offscreen;QT_ENABLE_HIGHDPI_SCALING=0;QT_SCALE_FACTOR=1;PAPERLAB_PLUGIN_PATH=${PAPERLAB_PLUGIN_OUTPUT_DIR}")
  if(T_GL)
    list(APPEND labels gl)
    set(env "QT_ENABLE_HIGHDPI_SCALING=0;QT_SCALE_FACTOR=1;PAPERLAB_PLUGIN_PATH=${PAPERLAB_PLUGIN_OUTPUT_DIR}")
  endif()
  # The allocator settings app/main.cpp makes with mallopt() (see tuneAllocator there): without
  # them engine tests spend up to half their time in page faults.
  list(APPEND env "GLIBC_TUNABLES=glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=268435456:glibc.malloc.top_pad=16777216")
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 300)
  endif()
  set_tests_properties(${T_NAME} PROPERTIES ENVIRONMENT "${env}" TIMEOUT ${T_TIMEOUT} LABELS "${labels}")
endfunction()

# Shared precompiled headers for the tests. Nearly every test parses <QtTest> (all of QtCore) and
# Eigen, ~2.5 CPU-s a file; one PCH per flavour, reused by every test (REUSE_FROM), takes that to
# ~0.3 s. GCC uses a PCH only when the macros it tests are defined alike, and qtest.h tests
# QT_GUI_LIB / QT_WIDGETS_LIB: so there are two flavours, chosen per test from its link closure.
# The definitions below are the ones every test gets (paperlab_add_test), in the same order.
if(PAPERLAB_BUILD_TESTS AND NOT PAPERLAB_NO_TEST_PCH AND NOT PAPERLAB_FUZZ)
  set(_paperlab_pch_src ${CMAKE_BINARY_DIR}/paperlab_test_pch.cpp)
  file(WRITE ${_paperlab_pch_src} "int main() { return 0; }\n")
  foreach(flavour core gui)
    set(t paperlab_test_pch_${flavour})
    add_executable(${t} ${_paperlab_pch_src})
    target_link_libraries(${t} PRIVATE Qt6::Test Eigen3::Eigen paperlab_warnings)
    if(flavour STREQUAL "gui")
      target_link_libraries(${t} PRIVATE Qt6::Widgets)
    endif()
    target_compile_definitions(${t} PRIVATE
      PAPERLAB_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
      PAPERLAB_BINARY_DIR="${PROJECT_BINARY_DIR}")
    set_target_properties(${t} PROPERTIES QT_TESTCASE_BUILDDIR "${PROJECT_BINARY_DIR}/tests")
    target_precompile_headers(${t} PRIVATE
      <QtTest> <QtCore/QTemporaryDir> <QtCore/QProcess> <QtCore/QJsonDocument> <QtCore/QJsonObject>
      <QtCore/QJsonArray> <Eigen/Dense> <algorithm> <cmath> <fstream> <memory> <string> <vector>)
  endforeach()
endif()

# True (in OUT) when TARGET's link closure contains Qt6::Gui.
function(paperlab_links_qt_gui target out)
  set(todo ${target})
  set(seen "")
  set(found OFF)
  while(todo)
    list(POP_FRONT todo t)
    if(t IN_LIST seen OR NOT TARGET ${t})
      continue()
    endif()
    list(APPEND seen ${t})
    get_target_property(aliased ${t} ALIASED_TARGET)
    if(aliased)
      set(t ${aliased})
    endif()
    if(t MATCHES "^Qt6::(Gui|Widgets)$")
      set(found ON)
      break()
    endif()
    get_target_property(type ${t} TYPE)
    set(deps "")
    if(NOT type STREQUAL "INTERFACE_LIBRARY")
      get_target_property(deps ${t} LINK_LIBRARIES)
    endif()
    get_target_property(ideps ${t} INTERFACE_LINK_LIBRARIES)
    foreach(d IN LISTS deps ideps)
      if(d AND NOT d MATCHES "NOTFOUND" AND NOT d MATCHES "^\\$<")
        string(REGEX REPLACE "^::@\\([^)]*\\)::" "" d "${d}")
        list(APPEND todo ${d})
      endif()
    endforeach()
  endwhile()
  set(${out} ${found} PARENT_SCOPE)
endfunction()

# Called once all targets exist (deferred from the top-level CMakeLists.txt).
function(paperlab_apply_test_pch)
  if(NOT TARGET paperlab_test_pch_core)
    return()
  endif()
  get_property(tests GLOBAL PROPERTY PAPERLAB_TEST_TARGETS)
  foreach(t IN LISTS tests)
    paperlab_links_qt_gui(${t} gui)
    if(gui)
      target_precompile_headers(${t} REUSE_FROM paperlab_test_pch_gui)
    else()
      target_precompile_headers(${t} REUSE_FROM paperlab_test_pch_core)
    endif()
    target_compile_options(${t} PRIVATE -Winvalid-pch)
  endforeach()
endfunction()
