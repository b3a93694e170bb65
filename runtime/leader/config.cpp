#include "runtime/leader/config.h"

#include <unistd.h>

#include <cstdio>
#include <random>
#include <stdexcept>

namespace capstan::leader {
namespace {

std::string ms(std::chrono::milliseconds d) { return std::to_string(d.count()) + "ms"; }

std::string random_uuid() {
  std::random_device rd;
  std::mt19937_64 gen((static_cast<std::uint64_t>(rd()) << 32) ^ rd());
  std::uint64_t hi = gen(), lo = gen();
  hi = (hi & 0xffffffffffff0fffULL) | 0x0000000000004000ULL;  // version 4
  lo = (lo & 0x3fffffffffffffffULL) | 0x8000000000000000ULL;  // RFC 4122 variant
  char buf[37];
  std::snprintf(buf, sizeof buf, "%08x-%04x-%04x-%04x-%012llx", static_cast<unsigned>(hi >> 32),
                static_cast<unsigned>((hi >> 16) & 0xffff), static_cast<unsigned>(hi & 0xffff),
                static_cast<unsigned>(lo >> 48), static_cast<unsigned long long>(lo & 0xffffffffffffULL));
  return buf;
}

}  // namespace

void validate(const Config& c) {
  if (c.lease_namespace.empty()) throw std::invalid_argument("leader election: lease_namespace must be set");
  if (c.lease_name.empty()) throw std::invalid_argument("leader election: lease_name must be set");
  if (c.identity.empty()) throw std::invalid_argument("leader election: identity is empty");
  if (c.retry_period.count() <= 0)
    throw std::invalid_argument("leader election: retry_period must be greater than zero (got " + ms(c.retry_period) + ")");
  if (c.lease_duration < std::chrono::seconds(1))
    throw std::invalid_argument("leader election: lease_duration must be at least 1s, leaseDurationSeconds is whole seconds (got " +
                                ms(c.lease_duration) + ")");
  if (c.lease_duration <= c.renew_deadline)
    throw std::invalid_argument("leader election: lease_duration (" + ms(c.lease_duration) +
                                ") must be greater than renew_deadline (" + ms(c.renew_deadline) + ")");
  if (static_cast<double>(c.renew_deadline.count()) <= kJitterFactor * static_cast<double>(c.retry_period.count()))
    throw std::invalid_argument("leader election: renew_deadline (" + ms(c.renew_deadline) +
                                ") must be greater than retry_period*1.2 (retry_period " + ms(c.retry_period) + ")");
}

std::string default_identity() {
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0 || host[0] == '\0') std::snprintf(host, sizeof host, "%s", "unknown");
  return std::string(host) + "_" + random_uuid();
}

}  // namespace capstan::leader
