// Test support: Debian's BIND (`named`) as an authoritative server for test zones on
// 127.0.0.1, on a port chosen at run time, accepting RFC 2136 updates signed with a TSIG key
// made for the run. Started in the foreground as a child process, stopped by its PID.
#pragma once

#include "testing/process.h"
#include "testing/temp_dir.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace capstan::e2e {

struct BindOptions {
  std::vector<std::string> zones = {"example.test"};
  // Extra zone-file lines per zone ("_acme-challenge.app IN CNAME _acme-challenge.other.test.").
  std::map<std::string, std::vector<std::string>> records;
  std::string key_name = "capstan-test";
  std::string algorithm = "hmac-sha256";  // BIND's spelling: hmac-md5, hmac-sha1, hmac-sha256, hmac-sha512
};

// Whether /usr/sbin/named is installed.
bool bind_available();

class BindServer {
 public:
  // Starts named and waits (bounded) until it answers; throws std::runtime_error with its log.
  explicit BindServer(BindOptions options = {});
  ~BindServer();
  BindServer(const BindServer&) = delete;
  BindServer& operator=(const BindServer&) = delete;

  std::uint16_t port() const { return port_; }
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }
  const std::string& key_name() const { return options_.key_name; }
  const std::string& key_secret_base64() const { return secret_base64_; }  // as in a BIND key file
  // `dig +short` of `name` `type` against this server (TCP), one line per record.
  std::string dig(const std::string& name, const std::string& type) const;
  std::string logs() const;

 private:
  BindOptions options_;
  TempDir dir_{"bind"};
  std::string secret_base64_;
  std::uint16_t port_ = 0;
  std::unique_ptr<Process> named_;
};

}  // namespace capstan::e2e
