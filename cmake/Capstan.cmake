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

# Sanitized builds. UBSan does not recover, so undefined behaviour fails the test that hit it
# instead of scrolling past in a log.
if(CAPSTAN_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "CAPSTAN_FUZZ needs clang (libFuzzer): configure with CXX=clang++-14")
  endif()
  # Libraries get coverage instrumentation without libFuzzer's main; the fuzz executables link it.
  set(CAPSTAN_SANITIZE "address,undefined")
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
if(CAPSTAN_SANITIZE)
  add_compile_options(-fsanitize=${CAPSTAN_SANITIZE} -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_link_options(-fsanitize=${CAPSTAN_SANITIZE} -fno-sanitize-recover=all)
endif()

# capstan_fuzzer(NAME SOURCES ... DEPS ... CORPUS dir MAX_LEN bytes): a libFuzzer target, built
# only with -DCAPSTAN_FUZZ=ON into bin/fuzz/. Its seed corpus lives next to it in the source
# tree; scripts/fuzz_run.sh reads fuzzers.txt (name, corpus, max_len) to run every target.
function(capstan_fuzzer name)
  if(NOT CAPSTAN_FUZZ)
    return()
  endif()
  cmake_parse_arguments(ARG "" "CORPUS;MAX_LEN" "SOURCES;DEPS" ${ARGN})
  if(NOT ARG_MAX_LEN)
    set(ARG_MAX_LEN 4096)
  endif()
  add_executable(${name} ${ARG_SOURCES})
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin/fuzz)
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} Threads::Threads)
  target_link_options(${name} PRIVATE -fsanitize=fuzzer)
  add_dependencies(fuzzers ${name})
  file(APPEND ${CMAKE_BINARY_DIR}/fuzzers.txt
       "${name} ${CMAKE_CURRENT_SOURCE_DIR}/${ARG_CORPUS} ${ARG_MAX_LEN}\n")
endfunction()
if(CAPSTAN_FUZZ)
  file(WRITE ${CMAKE_BINARY_DIR}/fuzzers.txt "")
  add_custom_target(fuzzers)
endif()
