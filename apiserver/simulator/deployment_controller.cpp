#include "apiserver/simulator/deployment_controller.h"

#include "apiserver/simulator/objects.h"
#include "apiserver/simulator/rollout.h"
#include "runtime/json/patch.h"
#include "runtime/meta/object.h"

#include <algorithm>

namespace capstan::simulator {
namespace {

const std::string kDeployments = "deployments.apps";
const std::string kReplicaSets = "replicasets.apps";
const std::string kPods = "pods";
const std::string kPodOwner = "pod-owner";  // a key naming the ReplicaSet of a changed pod

std::optional<int> int_annotation(const json::Value& obj, std::string_view key) {
  auto v = meta::annotation(obj, key);
  if (v.empty()) return std::nullopt;
  try {
    return std::stoi(std::string(v));
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::int64_t revision_of(const json::Value& rs) {
  auto v = meta::annotation(rs, kRevisionAnnotation);
  try {
    return v.empty() ? 0 : std::stoll(std::string(v));
  } catch (const std::exception&) {
    return 0;
  }
}

RsState state_of(const json::Value& rs) {
  RsState s;
  s.name = meta::name_of(rs);
  s.replicas = static_cast<int>(int_at(rs, {"spec", "replicas"}, 1));
  s.status_replicas = static_cast<int>(int_at(rs, {"status", "replicas"}));
  s.available = static_cast<int>(int_at(rs, {"status", "availableReplicas"}));
  s.desired_annotation = int_annotation(rs, kDesiredReplicasAnnotation);
  s.max_annotation = int_annotation(rs, kMaxReplicasAnnotation);
  s.created = json::get_string(rs, {"metadata", "creationTimestamp"});
  return s;
}

// The RS template equals the deployment's once the pod-template-hash label is ignored.
bool same_template(const json::Value& rs, const json::Value& d) {
  const auto* a = json::find(rs, {"spec", "template"});
  const auto* b = json::find(d, {"spec", "template"});
  if (!a || !b) return false;
  json::Value x = *a, y = *b;
  for (auto* v : {&x, &y}) {
    if (auto* labels = json::find(*v, {"metadata", "labels"}); labels && labels->is_object()) {
      labels->as_object().erase(kPodTemplateHashLabel);
      if (labels->as_object().empty()) json::erase(*v, {"metadata", "labels"});
    }
  }
  return json::deep_equal(x, y);
}

bool skip_copy_annotation(std::string_view k) {
  return k == "kubectl.kubernetes.io/last-applied-configuration" || k == kRevisionAnnotation ||
         k == kRevisionHistoryAnnotation || k == kDesiredReplicasAnnotation || k == kMaxReplicasAnnotation ||
         k == "deprecated.deployment.rollback.to";
}

// Copies the deployment's annotations onto the RS (those a user set), returns whether any changed.
bool copy_annotations(const json::Value& d, json::Value& rs) {
  const auto* src = json::get_object(d, {"metadata", "annotations"});
  if (!src) return false;
  bool changed = false;
  auto& dst = json::ensure_object(rs, {"metadata", "annotations"});
  for (const auto& kv : *src) {
    if (skip_copy_annotation(kv.key())) continue;
    auto it = dst.find(kv.key());
    if (it == dst.end() || it->value() != kv.value()) {
      dst[kv.key()] = kv.value();
      changed = true;
    }
  }
  return changed;
}

bool set_replica_annotations(json::Value& rs, int desired, int max) {
  auto& ann = json::ensure_object(rs, {"metadata", "annotations"});
  bool changed = false;
  for (auto [k, v] : {std::pair<std::string_view, int>{kDesiredReplicasAnnotation, desired}, {kMaxReplicasAnnotation, max}}) {
    std::string s = std::to_string(v);
    auto it = ann.find(k);
    if (it == ann.end() || !it->value().is_string() || it->value().get_string() != s) {
      ann[k] = s;
      changed = true;
    }
  }
  return changed;
}

// Whether every old ReplicaSet's pods are down to its spec.replicas (read fresh).
bool old_pods_settled_in(Api& api, const std::vector<Object>& old_rss) {
  for (const auto& rs : old_rss) {
    auto fresh = api.get(kReplicaSets, meta::namespace_of(*rs), meta::name_of(*rs));
    if (!fresh) continue;
    if (int_at(*fresh, {"status", "replicas"}) > int_at(*fresh, {"spec", "replicas"}, 1) ||
        int_at(*fresh, {"status", "observedGeneration"}) < meta::generation_of(*fresh))
      return false;
  }
  return true;
}

}  // namespace

DeploymentController::DeploymentController(client::Client& client, Watches& watches)
    : api_(client, "kube-controller-manager"),
      loop_("deployment", watches, [this](const Key& k) { return reconcile(k); }) {}

void DeploymentController::start() {
  loop_.watch(kDeployments);
  loop_.watch(kReplicaSets, [](const Event& e) { return controller_keys(e, "Deployment", kDeployments, kReplicaSets); });
  // Recreate waits for the old pods to be gone: pod events reach it through their ReplicaSet.
  loop_.watch(kPods, [](const Event& e) { return controller_keys(e, "ReplicaSet", kPodOwner); });
  loop_.start();
}

std::chrono::milliseconds DeploymentController::reconcile(const Key& k) {
  if (k.resource == kReplicaSets) {
    wake_owners_of_orphan(k);
    return {};
  }
  if (k.resource == kPodOwner) {
    wake_recreate_owner(k);
    return {};
  }
  auto d = api_.get(kDeployments, k.ns, k.name);
  if (!d) return {};
  return sync(d);
}

void DeploymentController::wake_owners_of_orphan(const Key& k) {
  auto rs = api_.get(kReplicaSets, k.ns, k.name);
  if (!rs || has_controller(*rs) || meta::is_deleting(*rs)) return;
  for (auto& name : owners_selecting(api_, kDeployments, *rs)) loop_.enqueue(Key{kDeployments, k.ns, std::move(name)});
}

void DeploymentController::wake_recreate_owner(const Key& k) {
  auto rs = api_.get(kReplicaSets, k.ns, k.name);
  if (!rs) return;
  auto owner = meta::controller_of(*rs);
  if (!owner || owner->kind != "Deployment") return;
  auto d = api_.get(kDeployments, k.ns, owner->name);
  if (d && !is_rolling_update(*d)) loop_.enqueue(Key{kDeployments, k.ns, owner->name});
}

DeploymentController::Sets DeploymentController::split(const json::Value& d, const std::vector<Object>& rss) const {
  std::vector<Object> sorted = rss;
  sort_by_age(sorted);
  Sets s;
  for (auto& rs : sorted) {
    if (!s.new_rs && same_template(*rs, d)) s.new_rs = rs;
    else s.old_rss.push_back(rs);
  }
  return s;
}

bool DeploymentController::ensure_new_rs(const json::Value& d, Sets& sets, bool create, bool& created) {
  std::string ns(meta::namespace_of(d)), dname(meta::name_of(d));
  std::int64_t max_old = 0;
  for (const auto& rs : sets.old_rss) max_old = std::max(max_old, revision_of(*rs));
  std::int64_t new_revision = max_old + 1;
  int replicas = deployment_replicas(d);
  int surge = max_surge(d);

  if (sets.new_rs) {
    // Bring the existing new RS in line: revision (a rollback reuses an old RS), the
    // deployment's annotations, minReadySeconds.
    const json::Value& cur = **sets.new_rs;
    api_.mutate(kReplicaSets, ns, meta::name_of(cur), false, [&](json::Value& rs) {
      bool changed = copy_annotations(d, rs);
      std::int64_t have = revision_of(rs);
      if (have < new_revision) {
        auto& ann = json::ensure_object(rs, {"metadata", "annotations"});
        if (have > 0) {
          std::string hist(meta::annotation(rs, kRevisionHistoryAnnotation));
          ann[kRevisionHistoryAnnotation] = hist.empty() ? std::to_string(have) : hist + "," + std::to_string(have);
        }
        ann[kRevisionAnnotation] = std::to_string(new_revision);
        changed = true;
      }
      auto min_ready = int_at(d, {"spec", "minReadySeconds"});
      if (int_at(rs, {"spec", "minReadySeconds"}) != min_ready) {
        json::ensure_object(rs, {"spec"})["minReadySeconds"] = min_ready;
        changed = true;
      }
      return changed;
    });
    if (auto fresh = api_.get(kReplicaSets, ns, meta::name_of(cur))) sets.new_rs = fresh;
  } else {
    if (!create) return true;
    auto collision = json::get_int(d, {"status", "collisionCount"});
    std::string hash = pod_template_hash(*json::find(d, {"spec", "template"}), collision);
    json::Value tmpl = *json::find(d, {"spec", "template"});
    json::ensure_object(tmpl, {"metadata", "labels"})[kPodTemplateHashLabel] = hash;
    json::Value selector = json::find(d, {"spec", "selector"}) ? *json::find(d, {"spec", "selector"}) : json::Value(json::Object{});
    json::ensure_object(selector, {"matchLabels"})[kPodTemplateHashLabel] = hash;
    int new_replicas = replicas;
    if (is_rolling_update(d)) {
      int all = 0;
      for (const auto& rs : sets.old_rss) all += static_cast<int>(int_at(*rs, {"spec", "replicas"}, 1));
      new_replicas = old_pods_settled_in(api_, sets.old_rss) ? rolling_new_replicas(replicas, surge, all, 0) : 0;
    }
    json::Value rs = json::Object{
        {"apiVersion", "apps/v1"},
        {"kind", "ReplicaSet"},
        {"metadata", json::Object{{"name", dname + "-" + hash},
                                  {"namespace", ns},
                                  {"labels", *json::find(tmpl, {"metadata", "labels"})},
                                  {"ownerReferences", json::Array{meta::controller_reference(d).to_json()}}}},
        {"spec", json::Object{{"replicas", new_replicas},
                              {"minReadySeconds", int_at(d, {"spec", "minReadySeconds"})},
                              {"selector", selector},
                              {"template", tmpl}}}};
    copy_annotations(d, rs);
    auto& ann = json::ensure_object(rs, {"metadata", "annotations"});
    ann[kRevisionAnnotation] = std::to_string(new_revision);
    set_replica_annotations(rs, replicas, replicas + surge);
    try {
      api_.create(kReplicaSets, ns, std::move(rs));
      created = true;
    } catch (const ApiError& e) {
      if (e.code() != 409 || e.reason() != "AlreadyExists") throw;
      auto existing = api_.get(kReplicaSets, ns, dname + "-" + hash);
      if (!(existing && controlled_by(*existing, meta::uid_of(d)) && same_template(*existing, d))) {
        // A different ReplicaSet has that name: hash again with a bumped collisionCount.
        api_.mutate(kDeployments, ns, dname, true, [&](json::Value& cur) {
          if (meta::uid_of(cur) != meta::uid_of(d)) return false;
          json::ensure_object(cur, {"status"})["collisionCount"] = collision.value_or(0) + 1;
          return true;
        });
        return false;
      }
    }
    sets.new_rs = api_.get(kReplicaSets, ns, dname + "-" + hash);
    if (!*sets.new_rs) sets.new_rs.reset();
  }
  // The deployment carries the revision of its new RS.
  if (sets.new_rs) {
    std::string rev(meta::annotation(**sets.new_rs, kRevisionAnnotation));
    if (!rev.empty() && meta::annotation(d, kRevisionAnnotation) != rev)
      api_.mutate(kDeployments, ns, dname, false, [&](json::Value& cur) {
        if (meta::uid_of(cur) != meta::uid_of(d) || meta::annotation(cur, kRevisionAnnotation) == rev) return false;
        json::ensure_object(cur, {"metadata", "annotations"})[kRevisionAnnotation] = rev;
        return true;
      });
  }
  return true;
}

void DeploymentController::scale(const json::Value& d, const Object& rs, int size) {
  int replicas = deployment_replicas(d);
  int max = replicas + max_surge(d);
  api_.mutate(kReplicaSets, meta::namespace_of(*rs), meta::name_of(*rs), false, [&](json::Value& cur) {
    if (meta::uid_of(cur) != meta::uid_of(*rs)) return false;
    bool changed = false;
    if (auto from = int_at(cur, {"spec", "replicas"}, 1); from != size) {
      log::debug("scaling replicaset", {{"deployment", std::string(meta::namespace_of(d)) + "/" + std::string(meta::name_of(d))},
                                        {"replicaset", std::string(meta::name_of(cur))}, {"from", from}, {"to", size}});
      json::ensure_object(cur, {"spec"})["replicas"] = size;
      changed = true;
    }
    changed |= set_replica_annotations(cur, replicas, max);
    return changed;
  });
}

bool DeploymentController::scale_proportionally(const json::Value& d, Sets& sets) {
  std::vector<Object> all;
  int new_index = -1;
  if (sets.new_rs) {
    new_index = 0;
    all.push_back(*sets.new_rs);
  }
  for (auto& rs : sets.old_rss) all.push_back(rs);
  std::vector<RsState> states;
  for (auto& rs : all) states.push_back(state_of(*rs));
  auto sizes = proportional_sizes(states, new_index, deployment_replicas(d), max_surge(d), is_rolling_update(d),
                                  static_cast<int>(int_at(d, {"status", "replicas"})));
  bool changed = false;
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (sizes[i] == states[i].replicas && (states[i].replicas == 0 || states[i].desired_annotation == deployment_replicas(d)))
      continue;
    scale(d, all[i], sizes[i]);
    changed = true;
  }
  return changed;
}

bool DeploymentController::rollout_rolling(const json::Value& d, Sets& sets) {
  int desired = deployment_replicas(d);
  int surge = max_surge(d);
  if (sets.new_rs) {
    int cur = static_cast<int>(int_at(**sets.new_rs, {"spec", "replicas"}, 1));
    int all = cur;
    for (const auto& rs : sets.old_rss) all += static_cast<int>(int_at(*rs, {"spec", "replicas"}, 1));
    int want = rolling_new_replicas(desired, surge, all, cur);
    // Surge only once the old ReplicaSets have shed the pods they were told to: otherwise a
    // new pod could start before an old one is gone and pods exceed replicas + maxSurge.
    if (want > cur && !old_pods_settled_in(api_, sets.old_rss)) want = cur;
    if (want != cur) {
      scale(d, *sets.new_rs, want);
      if (want > cur) return true;  // scaled up: let the pods come
    }
  }
  std::vector<RsState> olds;
  for (const auto& rs : sets.old_rss) olds.push_back(state_of(*rs));
  RsState fresh = sets.new_rs ? state_of(**sets.new_rs) : RsState{};
  if (sets.new_rs) {
    if (auto again = api_.get(kReplicaSets, meta::namespace_of(d), meta::name_of(**sets.new_rs)))
      fresh = state_of(*again);
  }
  auto sizes = rolling_scale_down(olds, fresh, desired, max_unavailable(d));
  bool changed = false;
  for (std::size_t i = 0; i < olds.size(); ++i)
    if (sizes[i] != olds[i].replicas) {
      scale(d, sets.old_rss[i], sizes[i]);
      changed = true;
    }
  return changed;
}

bool DeploymentController::rollout_recreate(const json::Value& d, Sets& sets) {
  bool scaled = false;
  for (const auto& rs : sets.old_rss)
    if (int_at(*rs, {"spec", "replicas"}, 1) != 0) {
      scale(d, rs, 0);
      scaled = true;
    }
  if (scaled) return true;
  // Wait until every old pod is gone (or finished).
  for (const auto& p : api_.list(kPods, meta::namespace_of(d))) {
    if (pod_terminal(*p)) continue;
    for (const auto& rs : sets.old_rss)
      if (controlled_by(*p, meta::uid_of(*rs))) return true;
  }
  bool created = false;
  if (!sets.new_rs && !ensure_new_rs(d, sets, true, created)) return true;
  if (sets.new_rs && int_at(**sets.new_rs, {"spec", "replicas"}, 1) != deployment_replicas(d)) {
    scale(d, *sets.new_rs, deployment_replicas(d));
    return true;
  }
  return created;
}

void DeploymentController::cleanup(const json::Value& d, const Sets& sets) {
  auto limit = json::get_int(d, {"spec", "revisionHistoryLimit"});
  if (!limit) return;
  std::vector<Object> alive;
  for (const auto& rs : sets.old_rss)
    if (!meta::is_deleting(*rs)) alive.push_back(rs);
  std::int64_t diff = static_cast<std::int64_t>(alive.size()) - *limit;
  if (diff <= 0) return;
  std::stable_sort(alive.begin(), alive.end(),
                   [](const Object& a, const Object& b) { return revision_of(*a) < revision_of(*b); });
  for (std::int64_t i = 0; i < diff; ++i) {
    const json::Value& rs = *alive[i];
    if (int_at(rs, {"status", "replicas"}) != 0 || int_at(rs, {"spec", "replicas"}, 1) != 0 ||
        meta::generation_of(rs) > int_at(rs, {"status", "observedGeneration"}))
      continue;
    api_.remove(kReplicaSets, meta::namespace_of(rs), meta::name_of(rs), meta::uid_of(rs));
  }
}

std::chrono::milliseconds DeploymentController::sync(const Object& obj) {
  const json::Value& d = *obj;
  std::string ns(meta::namespace_of(d)), name(meta::name_of(d));
  meta::LabelSelector selector;
  try {
    selector = meta::LabelSelector::from_json(json::find(d, {"spec", "selector"}));
  } catch (const meta::SelectorError& e) {
    log::warn("deployment has an invalid selector", {{"deployment", ns + "/" + name}, {"error", e.what()}});
    return {};
  }
  if (selector.empty()) return {};  // would select everything: refused, as upstream does
  try {
    max_surge(d);
  } catch (const std::invalid_argument& e) {
    log::warn("deployment has an invalid rolling update strategy", {{"deployment", ns + "/" + name}, {"error", e.what()}});
    return {};
  }
  bool deleting = meta::is_deleting(d);
  auto rss = claim(api_, kReplicaSets, d, selector, !deleting);
  Sets sets = split(d, rss);
  if (deleting) return write_status(d, sets, false, false);

  bool paused = json::get_bool(d, {"spec", "paused"});
  std::vector<RsState> states;
  if (sets.new_rs) states.push_back(state_of(**sets.new_rs));
  for (const auto& rs : sets.old_rss) states.push_back(state_of(*rs));
  if (paused || is_scaling_event(states, deployment_replicas(d))) {
    bool created = false;
    if (!ensure_new_rs(d, sets, false, created)) return {};
    scale_proportionally(d, sets);
    if (paused) cleanup(d, sets);
    return write_status(d, sets, false, false);
  }

  bool created = false;
  bool rolling = is_rolling_update(d);
  if (rolling) {
    if (!ensure_new_rs(d, sets, true, created)) return {};
    rollout_rolling(d, sets);
  } else {
    if (!ensure_new_rs(d, sets, false, created)) return {};
    bool had_new = sets.new_rs.has_value();
    rollout_recreate(d, sets);
    created = !had_new && sets.new_rs.has_value();
  }
  // Complete (by the status we had): prune old revisions.
  const json::Value* st = json::find(d, {"status"});
  int desired = deployment_replicas(d);
  if (st && int_at(d, {"status", "updatedReplicas"}) == desired && int_at(d, {"status", "replicas"}) == desired &&
      int_at(d, {"status", "availableReplicas"}) == desired &&
      int_at(d, {"status", "observedGeneration"}) >= meta::generation_of(d))
    cleanup(d, sets);
  return write_status(d, sets, true, created);
}

}  // namespace capstan::simulator
