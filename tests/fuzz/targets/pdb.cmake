# Structure reader of the promise-protein-states panel (PDB and mmCIF through gemmi, .gz through
# zlib): the reader's sources compiled in directly, not the whole protein engine.
find_package(ZLIB REQUIRED)
# gemmi 0.5 headers need C++17 under clang 14 (see engines/protein/CMakeLists.txt).
set_source_files_properties(${PROJECT_SOURCE_DIR}/engines/protein/StructureReader.cpp
  PROPERTIES COMPILE_OPTIONS "-std=c++17;-fno-sanitize=shift-base")
# -fno-sanitize=shift-base: gemmi's own hashing (seqid.hpp, util.hpp) left-shifts negative ints,
# undefined before C++20 but two's complement on every target we build for; our code is checked
# by the other targets and by the ASan/UBSan builds of the engine.
paperlab_fuzz_target(pdb EXT .pdb
  FUZZ_SOURCES ${PROJECT_SOURCE_DIR}/engines/protein/StructureReader.cpp
               ${PROJECT_SOURCE_DIR}/engines/protein/ResidueKey.cpp
  FUZZ_LIBS paperlab_core ZLIB::ZLIB
  REPLAY_LIBS paperlab_protein_engine
  INCLUDES ${PROJECT_SOURCE_DIR}/engines)
