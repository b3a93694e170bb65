// Test support: a real pebble ACME server plus pebble-challtestsrv as its DNS, started as
// child processes on ports chosen at run time (127.0.0.1 only) and stopped by their PIDs.
#pragma once

#include "testing/process.h"
#include "runtime/http/client.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>

namespace capstan::e2e {

struct PebbleOptions {
  std::uint16_t http_port = 0;  // where pebble validates HTTP-01 (the solver's port)
  int alternate_roots = 0;      // PEBBLE_ALTERNATE_ROOTS
  // The DNS server pebble resolves and validates DNS-01 through ("127.0.0.1:5353"); default
  // challtestsrv's (add_a() answers there only).
  std::string dns_server;
  std::map<std::string, std::string> env;  // extra environment (overrides the defaults)
};

// Whether /usr/bin/pebble and /usr/bin/pebble-challtestsrv are installed.
bool pebble_available();

class PebbleEnv {
 public:
  // Starts challtestsrv then pebble and waits (bounded) until both answer; throws
  // std::runtime_error with their logs when they do not.
  explicit PebbleEnv(PebbleOptions options);
  ~PebbleEnv();  // stops both (SIGTERM, then SIGKILL)
  PebbleEnv(const PebbleEnv&) = delete;
  PebbleEnv& operator=(const PebbleEnv&) = delete;

  std::string directory_url() const;
  // Trusts the CA of pebble's HTTPS listener (minted with runtime/pki for this run).
  http::ClientOptions client_options() const;
  // Pebble's issuing root (index 0) or an alternate root, from the management interface.
  std::string root_pem(int index = 0);
  std::string intermediate_pem(int index = 0);
  // challtestsrv: answer A queries for `host` with `address`.
  void add_a(const std::string& host, const std::string& address);
  // challtestsrv's DNS server ("127.0.0.1:PORT", UDP and TCP) and management API
  // ("http://127.0.0.1:PORT": /set-txt, /clear-txt, ...).
  std::string challtestsrv_dns() const { return "127.0.0.1:" + std::to_string(dns_port_); }
  std::string challtestsrv_management_url() const { return "http://127.0.0.1:" + std::to_string(chall_management_port_); }
  std::string logs() const;

 private:
  std::string management(const std::string& path);

  e2e::TempDir dir_{"pebble"};
  std::string ca_pem_;
  std::uint16_t acme_port_ = 0;
  std::uint16_t management_port_ = 0;
  std::uint16_t dns_port_ = 0;
  std::uint16_t chall_management_port_ = 0;
  std::unique_ptr<e2e::Process> challtestsrv_;
  std::unique_ptr<e2e::Process> pebble_;
  std::unique_ptr<http::Client> http_;
};

}  // namespace capstan::e2e
