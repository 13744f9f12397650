# Third-party dependencies, all from Debian 12's archive (packaging/install-deps.sh installs them).
find_package(Eigen3 3.4 REQUIRED NO_MODULE)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(Threads REQUIRED)
find_package(Qt6 6.4 REQUIRED COMPONENTS Core Gui Widgets Charts Svg OpenGL OpenGLWidgets Concurrent Test)
# Qt6::Test defines QT_TESTCASE_SOURCEDIR as each target's source folder; qtest headers test that
# macro, so it would give every test folder its own precompiled header. Our tests find their data
# through PAPERLAB_SOURCE_DIR (never QFINDTESTDATA): one value for all lets them share one PCH.
get_target_property(_qt_test_defs Qt6::Test INTERFACE_COMPILE_DEFINITIONS)
if(_qt_test_defs)
  list(TRANSFORM _qt_test_defs REPLACE "^QT_TESTCASE_SOURCEDIR=.*$" "QT_TESTCASE_SOURCEDIR=\"${PROJECT_SOURCE_DIR}/tests\"")
  set_property(TARGET Qt6::Test PROPERTY INTERFACE_COMPILE_DEFINITIONS "${_qt_test_defs}")
endif()
find_package(PkgConfig REQUIRED)
pkg_check_modules(CLP REQUIRED IMPORTED_TARGET clp)

# VTK: an explicit component list. Never GUISupportQt (Debian builds it against Qt 5).
# VTK's config needs MPI with the C language enabled.
find_package(MPI COMPONENTS C)
find_package(VTK 9.1 REQUIRED COMPONENTS
  CommonCore CommonDataModel CommonColor CommonComputationalGeometry FiltersCore FiltersSources
  FiltersGeneral InfovisCore InfovisLayout RenderingCore RenderingOpenGL2 RenderingUI RenderingFreeType
  RenderingAnnotation InteractionStyle IOImage)

# AUTOMOC is switched on per target (widgets, sdk, gui, plugin modules, tests): an autogen step
# costs ~0.6 CPU-s even for a target without Q_OBJECT, and engines never have one.
set(CMAKE_AUTOMOC OFF)

if(PAPERLAB_ENABLE_CUDA)
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    # sm_90 (H100/H200) code plus compute_90 PTX; override with -DCMAKE_CUDA_ARCHITECTURES=...
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES 90)
    endif()
    set(CMAKE_CUDA_STANDARD 17)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    if(PAPERLAB_CCACHE AND NOT CMAKE_CUDA_COMPILER_LAUNCHER)
      set(CMAKE_CUDA_COMPILER_LAUNCHER ${PAPERLAB_CCACHE})
    endif()
    enable_language(CUDA)
    find_package(CUDAToolkit)
    if(CUDAToolkit_FOUND)
      set(PAPERLAB_HAVE_CUDA_COMPILER ON)
    endif()
  endif()
endif()

# MPI (optional, like CUDA): only the module app/cli/mpi links it; `paperlab` opens that module
# when an MPI launcher started it (app/cli/MpiTransport.h).
if(PAPERLAB_ENABLE_MPI)
  find_package(MPI COMPONENTS C QUIET)
  if(MPI_C_FOUND)
    set(PAPERLAB_HAVE_MPI ON)
  endif()
endif()

# Adds CUDA sources (.cu: raw pointers only, no Qt, no Eigen) to an engine library when nvcc
# is available, and always links paperlab_cuda (device queries, backend resolution). Code that
# calls the kernels is guarded by #ifdef PAPERLAB_WITH_CUDA (defined through paperlab_cuda).
function(paperlab_engine_cuda_sources target)
  target_link_libraries(${target} PUBLIC paperlab_cuda)
  if(PAPERLAB_HAVE_CUDA_COMPILER)
    target_sources(${target} PRIVATE ${ARGN})
    set_target_properties(${target} PROPERTIES CUDA_SEPARABLE_COMPILATION OFF CUDA_RUNTIME_LIBRARY Static)
  endif()
endfunction()
