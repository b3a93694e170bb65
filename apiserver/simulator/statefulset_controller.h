// The StatefulSet controller: pods <sts>-<ordinal> (spec.ordinals.start honoured) with
// stable identity (hostname, subdomain = spec.serviceName, labels
// statefulset.kubernetes.io/pod-name, apps.kubernetes.io/pod-index, controller-revision-hash),
// ControllerRevisions <sts>-<hash> holding each template, PersistentVolumeClaims
// <template>-<sts>-<ordinal> from volumeClaimTemplates (retention per
// persistentVolumeClaimRetentionPolicy), podManagementPolicy OrderedReady (one ordinal at a
// time, each Running and Ready before the next; scale down from the highest) or Parallel,
// updateStrategy RollingUpdate (highest ordinal first down to the partition, one pod at a
// time, waiting for readiness) or OnDelete, revisionHistoryLimit, and the status fields
// `kubectl rollout status` reads.
#pragma once

#include "apiserver/simulator/api.h"
#include "apiserver/simulator/loop.h"
#include "runtime/meta/selector.h"

#include <optional>
#include <string>
#include <vector>

namespace capstan::simulator {

// The parent name and ordinal encoded in a StatefulSet pod's name ("web-3" -> {"web", 3}).
std::optional<std::pair<std::string, int>> parent_and_ordinal(std::string_view pod_name);

// The ControllerRevision data for a StatefulSet's template and its hash (FNV-1 of the
// canonical data and the collision count, encoded like the controller does).
json::Value revision_data(const json::Value& sts);
std::string revision_hash(const json::Value& data, std::int64_t collision_count);

class StatefulSetController {
 public:
  StatefulSetController(client::Client& client, Watches& watches);
  void start();
  void stop() { loop_.stop(); }

 private:
  struct Revisions {
    Object current;
    Object update;
    std::vector<Object> all;  // by revision number
  };

  std::chrono::milliseconds reconcile(const Key& k);
  std::chrono::milliseconds sync(const Object& sts);
  void wake_owners_of_orphan(const Key& pod);
  // Returns nullopt when a hash collision was recorded (the next event retries).
  std::optional<Revisions> revisions(const json::Value& sts, const meta::LabelSelector& selector);
  // Creates the claims of one ordinal; false while one of them is still being deleted.
  bool ensure_claims(const json::Value& sts, int ordinal);
  void delete_claims(const json::Value& sts, int ordinal);
  void sweep_scaled_claims(const json::Value& sts, int first, int end);
  void create_pod(const json::Value& sts, const Revisions& revs, int ordinal);
  void write_status(const json::Value& sts, const Revisions& revs);
  void truncate_history(const json::Value& sts, const Revisions& revs);

  Api api_;
  Loop loop_;
};

}  // namespace capstan::simulator
