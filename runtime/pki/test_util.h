// Helpers for runtime/pki's tests: temp directories, files, and running the openssl and keytool CLIs.
#pragma once

#include <string>

#include "runtime/pki/error.h"
#include "runtime/pki/key.h"
#include "testing/temp_dir.h"
#include "runtime/pki/sign.h"

namespace capstan::pki::testing {

using e2e::TempDir;

struct CommandResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr
};

// Runs `command` through /bin/sh.
CommandResult run(const std::string& command);

// "/usr/bin/openssl" when present, else empty (tests then skip their CLI checks).
std::string openssl();
// "/usr/bin/keytool" (the JDK's) when present, else empty.
std::string keytool();

// A fresh ECDSA P-256 CA (cheap to make).
struct TestCa {
  PrivateKey key;
  Certificate cert;
};
TestCa make_ca(const std::string& common_name = "Test CA");

// The message of the PkiError `f()` throws, or "no error".
template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const PkiError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace capstan::pki::testing
