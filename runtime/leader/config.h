// Settings of a Lease-based leader election, with client-go's defaults and checks
// (k8s.io/client-go/tools/leaderelection: LeaderElectionConfig, NewLeaderElector).
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <stop_token>
#include <string>

namespace capstan::events {
class Recorder;
}

namespace capstan::leader {

struct Config {
  std::string lease_namespace;  // required
  std::string lease_name;       // required (controller-runtime's LeaderElectionID)
  // This candidate's name in spec.holderIdentity; empty = default_identity().
  std::string identity;
  // How long a non-leader waits, after it last saw the lease change, before taking it over.
  // Written to the Lease in whole seconds (spec.leaseDurationSeconds), so at least 1 s.
  std::chrono::milliseconds lease_duration{15000};
  // How long the leader keeps retrying a failing renewal before it gives up leading.
  std::chrono::milliseconds renew_deadline{10000};
  // The pause between attempts (acquisition is jittered by up to 1.2x on top, as client-go).
  std::chrono::milliseconds retry_period{2000};
  // On a clean stop, hand the lease over at once (holderIdentity "", leaseDurationSeconds 1).
  bool release_on_cancel = true;
  // Labels put on the Lease (added to existing ones on update, as LeaseLock.Labels).
  std::map<std::string, std::string> labels;
  // When set, "<identity> became leader" / "<identity> stopped leading" Events (reason
  // LeaderElection) are recorded on the Lease, as client-go's LeaseLock.RecordEvent.
  events::Recorder* recorder = nullptr;
};

struct Callbacks {
  // Runs on its own thread when this candidate becomes leader. The token is stopped when
  // leadership ends (lost or stop()); the function must return soon after. Optional.
  std::function<void(std::stop_token leading)> on_started_leading;
  // Runs once when run() ends, whether or not this candidate ever led (as client-go's
  // deferred OnStoppedLeading). LeaderElector::lost() tells a lost lease from a stop. Optional.
  std::function<void()> on_stopped_leading;
  // Runs on the elector's thread whenever the observed holder changes ("" when the lease was
  // released and nobody holds it yet). Must not block. Optional.
  std::function<void(const std::string& identity)> on_new_leader;
};

// client-go's JitterFactor: the renew deadline must exceed 1.2 retry periods.
inline constexpr double kJitterFactor = 1.2;

// Throws std::invalid_argument naming the offending values unless
// lease_duration > renew_deadline > 1.2 * retry_period, retry_period > 0, lease_duration >= 1s,
// and the namespace, name and identity are set (identity after defaulting).
void validate(const Config& config);

// "<hostname>_<random uuid>", as controller-runtime's default leader-election identity.
std::string default_identity();

}  // namespace capstan::leader
