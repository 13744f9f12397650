# Third-party dependencies, all from Debian 12's archive (packaging/install-deps.sh installs them).
find_package(Eigen3 3.4 REQUIRED NO_MODULE)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(Threads REQUIRED)
find_package(Qt6 6.4 REQUIRED COMPONENTS Core Gui Widgets Charts Svg OpenGL OpenGLWidgets Concurrent Test)
find_package(PkgConfig REQUIRED)
pkg_check_modules(CLP REQUIRED IMPORTED_TARGET clp)

# VTK: an explicit component list. Never GUISupportQt (Debian builds it against Qt 5).
# VTK's config needs MPI with the C language enabled.
find_package(MPI COMPONENTS C)
find_package(VTK 9.1 REQUIRED COMPONENTS
  CommonCore CommonDataModel CommonColor CommonComputationalGeometry FiltersCore FiltersSources
  FiltersGeneral InfovisCore InfovisLayout RenderingCore RenderingOpenGL2 RenderingUI RenderingFreeType
  RenderingAnnotation InteractionStyle IOImage)

set(CMAKE_AUTOMOC ON)

if(PAPERLAB_ENABLE_CUDA)
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    set(PAPERLAB_HAVE_CUDA_COMPILER ON)
  endif()
endif()
