#include "testing/bind.h"

#include "testing/eventually.h"
#include "testing/ports.h"

#include <openssl/evp.h>
#include <openssl/rand.h>
#include <unistd.h>

#include <stdexcept>

namespace capstan::e2e {
namespace {

constexpr const char* kNamed = "/usr/sbin/named";
constexpr const char* kDig = "/usr/bin/dig";

std::string random_secret_base64() {
  unsigned char raw[32];
  if (RAND_bytes(raw, sizeof raw) != 1) throw std::runtime_error("RAND_bytes failed");
  unsigned char out[64];
  int n = EVP_EncodeBlock(out, raw, sizeof raw);
  return std::string(reinterpret_cast<const char*>(out), static_cast<std::size_t>(n));
}

}  // namespace

bool bind_available() { return ::access(kNamed, X_OK) == 0 && ::access(kDig, X_OK) == 0; }

BindServer::BindServer(BindOptions options) : options_(std::move(options)) {
  auto extra_lines = [&](const std::string& zone) {
    std::string lines;
    if (auto it = options_.records.find(zone); it != options_.records.end())
      for (const auto& l : it->second) lines += l + "\n";
    return lines;
  };
  using namespace std::chrono_literals;
  secret_base64_ = random_secret_base64();
  std::string conf;
  conf += "key \"" + options_.key_name + "\" { algorithm " + options_.algorithm + "; secret \"" + secret_base64_ + "\"; };\n";
  std::string last_log;
  // The port is free when chosen, but another process may take it before named binds: retry.
  for (int attempt = 0; attempt < 3; ++attempt) {
    port_ = free_port(/*udp_too=*/true);
    std::string c = conf;
    c += "options {\n  directory \"" + dir_.path().string() + "\";\n  pid-file \"" + dir_.file("named.pid") + "\";\n" +
         "  session-keyfile \"" + dir_.file("session.key") + "\";\n  listen-on port " + std::to_string(port_) +
         " { 127.0.0.1; };\n  listen-on-v6 { none; };\n  recursion no;\n  dnssec-validation no;\n  notify no;\n};\n"
         "controls { };\n";
    for (const auto& zone : options_.zones) {
      std::string file = dir_.file("db." + zone);
      write_file(file, "$TTL 60\n@ IN SOA ns1." + zone + ". hostmaster." + zone + ". 1 60 60 600 60\n@ IN NS ns1." + zone +
                           ".\nns1 IN A 127.0.0.1\n" + extra_lines(zone));
      ::unlink((file + ".jnl").c_str());
      c += "zone \"" + zone + "\" { type primary; file \"" + file + "\"; allow-update { key \"" + options_.key_name +
           "\"; }; };\n";
    }
    write_file(dir_.file("named.conf"), c);
    Process::Options p;
    p.args = {kNamed, "-g", "-c", dir_.file("named.conf"), "-u", "root", "-n", "1"};
    p.stdout_path = dir_.file("named.out");
    p.stderr_path = dir_.file("named.err");
    named_ = std::make_unique<Process>(p);
    bool up = eventually(
        [&] { return named_->running() && logs().find("all zones loaded") != std::string::npos && accepts_connections(port_); }, 20s,
        50ms);
    if (up) return;
    last_log = logs();
    named_->stop(5s);
    named_.reset();
  }
  throw std::runtime_error("named did not start:\n" + last_log);
}

BindServer::~BindServer() {
  if (named_) named_->stop(std::chrono::seconds(5));
}

std::string BindServer::dig(const std::string& name, const std::string& type) const {
  auto r = run({kDig, "+tcp", "+short", "+time=5", "+tries=1", "-p", std::to_string(port_), "@127.0.0.1", name, type}, {}, {},
               std::chrono::seconds(15));
  if (r.code != 0) throw std::runtime_error("dig " + name + " " + type + " failed (" + std::to_string(r.code) + "): " + r.err + r.out);
  return r.out;
}

std::string BindServer::logs() const { return read_file(dir_.file("named.out")) + read_file(dir_.file("named.err")); }

}  // namespace capstan::e2e
