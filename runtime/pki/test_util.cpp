#include "runtime/pki/test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace capstan::pki::testing {

TempDir::TempDir() {
  std::string tmpl = (std::filesystem::temp_directory_path() / "capstan-pki-XXXXXX").string();
  if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
  path_ = tmpl;
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::string TempDir::write(const std::string& name, const std::string& content) const {
  std::string p = path_ + "/" + name;
  std::ofstream(p, std::ios::binary) << content;
  return p;
}

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

TestCa make_ca(const std::string& common_name) {
  TestCa ca;
  ca.key = PrivateKey::generate(KeyAlgorithm::ECDSA, 256);
  ca.cert = self_signed_ca(common_name, std::chrono::hours(24), ca.key);
  return ca;
}

}  // namespace capstan::pki::testing
