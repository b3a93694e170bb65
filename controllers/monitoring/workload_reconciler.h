// What the Prometheus and Alertmanager reconcilers share: the object read from its informer (one
// whose fields do not decode gets Reconciled False on itself alone), the paused state, the
// children configured (Derived::configure), Available from the StatefulSets
// (Derived::set_availability) and one status write. An error says Reconciled False with an event
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

#include <string>

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
