#include "runtime/dns/zone_lookup.h"

namespace capstan::dns {
namespace {

constexpr int kMaxCnameHops = 10;
constexpr int kMaxZoneQueries = 128;  // a name has at most 127 labels, plus the root

}  // namespace

std::string follow_cnames(const Ask& ask, std::string_view name) {
  std::string n = canonical_name(name);
  for (int hop = 0; hop < kMaxCnameHops; ++hop) {
    Message a = ask(n, type::kCNAME);
    const Record* alias = nullptr;
    for (const auto& rr : a.answers)
      if (rr.type == type::kCNAME && rr.name == n) alias = &rr;
    if (!alias) return n;
    n = alias->target;
  }
  throw DnsError("\"" + std::string(name) + "\" is an alias chain of more than 10 CNAMEs");
}

ZoneSearch find_zone(const Ask& ask, std::string_view name, bool root) {
  ZoneSearch out;
  std::string n = canonical_name(name);
  for (int i = 0; i < kMaxZoneQueries; ++i) {
    if (n.empty() && !root) break;
    Message a = ask(n, type::kSOA);
    if (a.rcode() == rcode::kNoError || a.rcode() == rcode::kNXDomain) {
      for (const auto* section : {&a.answers, &a.authority})
        for (const auto& rr : *section)
          if (rr.type == type::kSOA && (rr.name.empty() ? root : n == rr.name || n.ends_with("." + rr.name))) {
            out.zone = rr.name;
            return out;
          }
    } else {
      out.last_error = rcode_name(a.rcode());
    }
    if (n.empty()) break;
    auto dot = n.find('.');
    n = dot == std::string::npos ? std::string() : n.substr(dot + 1);
  }
  return out;
}

}  // namespace capstan::dns
