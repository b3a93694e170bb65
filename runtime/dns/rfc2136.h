// A DNS server managed through RFC 2136 dynamic updates signed with TSIG (BIND, Knot,
// PowerDNS, Windows DNS): what the ACME DNS-01 solver needs to publish and withdraw
// `_acme-challenge` TXT records and to check that the server answers them. Every exchange is
// one DNS-over-TCP message bounded by the timeout; queries are unsigned, updates signed when a
// key is given.
//
//   dns::Rfc2136 ns({.server = net::split_host_port("127.0.0.1:5353", "53"), .key = key});
//   std::string zone = ns.find_zone("_acme-challenge.www.example.com");  // "example.com"
//   ns.add_txt(zone, "_acme-challenge.www.example.com", "<digest>");
//   bool seen = ns.has_txt("_acme-challenge.www.example.com", "<digest>");
//   ns.remove_txt(zone, "_acme-challenge.www.example.com", "<digest>");
#pragma once

#include "runtime/dns/message.h"
#include "runtime/dns/tsig.h"
#include "runtime/net/tcp.h"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::dns {

struct Rfc2136Options {
  net::HostPort server;
  std::optional<TsigKey> key;  // none: unsigned updates (servers allowing updates by address)
  std::chrono::milliseconds timeout{10000};  // per exchange
  std::uint32_t ttl = 60;  // of the records added (cert-manager's)
};

// Sends `request` over TCP to `server` and returns the answer's bytes (at most 65535). Throws
// DnsError naming the server when it cannot be reached or answers with another id.
std::string exchange(const net::HostPort& server, std::string_view request, std::chrono::milliseconds timeout);

class Rfc2136 {
 public:
  explicit Rfc2136(Rfc2136Options options);

  // The zone holding `name` on the server: the owner of the SOA record it answers for `name`
  // or an ancestor (at most 127 queries). Throws DnsError when the server is not
  // authoritative for any of them (REFUSED, SERVFAIL, no SOA).
  std::string find_zone(std::string_view name) const;
  // The name `name` is an alias of on the server (following at most 10 CNAMEs); `name` itself
  // when it is no alias.
  std::string follow_cnames(std::string_view name) const;
  // Adds TXT `value` at `name` in `zone` (an existing identical record is left as is, so this
  // is idempotent); other TXT values at `name` stay. Throws DnsError with the server's rcode.
  void add_txt(std::string_view zone, std::string_view name, std::string_view value) const;
  // Removes exactly that TXT record; absent is fine.
  void remove_txt(std::string_view zone, std::string_view name, std::string_view value) const;
  // The TXT values the server answers authoritatively for `name` (empty for NXDOMAIN/NODATA).
  std::vector<std::string> txt(std::string_view name) const;

 private:
  Message ask(std::string_view name, std::uint16_t type) const;
  void update(std::string_view zone, Record record, const char* what) const;

  Rfc2136Options options_;
};

}  // namespace capstan::dns
