#include "runtime/pki/test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace capstan::pki::testing {

CommandResult run(const std::string& command) {
  CommandResult r;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) r.output.append(buf, n);
  int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::string openssl() { return access("/usr/bin/openssl", X_OK) == 0 ? "/usr/bin/openssl" : ""; }
std::string keytool() { return access("/usr/bin/keytool", X_OK) == 0 ? "/usr/bin/keytool" : ""; }

TestCa make_ca(const std::string& common_name) {
  TestCa ca;
  ca.key = PrivateKey::generate(KeyAlgorithm::ECDSA, 256);
  ca.cert = self_signed_ca(common_name, std::chrono::hours(24), ca.key);
  return ca;
}

}  // namespace capstan::pki::testing
