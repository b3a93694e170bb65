#include "controllers/certificates/issuers/dns01_resolvers.h"

#include "runtime/dns/message.h"
#include "runtime/dns/rfc2136.h"
#include "runtime/dns/zone_lookup.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace capstan::certificates {
namespace {

constexpr std::uint16_t kRecursionDesired = 0x0100;
constexpr std::size_t kMaxResolvConf = 64 * 1024;

dns::Message ask(const net::HostPort& server, std::string_view name, std::uint16_t type, std::chrono::milliseconds timeout) {
  dns::Message q = dns::Message::query(name, type);
  q.flags |= kRecursionDesired;
  dns::Message a = dns::Message::decode(dns::exchange(server, q.encode(), timeout));
  if (!a.response()) throw dns::DnsError("DNS server " + server.to_string() + " sent a query, not an answer");
  return a;
}

}  // namespace

std::vector<std::string> resolv_conf_nameservers(std::string_view text) {
  std::vector<std::string> out;
  std::istringstream in{std::string(text)};
  std::string line;
  while (out.size() < 3 && std::getline(in, line)) {
    std::istringstream words(line);
    std::string key, address;
    if (!(words >> key >> address) || key != "nameserver") continue;
    if (auto pct = address.find('%'); pct != std::string::npos) address.resize(pct);  // fe80::1%eth0
    out.push_back(address.find(':') != std::string::npos ? "[" + address + "]:53" : address + ":53");
  }
  return out;
}

Dns01Resolvers::Dns01Resolvers(const std::vector<std::string>& configured, std::chrono::milliseconds timeout) : timeout_(timeout) {
  std::vector<std::string> addresses = configured;
  if (addresses.empty()) {
    std::ifstream f("/etc/resolv.conf");
    std::string text(kMaxResolvConf, '\0');
    f.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<std::size_t>(f.gcount()));
    addresses = resolv_conf_nameservers(text);
  }
  if (addresses.empty())
    throw std::runtime_error("no recursive nameserver to check DNS-01 records with: set --dns01-recursive-nameservers");
  for (const auto& a : addresses) {
    try {
      servers_.push_back(net::split_host_port(a, "53"));
    } catch (const std::invalid_argument& e) {
      throw std::runtime_error("--dns01-recursive-nameservers: \"" + a + "\": " + e.what());
    }
  }
}

std::string Dns01Resolvers::find_zone(std::string_view name, std::string_view fallback) const {
  std::string n = dns::canonical_name(name);
  try {
    // A recursive resolver answers the root's SOA for a name that does not exist: no zone.
    if (auto zone = dns::find_zone(first_server(), n, false).zone) return *zone;
  } catch (const dns::DnsError&) {
  }
  return dns::canonical_name(fallback);
}

std::string Dns01Resolvers::follow_cnames(std::string_view name) const { return dns::follow_cnames(first_server(), name); }

dns::Ask Dns01Resolvers::first_server() const {
  return [this](std::string_view n, std::uint16_t type) { return ask(servers_.front(), n, type, timeout_); };
}

bool Dns01Resolvers::answers(std::string_view name, std::string_view value) const {
  std::string n = dns::canonical_name(name);
  for (const auto& server : servers_) {
    dns::Message a = ask(server, n, dns::type::kTXT, timeout_);
    bool found = false;
    if (a.rcode() == dns::rcode::kNoError)
      for (const auto& rr : a.answers)
        if (rr.type == dns::type::kTXT && rr.name == n && dns::txt_text(rr.rdata) == value) found = true;
    if (!found) return false;
  }
  return true;
}

}  // namespace capstan::certificates
