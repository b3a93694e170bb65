// The recursive nameservers the DNS-01 webhook solver looks records up on (cert-manager's
// --dns01-recursive-nameservers; by default those of /etc/resolv.conf): the zone of a
// challenge record, the end of its CNAME chain, and whether the record is answered yet (the
// propagation check before a challenge is accepted). Queries ask for recursion, over TCP, each
// bounded by the timeout.
#pragma once

#include "runtime/dns/zone_lookup.h"
#include "runtime/net/tcp.h"

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::certificates {

// The "nameserver" entries of a resolv.conf text (at most 3, as glibc reads), port 53.
std::vector<std::string> resolv_conf_nameservers(std::string_view text);

class Dns01Resolvers {
 public:
  // `configured` empty: /etc/resolv.conf. Throws std::runtime_error naming the flag when there
  // is no nameserver at all or one is not host[:port].
  Dns01Resolvers(const std::vector<std::string>& configured, std::chrono::milliseconds timeout);

  // The SOA owner of `name` or its nearest ancestor, asked of the first nameserver; `fallback`
  // when none answers one (a resolver that does not serve SOA records).
  std::string find_zone(std::string_view name, std::string_view fallback) const;
  // The end of `name`'s CNAME chain (at most 10 hops); `name` when it is no alias.
  std::string follow_cnames(std::string_view name) const;
  // Whether every nameserver answers TXT `value` at `name`. Throws dns::DnsError when one
  // cannot be asked.
  bool answers(std::string_view name, std::string_view value) const;

  const std::vector<net::HostPort>& servers() const { return servers_; }

 private:
  // Recursive queries to the first nameserver (zones and CNAMEs are asked of it alone).
  dns::Ask first_server() const;

  std::vector<net::HostPort> servers_;
  std::chrono::milliseconds timeout_;
};

}  // namespace capstan::certificates
