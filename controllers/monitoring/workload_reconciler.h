// What the Prometheus and Alertmanager reconcilers share: the object read from its informer (one
// whose fields do not decode gets Reconciled False on itself alone), the paused state, the
// children configured (Derived::configure), Available from the StatefulSets
// (Derived::set_availability, through availability_from) and one status write. An error says Reconciled False with an event
// and is thrown on, so the request is retried with backoff.
#pragma once

#include "apis/monitoring/v1/group.h"
#include "controllers/monitoring/env.h"
#include "runtime/cache/informer.h"
#include "runtime/controller/reconcile.h"
#include "runtime/controller/status.h"
#include "runtime/events/event.h"
#include "runtime/meta/gvk.h"
#include "runtime/meta/object.h"

#include <algorithm>
#include <string>
#include <vector>

namespace capstan::monitoring {

// A StatefulSet's pods as its status counts them (available: availableReplicas, or readyReplicas
// from API servers that do not report it).
struct ReplicaCounts {
  std::int32_t replicas = 0, updated = 0, available = 0;
};
inline ReplicaCounts replica_counts(const json::Value& statefulset) {
  auto num = [&](std::string_view key) -> std::int32_t {
    const auto* n = json::find(statefulset, {"status", key});
    return n && n->is_int64() ? static_cast<std::int32_t>(n->as_int64()) : 0;
  };
  return {num("replicas"), num("updatedReplicas"),
          json::find(statefulset, {"status", "availableReplicas"}) ? num("availableReplicas") : num("readyReplicas")};
}

template <class Derived, class Resource>
class WorkloadReconciler {
 public:
  WorkloadReconciler(Env& env, cache::Informer& informer, const meta::ResourceType& type, const controller::Request& request,
                     controller::Context& ctx)
      : env_(env), informer_(informer), type_(type), request_(request), ctx_(ctx) {}

  controller::Result run() {
    namespace v1 = apis::monitoring::v1;
    auto cached = informer_.get(request_.ns, request_.name);
    if (!cached || cached->deleting()) return controller::Result::done();  // owned objects go with it (GC)
    before_ = cached->value();
    generation_ = meta::generation_of(before_);
    try {
      obj_ = Resource::from_json(before_);
    } catch (const apis::codec::DecodeError& e) {  // written around the CRD schema: said on this object only
      json::Value obj = before_;
      controller::set_condition(obj, v1::condition::kReconciled, "False", v1::reason::kReconcileError, e.what());
      controller::write_status(env_.client, type_.gvr, before_, obj);
      ctx_.log.warn("unreadable " + type_.kind, {{"error", e.what()}});
      return controller::Result::done();
    }
    obj_.status.paused = obj_.spec.paused;
    self().prepare_status();
    if (obj_.spec.paused) {
      condition(v1::condition::kReconciled, "Unknown", v1::reason::kPaused, "reconciliation is paused");
      write();
      return controller::Result::done();
    }
    try {
      self().configure();
    } catch (const std::exception& e) {
      std::string message = "reconciling " + type_.kind + " " + request_.key() + ": " + e.what();
      condition(v1::condition::kReconciled, "False", v1::reason::kReconcileError, message);
      self().set_availability();
      if (write()) env_.event(before_, events::kWarning, v1::reason::kReconcileError, message);
      throw;
    }
    self().set_availability();
    write();
    return controller::Result::after(env_.options.resync);
  }

 protected:
  void condition(std::string_view type, std::string_view status, std::string_view reason, const std::string& message) {
    controller::set_condition(obj_.status.conditions, type, status, reason, message, generation_);
  }
  bool write() { return controller::write_status(env_.client, type_.gvr, before_, obj_.status); }
  // Status fields that follow the spec alone (Prometheus: shards, selector); none by default.
  void prepare_status() {}

  // The replica counts (summed) and Available from `statefulsets`, each meant to run `per_set`
  // pods: False naming those not there yet, else True, Degraded or False naming each one short
  // ("shard <i>: " before each when `per_shard`).
  void availability_from(const std::vector<std::string>& statefulsets, std::int32_t per_set, bool per_shard) {
    namespace v1 = apis::monitoring::v1;
    auto& status = obj_.status;
    status.replicas = status.available_replicas = status.updated_replicas = 0;
    std::vector<std::string> missing, short_sets;
    for (std::size_t i = 0; i < statefulsets.size(); ++i) {
      auto sts = env_.statefulsets.get(request_.ns, statefulsets[i]);
      if (!sts) {
        missing.push_back(statefulsets[i]);
        continue;
      }
      const ReplicaCounts counts = replica_counts(sts->value());
      status.replicas += counts.replicas;
      status.updated_replicas += counts.updated;
      status.available_replicas += counts.available;
      if (counts.available < per_set)
        short_sets.push_back((per_shard ? "shard " + std::to_string(i) + ": " : std::string()) + "pod(s) not ready: " +
                             std::to_string(per_set - counts.available) + " of " + std::to_string(per_set));
    }
    const std::int32_t desired = per_set * static_cast<std::int32_t>(statefulsets.size());
    status.unavailable_replicas = std::max(0, desired - status.available_replicas);
    auto join = [](const std::vector<std::string>& parts) {
      std::string out;
      for (const auto& p : parts) out += (out.empty() ? "" : "; ") + p;
      return out;
    };
    if (!missing.empty())
      condition(v1::condition::kAvailable, "False", v1::reason::kStatefulSetNotFound, "not there yet: StatefulSet " + join(missing));
    else if (short_sets.empty() && desired > 0)
      condition(v1::condition::kAvailable, "True", "", "");
    else if (status.available_replicas == 0)
      condition(v1::condition::kAvailable, "False", v1::reason::kNoPodReady, join(short_sets));
    else
      condition(v1::condition::kAvailable, "Degraded", v1::reason::kSomePodsNotReady, join(short_sets));
  }

  Env& env_;
  cache::Informer& informer_;
  const meta::ResourceType& type_;
  const controller::Request& request_;
  controller::Context& ctx_;
  json::Value before_;
  Resource obj_;
  std::int64_t generation_ = 0;

 private:
  Derived& self() { return static_cast<Derived&>(*this); }
};

}  // namespace capstan::monitoring
