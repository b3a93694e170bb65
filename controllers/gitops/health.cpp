#include "controllers/gitops/health.h"

namespace capstan::gitops {
namespace {

Health current(std::string message = "") { return {HealthStatus::kCurrent, std::move(message)}; }
Health in_progress(std::string message) { return {HealthStatus::kInProgress, std::move(message)}; }
Health failed(std::string message) { return {HealthStatus::kFailed, std::move(message)}; }

std::int64_t integer(const json::Value& o, std::initializer_list<std::string_view> path, std::int64_t fallback = 0) {
  const auto* v = json::find(o, path);
  return v && v->is_int64() ? v->get_int64() : v && v->is_uint64() ? static_cast<std::int64_t>(v->get_uint64()) : fallback;
}

const json::Value* condition(const json::Value& o, std::string_view type) {
  if (const auto* conditions = json::get_array(o, {"status", "conditions"}))
    for (const auto& c : *conditions)
      if (json::get_string(c, {"type"}) == type) return &c;
  return nullptr;
}

bool condition_is(const json::Value& o, std::string_view type, std::string_view status) {
  const auto* c = condition(o, type);
  return c && json::get_string(*c, {"status"}) == status;
}

std::string condition_message(const json::Value& o, std::string_view type) {
  const auto* c = condition(o, type);
  if (!c) return "";
  std::string reason(json::get_string(*c, {"reason"})), message(json::get_string(*c, {"message"}));
  return reason.empty() ? message : message.empty() ? reason : reason + ": " + message;
}

std::string of(std::int64_t have, std::int64_t want) { return std::to_string(have) + "/" + std::to_string(want); }

Health deployment(const json::Value& o) {
  const auto replicas = integer(o, {"spec", "replicas"}, 1);
  const auto* progressing = condition(o, "Progressing");
  if (progressing && json::get_string(*progressing, {"reason"}) == "ProgressDeadlineExceeded")
    return failed("progress deadline exceeded: " + std::string(json::get_string(*progressing, {"message"})));
  const auto updated = integer(o, {"status", "updatedReplicas"}), total = integer(o, {"status", "replicas"});
  const auto available = integer(o, {"status", "availableReplicas"});
  if (updated < replicas) return in_progress("updated replicas " + of(updated, replicas));
  if (total > updated) return in_progress("pending termination: " + std::to_string(total - updated) + " old replicas");
  if (available < updated) return in_progress("available replicas " + of(available, updated));
  return current("Deployment is available. Replicas: " + std::to_string(replicas));
}

Health stateful_set(const json::Value& o) {
  if (json::get_string(o, {"spec", "updateStrategy", "type"}) == "OnDelete") return current("OnDelete update strategy: observed");
  const auto replicas = integer(o, {"spec", "replicas"}, 1);
  const auto ready = integer(o, {"status", "readyReplicas"});
  if (ready < replicas) return in_progress("ready replicas " + of(ready, replicas));
  if (const auto partition = integer(o, {"spec", "updateStrategy", "rollingUpdate", "partition"}); partition > 0) {
    const auto updated = integer(o, {"status", "updatedReplicas"});
    if (updated < replicas - partition) return in_progress("partitioned roll-out: updated replicas " + of(updated, replicas - partition));
    return current("partitioned roll-out complete");
  }
  if (json::get_string(o, {"status", "currentRevision"}) != json::get_string(o, {"status", "updateRevision"}))
    return in_progress("waiting for the roll-out to finish (revision " + std::string(json::get_string(o, {"status", "updateRevision"})) + ")");
  const auto current_replicas = integer(o, {"status", "currentReplicas"});
  if (current_replicas < replicas) return in_progress("current replicas " + of(current_replicas, replicas));
  return current("StatefulSet is ready. Replicas: " + std::to_string(replicas));
}

Health replica_set(const json::Value& o) {
  const auto replicas = integer(o, {"spec", "replicas"}, 1);
  const auto ready = integer(o, {"status", "readyReplicas"}), available = integer(o, {"status", "availableReplicas"});
  if (ready < replicas) return in_progress("ready replicas " + of(ready, replicas));
  if (available < replicas) return in_progress("available replicas " + of(available, replicas));
  return current();
}

Health daemon_set(const json::Value& o) {
  if (!json::find(o, {"status", "desiredNumberScheduled"})) return in_progress("not scheduled yet");
  const auto desired = integer(o, {"status", "desiredNumberScheduled"});
  const auto updated = integer(o, {"status", "updatedNumberScheduled"}), available = integer(o, {"status", "numberAvailable"});
  const auto ready = integer(o, {"status", "numberReady"});
  if (updated < desired) return in_progress("updated pods " + of(updated, desired));
  if (available < desired) return in_progress("available pods " + of(available, desired));
  if (ready < desired) return in_progress("ready pods " + of(ready, desired));
  return current();
}

Health job(const json::Value& o) {
  if (condition_is(o, "Failed", "True")) return failed("Job failed: " + condition_message(o, "Failed"));
  if (condition_is(o, "Complete", "True")) return current("Job completed");
  return in_progress("Job in progress: " + std::to_string(integer(o, {"status", "succeeded"})) + " succeeded");
}

Health pod(const json::Value& o) {
  std::string_view phase = json::get_string(o, {"status", "phase"});
  if (phase == "Succeeded") return current("Pod succeeded");
  if (phase == "Failed") return failed("Pod failed: " + std::string(json::get_string(o, {"status", "message"})));
  if (phase == "Running" && condition_is(o, "Ready", "True")) return current("Pod is Ready");
  return in_progress("Pod phase " + std::string(phase.empty() ? "Pending" : phase) + ", not Ready");
}

// Capstan's own kinds always report a Ready condition: until they do, their controller has not
// looked at them yet.
bool reports_ready(const json::Value& o) {
  std::string_view api_version = json::get_string(o, {"apiVersion"});
  std::string_view group = api_version.substr(0, api_version.find('/'));
  return group == "capstan.dev" || group.ends_with(".capstan.dev");
}

Health by_conditions(const json::Value& o) {
  if (condition_is(o, "Stalled", "True")) return failed(condition_message(o, "Stalled"));
  if (condition_is(o, "Reconciling", "True")) return in_progress(condition_message(o, "Reconciling"));
  const auto* ready = condition(o, "Ready");
  if (!ready) return reports_ready(o) ? in_progress("no Ready condition yet") : current();
  if (json::get_string(*ready, {"status"}) == "True") return current(condition_message(o, "Ready"));
  return in_progress("Ready=" + std::string(json::get_string(*ready, {"status"})) + ": " + condition_message(o, "Ready"));
}

}  // namespace

std::string_view to_string(HealthStatus s) {
  switch (s) {
    case HealthStatus::kCurrent: return "Current";
    case HealthStatus::kInProgress: return "InProgress";
    case HealthStatus::kFailed: return "Failed";
  }
  return "Unknown";
}

Health assess_health(const json::Value& o) {
  const auto generation = integer(o, {"metadata", "generation"});
  if (const auto* observed = json::find(o, {"status", "observedGeneration"}); observed && generation > 0) {
    const auto seen = integer(o, {"status", "observedGeneration"});
    if (seen < generation) return in_progress("generation " + std::to_string(generation) + " not observed yet (" + std::to_string(seen) + ")");
  }
  std::string_view kind = json::get_string(o, {"kind"});
  if (kind == "Deployment") return deployment(o);
  if (kind == "StatefulSet") return stateful_set(o);
  if (kind == "ReplicaSet") return replica_set(o);
  if (kind == "DaemonSet") return daemon_set(o);
  if (kind == "Job") return job(o);
  if (kind == "Pod") return pod(o);
  if (kind == "PersistentVolumeClaim")
    return json::get_string(o, {"status", "phase"}) == "Bound" ? current("Bound") : in_progress("not Bound yet");
  if (kind == "Service") {
    const auto* ingress = json::get_array(o, {"status", "loadBalancer", "ingress"});
    if (json::get_string(o, {"spec", "type"}) == "LoadBalancer" && (!ingress || ingress->empty()))
      return in_progress("waiting for a load balancer address");
    return current();
  }
  if (kind == "Namespace")
    return json::get_string(o, {"status", "phase"}) == "Terminating" ? in_progress("Namespace is terminating") : current();
  if (kind == "CustomResourceDefinition") {
    if (condition_is(o, "NamesAccepted", "False")) return failed("names not accepted: " + condition_message(o, "NamesAccepted"));
    return condition_is(o, "Established", "True") ? current("Established") : in_progress("not Established yet");
  }
  return by_conditions(o);
}

}  // namespace capstan::gitops
