// Zone finding and CNAME following by queries alone, shared by the RFC 2136 provider (asking the
// authoritative server it updates) and the DNS-01 webhook solver (asking recursive nameservers):
// only how a query is sent differs between them, so that is what they pass in.
//
//   dns::Ask ask = [&](std::string_view name, std::uint16_t type) { return query_my_server(name, type); };
//   std::string end = dns::follow_cnames(ask, "_acme-challenge.www.example.com");
//   dns::ZoneSearch z = dns::find_zone(ask, end, /*root=*/false);  // z.zone: "example.com"
#pragma once

#include "runtime/dns/message.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace capstan::dns {

// Sends a query for `type` records at `name` and returns the answer (a response). Throws DnsError.
using Ask = std::function<Message(std::string_view name, std::uint16_t type)>;

// The end of `name`'s CNAME chain (at most 10 hops), canonical; `name` itself when it is no
// alias. Throws DnsError for a longer chain or when `ask` does.
std::string follow_cnames(const Ask& ask, std::string_view name);

struct ZoneSearch {
  std::optional<std::string> zone;  // the SOA owner found; nullopt when none was answered
  std::string last_error;           // the last rcode other than NOERROR/NXDOMAIN answered ("" when none)
};

// Asks for the SOA of `name`, then of each ancestor (at most 128 queries), and returns the first
// SOA owner answered (in the answer or authority section) that is the name or an ancestor of it.
// `root`: whether the root zone counts (asked for, and accepted as an answer); an authoritative
// server may hold it, while a recursive resolver's root SOA only says the name does not exist.
// Throws DnsError when `ask` does or `name` is not a DNS name.
ZoneSearch find_zone(const Ask& ask, std::string_view name, bool root);

}  // namespace capstan::dns
