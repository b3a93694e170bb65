#include "apiserver/simulator/replicaset_controller.h"

#include "apiserver/simulator/objects.h"
#include "runtime/json/patch.h"
#include "runtime/meta/object.h"

#include <algorithm>
#include <exception>

namespace capstan::simulator {
namespace {

const std::string kReplicaSets = "replicasets.apps";
const std::string kPods = "pods";
constexpr int kBurstReplicas = 500;

int phase_rank(std::string_view phase) {
  if (phase == "Pending") return 0;
  if (phase == "Unknown") return 1;
  if (phase == "Running") return 2;
  return 3;
}

std::int64_t deletion_cost(const json::Value& pod) {
  auto v = meta::annotation(pod, kPodDeletionCostAnnotation);
  if (v.empty()) return 0;
  try {
    return std::stoll(std::string(v));
  } catch (const std::exception&) {
    return 0;
  }
}

std::int64_t restarts(const json::Value& pod) {
  std::int64_t n = 0;
  if (const auto* cs = json::get_array(pod, {"status", "containerStatuses"}))
    for (const auto& c : *cs) n += int_at(c, {"restartCount"});
  return n;
}

// Whether `labels` holds every label of the template (fullyLabeledReplicas).
bool fully_labeled(const json::Value& pod, const json::Value& rs) {
  const auto* want = json::get_object(rs, {"spec", "template", "metadata", "labels"});
  if (!want) return true;
  for (const auto& kv : *want)
    if (!kv.value().is_string() || meta::label(pod, kv.key()) != kv.value().get_string()) return false;
  return true;
}

void set_or_omit(json::Object& o, std::string_view key, std::int64_t v) {
  if (v) o[key] = v;
  else o.erase(key);
}

}  // namespace

void sort_pods_for_deletion(std::vector<Object>& pods) {
  std::stable_sort(pods.begin(), pods.end(), [](const Object& oa, const Object& ob) {
    const json::Value& a = *oa;
    const json::Value& b = *ob;
    bool na = json::get_string(a, {"spec", "nodeName"}).empty(), nb = json::get_string(b, {"spec", "nodeName"}).empty();
    if (na != nb) return na;  // unscheduled first
    int pa = phase_rank(pod_phase(a)), pb = phase_rank(pod_phase(b));
    if (pa != pb) return pa < pb;
    bool ra = meta::pod_ready(a), rb = meta::pod_ready(b);
    if (ra != rb) return !ra;  // not ready first
    auto ca = deletion_cost(a), cb = deletion_cost(b);
    if (ca != cb) return ca < cb;
    if (ra && rb) {
      auto ta = pod_ready_since(a), tb = pod_ready_since(b);
      if (ta && tb && *ta != *tb) return *ta > *tb;  // ready for less time first
    }
    auto xa = restarts(a), xb = restarts(b);
    if (xa != xb) return xa > xb;
    auto cta = json::get_string(a, {"metadata", "creationTimestamp"});
    auto ctb = json::get_string(b, {"metadata", "creationTimestamp"});
    if (cta != ctb) return cta > ctb;  // newer first
    return meta::name_of(a) > meta::name_of(b);
  });
}

ReplicaSetController::ReplicaSetController(client::Client& client, Watches& watches)
    : api_(client, "kube-controller-manager"),
      loop_("replicaset", watches, [this](const Key& k) { return reconcile(k); }) {}

void ReplicaSetController::start() {
  loop_.watch(kReplicaSets);
  loop_.watch(kPods, [](const Event& e) { return controller_keys(e, "ReplicaSet", kReplicaSets, kPods); });
  loop_.start();
}

void ReplicaSetController::wake_owners_of_orphan(const Key& k) {
  auto pod = api_.get(kPods, k.ns, k.name);
  if (!pod || has_controller(*pod) || meta::is_deleting(*pod)) return;
  for (auto& name : owners_selecting(api_, kReplicaSets, *pod)) loop_.enqueue(Key{kReplicaSets, k.ns, std::move(name)});
}

std::chrono::milliseconds ReplicaSetController::reconcile(const Key& k) {
  if (k.resource == kPods) {
    wake_owners_of_orphan(k);
    return {};
  }
  auto rs = api_.get(kReplicaSets, k.ns, k.name);
  if (!rs) return {};
  return sync(rs);
}

std::chrono::milliseconds ReplicaSetController::sync(const Object& obj) {
  const json::Value& rs = *obj;
  std::string ns(meta::namespace_of(rs)), name(meta::name_of(rs)), uid(meta::uid_of(rs));
  meta::LabelSelector selector;
  try {
    selector = meta::LabelSelector::from_json(json::find(rs, {"spec", "selector"}));
  } catch (const meta::SelectorError& e) {
    log::warn("replicaset has an invalid selector", {{"replicaset", ns + "/" + name}, {"error", e.what()}});
    return {};
  }
  bool deleting = meta::is_deleting(rs);
  auto owned = claim(api_, kPods, rs, selector, !deleting);
  std::vector<Object> active;
  for (auto& p : owned)
    if (pod_active(*p)) active.push_back(p);
  auto replicas = int_at(rs, {"spec", "replicas"}, 1);

  std::string create_error;
  std::exception_ptr create_failure;
  if (!deleting) {
    auto diff = static_cast<std::int64_t>(active.size()) - replicas;
    if (diff < 0) {
      // Slow start: batches of 1, 2, 4, ... so that a failing template fails fast.
      std::int64_t want = std::min<std::int64_t>(-diff, kBurstReplicas), made = 0;
      for (std::int64_t batch = 1; made < want && create_error.empty(); batch *= 2) {
        for (std::int64_t i = 0; i < batch && made < want; ++i) {
          json::Value pod = pod_from_template(*json::find(rs, {"spec", "template"}), rs);
          json::ensure_object(pod, {"metadata"})["generateName"] = name + "-";
          try {
            api_.create(kPods, ns, std::move(pod));
            ++made;
          } catch (const ApiError& e) {
            create_error = e.message();  // the condition carries the server's words, as upstream
            create_failure = std::current_exception();
            break;
          }
        }
      }
    } else if (diff > 0) {
      sort_pods_for_deletion(active);
      for (std::int64_t i = 0; i < diff && i < static_cast<std::int64_t>(active.size()); ++i)
        api_.remove(kPods, ns, meta::name_of(*active[i]), meta::uid_of(*active[i]));
    }
  }

  // Status from the pods as they are now.
  auto now = meta::Clock::now();
  auto min_ready = int_at(rs, {"spec", "minReadySeconds"});
  std::int64_t n = 0, labeled = 0, ready = 0, available = 0;
  std::optional<std::chrono::milliseconds> next;
  for (const auto& p : api_.list(kPods, ns)) {
    if (!controlled_by(*p, uid) || !pod_active(*p)) continue;
    ++n;
    if (fully_labeled(*p, rs)) ++labeled;
    if (meta::pod_ready(*p)) ++ready;
    if (pod_available(*p, min_ready, now)) ++available;
    if (auto left = until_available(*p, min_ready, now); left && (!next || *left < *next)) next = left;
  }
  api_.mutate(kReplicaSets, ns, name, true, [&](json::Value& cur) {
    if (meta::uid_of(cur) != uid) return false;
    json::Value before = cur;
    auto& status = json::ensure_object(cur, {"status"});
    status["replicas"] = n;
    set_or_omit(status, "fullyLabeledReplicas", labeled);
    set_or_omit(status, "readyReplicas", ready);
    set_or_omit(status, "availableReplicas", available);
    status["observedGeneration"] = meta::generation_of(rs);  // the generation this sync computed from, not a newer one
    if (!create_error.empty()) {
      auto existing = meta::find_condition(cur, "ReplicaFailure");
      json::Object c{{"type", "ReplicaFailure"}, {"status", "True"}, {"reason", "FailedCreate"}, {"message", create_error},
                     {"lastTransitionTime", existing && existing->status == "True" ? existing->last_transition_time
                                                                                    : meta::format_rfc3339(now)}};
      json::Array conds;
      if (const auto* old = status.if_contains("conditions"); old && old->is_array())
        for (const auto& x : old->as_array())
          if (json::get_string(x, {"type"}) != "ReplicaFailure") conds.push_back(x);
      conds.push_back(std::move(c));
      status["conditions"] = std::move(conds);
    } else if (auto* conds = status.if_contains("conditions"); conds && conds->is_array()) {
      auto& arr = conds->as_array();
      arr.erase(std::remove_if(arr.begin(), arr.end(),
                               [](const json::Value& x) { return json::get_string(x, {"type"}) == "ReplicaFailure"; }),
                arr.end());
      if (arr.empty()) status.erase("conditions");
    }
    return !json::deep_equal(before, cur);
  });
  if (create_failure) std::rethrow_exception(create_failure);  // retried with backoff (names the request)
  return next.value_or(std::chrono::milliseconds(0));
}

}  // namespace capstan::simulator
