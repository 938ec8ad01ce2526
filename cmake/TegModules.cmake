# teg_module(NAME <name> [DEPS <targets>...])
# Builds src/<name>/*.cpp into library teg_<name>, public headers from include/.
function(teg_module)
  cmake_parse_arguments(M "" "NAME" "DEPS;PRIVATE_DEPS" ${ARGN})
  file(GLOB_RECURSE srcs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cpp)
  add_library(teg_${M_NAME} STATIC ${srcs})
  add_library(teg::${M_NAME} ALIAS teg_${M_NAME})
  target_include_directories(teg_${M_NAME} PUBLIC ${PROJECT_SOURCE_DIR}/include)
  target_link_libraries(teg_${M_NAME} PUBLIC ${M_DEPS} PRIVATE ${M_PRIVATE_DEPS})
endfunction()

# teg_unit_tests(MODULE <name> DEPS <targets>...)
# Builds tests/unit/<name>/*.cpp into one GoogleTest binary test_<name>, registered with ctest.
function(teg_unit_tests)
  cmake_parse_arguments(T "" "MODULE" "DEPS" ${ARGN})
  file(GLOB srcs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cpp)
  if(NOT srcs)
    return()
  endif()
  add_executable(test_${T_MODULE} ${srcs})
  target_link_libraries(test_${T_MODULE} PRIVATE ${T_DEPS} GTest::gtest_main GTest::gmock)
  target_compile_definitions(test_${T_MODULE} PRIVATE
    TEG_SOURCE_DIR="${PROJECT_SOURCE_DIR}" TEG_BINARY_DIR="${PROJECT_BINARY_DIR}")
  gtest_discover_tests(test_${T_MODULE} DISCOVERY_TIMEOUT 60
    PROPERTIES ENVIRONMENT "TEG_DATA_DIR=${PROJECT_SOURCE_DIR}/data"
    # Compiles in tests go to a cache in the build tree, not the user's ~/.cache/teg.
    ENVIRONMENT_MODIFICATION "TEG_CACHE_DIR=set:${PROJECT_BINARY_DIR}/test-compile-cache")
endfunction()
