# Helpers shared by every folder's CMakeLists.txt.
include(GoogleTest)

# Every translation unit that might see Asio or Beast headers uses their separately compiled form
# (the implementation is compiled once, in runtime/http).
add_compile_definitions(
  BOOST_ASIO_SEPARATE_COMPILATION
  BOOST_BEAST_SEPARATE_COMPILATION
  BOOST_ASIO_NO_DEPRECATED
  BOOST_JSON_NO_LIB
  BOOST_URL_NO_LIB
)
add_compile_options(-Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers)

# capstan_library(NAME SOURCES ... DEPS ...): a static library rooted at the repository top,
# so headers are included as "runtime/json/json.h".
function(capstan_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
  target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(${name} PUBLIC ${ARG_DEPS})
endfunction()

# capstan_test(NAME SOURCES ... DEPS ... LABEL unit|e2e [TIMEOUT s]): a GoogleTest binary whose
# tests are registered one by one with CTest under the given label.
function(capstan_test name)
  cmake_parse_arguments(ARG "" "LABEL;TIMEOUT" "SOURCES;DEPS" ${ARGN})
  if(NOT ARG_LABEL)
    set(ARG_LABEL unit)
  endif()
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 120)
  endif()
  add_executable(${name} ${ARG_SOURCES})
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests)
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} GTest::gtest GTest::gtest_main Threads::Threads)
  gtest_discover_tests(${name}
    DISCOVERY_MODE PRE_TEST
    PROPERTIES LABELS ${ARG_LABEL} TIMEOUT ${ARG_TIMEOUT}
               ENVIRONMENT "CAPSTAN_BIN=${CMAKE_BINARY_DIR}/bin/capstan")
endfunction()
