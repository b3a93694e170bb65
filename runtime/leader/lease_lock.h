// The coordination.k8s.io/v1 Lease as a lock (client-go's resourcelock.LeaseLock): the
// election record kept in the Lease spec, written with optimistic concurrency (the
// resourceVersion of the Lease last read or written).
#pragma once

#include "runtime/json/json.h"
#include "runtime/meta/time.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace capstan::client {
class Client;
}

namespace capstan::leader {

// resourcelock.LeaderElectionRecord, in Lease spec terms.
struct Record {
  std::string holder_identity;               // spec.holderIdentity
  std::int64_t lease_duration_seconds = 0;   // spec.leaseDurationSeconds
  meta::TimePoint acquire_time{};            // spec.acquireTime (MicroTime)
  meta::TimePoint renew_time{};              // spec.renewTime (MicroTime)
  std::int64_t leader_transitions = 0;       // spec.leaseTransitions
};

// The Lease spec for a record: every field set, times with 6 fractional digits.
json::Object record_to_spec(const Record& r);
// The record in a Lease spec; missing fields read as zero values.
Record record_from_spec(const json::Value& spec);

class LeaseLock {
 public:
  LeaseLock(client::Client& client, std::string ns, std::string name, std::map<std::string, std::string> labels);

  // Reads the Lease: its record and the spec serialised (what an observer compares to notice
  // a change). Throws client::ApiError (404 when absent) or http::TransportError.
  std::pair<Record, std::string> get();
  // Creates the Lease holding `r` (with the labels). Throws on failure (409 AlreadyExists).
  void create(const Record& r);
  // Writes `r` over the Lease last read or written, with its resourceVersion: a 409 Conflict
  // means someone else wrote it meanwhile. Throws std::logic_error before any get()/create().
  void update(const Record& r);

  // "namespace/name"
  std::string describe() const { return ns_ + "/" + name_; }
  const std::string& ns() const { return ns_; }
  const std::string& name() const { return name_; }
  // The Lease as last seen (null before any get()/create()), for event references.
  json::Value lease() const;

 private:
  client::Client& client_;
  std::string ns_;
  std::string name_;
  std::map<std::string, std::string> labels_;
  std::optional<json::Value> lease_;
};

}  // namespace capstan::leader
