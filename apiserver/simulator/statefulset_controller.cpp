#include "apiserver/simulator/statefulset_controller.h"

#include "apiserver/simulator/objects.h"
#include "runtime/json/patch.h"
#include "runtime/meta/object.h"

#include <algorithm>
#include <charconv>
#include <set>

namespace capstan::simulator {
namespace {

const std::string kStatefulSets = "statefulsets.apps";
const std::string kRevisions = "controllerrevisions.apps";
const std::string kPods = "pods";
const std::string kClaims = "persistentvolumeclaims";
constexpr std::chrono::milliseconds kClaimWait{1000};

std::optional<int> parse_int(std::string_view s) {
  if (s.empty() || s.size() > 9) return std::nullopt;
  int v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || v < 0) return std::nullopt;
  return v;
}

bool running_and_ready(const json::Value& pod) { return pod_phase(pod) == "Running" && meta::pod_ready(pod); }
bool healthy(const json::Value& pod) { return running_and_ready(pod) && !meta::is_deleting(pod); }

int ordinal_of(const json::Value& pod) {
  auto p = parent_and_ordinal(meta::name_of(pod));
  return p ? p->second : -1;
}

std::string_view pod_revision(const json::Value& pod) { return meta::label(pod, kControllerRevisionHashLabel); }

std::int64_t revision_number(const json::Value& cr) { return int_at(cr, {"revision"}); }

json::Value template_of_revision(const json::Value& cr) {
  json::Value t = json::find(cr, {"data", "spec", "template"}) ? *json::find(cr, {"data", "spec", "template"})
                                                                : json::Value(json::Object{});
  if (t.is_object()) t.as_object().erase("$patch");
  return t;
}

std::string_view retention(const json::Value& sts, std::string_view when) {
  return json::get_string(sts, {"spec", "persistentVolumeClaimRetentionPolicy", when}, "Retain");
}

std::string claim_name(const json::Value& tmpl, const json::Value& sts, int ordinal) {
  return std::string(meta::name_of(tmpl)) + "-" + std::string(meta::name_of(sts)) + "-" + std::to_string(ordinal);
}

bool references(const json::Value& obj, std::string_view uid) {
  for (const auto& r : meta::owner_references(obj))
    if (r.uid == uid) return true;
  return false;
}

}  // namespace

std::optional<std::pair<std::string, int>> parent_and_ordinal(std::string_view pod_name) {
  auto dash = pod_name.rfind('-');
  if (dash == std::string_view::npos || dash == 0) return std::nullopt;
  auto ord = parse_int(pod_name.substr(dash + 1));
  if (!ord) return std::nullopt;
  return std::make_pair(std::string(pod_name.substr(0, dash)), *ord);
}

json::Value revision_data(const json::Value& sts) {
  json::Value tmpl = json::find(sts, {"spec", "template"}) ? *json::find(sts, {"spec", "template"}) : json::Value(json::Object{});
  if (!tmpl.is_object()) tmpl = json::Object{};
  tmpl.as_object()["$patch"] = "replace";
  return json::Object{{"spec", json::Object{{"template", std::move(tmpl)}}}};
}

std::string revision_hash(const json::Value& data, std::int64_t collision_count) {
  std::uint32_t h = fnv32(canonical_json(data));
  h = fnv32(std::to_string(collision_count), h);
  return safe_encode(std::to_string(h));
}

StatefulSetController::StatefulSetController(client::Client& client, Watches& watches)
    : api_(client, "kube-controller-manager"),
      loop_("statefulset", watches, [this](const Key& k) { return reconcile(k); }) {}

void StatefulSetController::start() {
  loop_.watch(kStatefulSets);
  loop_.watch(kPods, [](const Event& e) { return controller_keys(e, "StatefulSet", kStatefulSets, kPods); });
  loop_.watch(kRevisions, [](const Event& e) { return controller_keys(e, "StatefulSet", kStatefulSets); });
  loop_.start();
}

std::chrono::milliseconds StatefulSetController::reconcile(const Key& k) {
  if (k.resource == kPods) {
    wake_owners_of_orphan(k);
    return {};
  }
  auto sts = api_.get(kStatefulSets, k.ns, k.name);
  if (!sts) return {};
  return sync(sts);
}

void StatefulSetController::wake_owners_of_orphan(const Key& k) {
  auto parent = parent_and_ordinal(k.name);
  if (!parent) return;
  auto pod = api_.get(kPods, k.ns, k.name);
  auto sts = api_.get(kStatefulSets, k.ns, parent->first);
  if (pod && sts && !has_controller(*pod)) loop_.enqueue(Key{kStatefulSets, k.ns, parent->first});
}

std::optional<StatefulSetController::Revisions> StatefulSetController::revisions(const json::Value& sts,
                                                                                const meta::LabelSelector& selector) {
  std::string ns(meta::namespace_of(sts)), name(meta::name_of(sts));
  Revisions out;
  out.all = claim(api_, kRevisions, sts, selector, !meta::is_deleting(sts));
  std::stable_sort(out.all.begin(), out.all.end(), [](const Object& a, const Object& b) {
    return revision_number(*a) < revision_number(*b);
  });
  std::int64_t collision = int_at(sts, {"status", "collisionCount"});
  json::Value data = revision_data(sts);
  std::int64_t next = (out.all.empty() ? 0 : revision_number(*out.all.back())) + 1;

  // Re-promotes an older revision holding the same template (a rollback) to the newest.
  auto bump = [&](const Object& cr) -> Object {
    if (revision_number(*cr) == next - 1) return cr;
    api_.mutate(kRevisions, ns, meta::name_of(*cr), false, [&](json::Value& cur) {
      cur.as_object()["revision"] = next;
      return true;
    });
    return api_.get(kRevisions, ns, meta::name_of(*cr));
  };

  std::optional<Object> equal;
  for (const auto& cr : out.all)
    if (const auto* d = json::find(*cr, {"data"}); d && json::deep_equal(*d, data)) equal = cr;
  if (equal) {
    // The newest revision already holds this template; an older one is re-promoted.
    out.update = revision_number(**equal) == revision_number(*out.all.back()) ? *equal : bump(*equal);
  } else {
    std::string hash = revision_hash(data, collision);
    json::Object labels;
    if (const auto* l = json::get_object(sts, {"spec", "template", "metadata", "labels"})) labels = *l;
    labels[kControllerRevisionHashLabel] = hash;
    json::Value cr = json::Object{
        {"apiVersion", "apps/v1"},
        {"kind", "ControllerRevision"},
        {"metadata", json::Object{{"name", name + "-" + hash},
                                  {"namespace", ns},
                                  {"labels", std::move(labels)},
                                  {"ownerReferences", json::Array{meta::controller_reference(sts).to_json()}}}},
        {"data", data},
        {"revision", next}};
    try {
      api_.create(kRevisions, ns, std::move(cr));
      out.update = api_.get(kRevisions, ns, name + "-" + hash);
    } catch (const ApiError& e) {
      if (e.code() != 409 || e.reason() != "AlreadyExists") throw;
      auto existing = api_.get(kRevisions, ns, name + "-" + hash);
      const json::Value* d = existing ? json::find(*existing, {"data"}) : nullptr;
      if (existing && d && json::deep_equal(*d, data) && controlled_by(*existing, meta::uid_of(sts))) {
        out.update = bump(existing);
      } else {
        api_.mutate(kStatefulSets, ns, name, true, [&](json::Value& cur) {
          if (meta::uid_of(cur) != meta::uid_of(sts)) return false;
          json::ensure_object(cur, {"status"})["collisionCount"] = collision + 1;
          return true;
        });
        return std::nullopt;
      }
    }
    if (out.update) out.all.push_back(out.update);
  }
  if (!out.update) throw std::runtime_error("controllerrevision of statefulset " + ns + "/" + name + " vanished");
  std::string_view current_name = json::get_string(sts, {"status", "currentRevision"});
  out.current = out.update;
  for (const auto& cr : out.all)
    if (meta::name_of(*cr) == current_name) out.current = cr;
  return out;
}

bool StatefulSetController::ensure_claims(const json::Value& sts, int ordinal) {
  const auto* templates = json::get_array(sts, {"spec", "volumeClaimTemplates"});
  if (!templates) return true;
  std::string ns(meta::namespace_of(sts));
  std::string uid(meta::uid_of(sts));
  bool owned_by_set = retention(sts, "whenDeleted") == "Delete";
  bool ok = true;
  for (const auto& t : *templates) {
    std::string name = claim_name(t, sts, ordinal);
    auto pvc = api_.get(kClaims, ns, name);
    if (pvc) {
      if (meta::is_deleting(*pvc)) {
        ok = false;
        continue;
      }
      if (references(*pvc, uid) != owned_by_set) {
        api_.mutate(kClaims, ns, name, false, [&](json::Value& cur) {
          auto& md = json::ensure_object(cur, {"metadata"});
          json::Array refs;
          if (const auto* old = md.if_contains("ownerReferences"); old && old->is_array())
            for (const auto& r : old->as_array())
              if (json::get_string(r, {"uid"}) != uid) refs.push_back(r);
          if (owned_by_set) refs.push_back(meta::controller_reference(sts).to_json());
          if (refs.empty()) md.erase("ownerReferences");
          else md["ownerReferences"] = std::move(refs);
          return true;
        });
      }
      continue;
    }
    json::Object labels;
    if (const auto* l = json::get_object(t, {"metadata", "labels"})) labels = *l;
    if (const auto* ml = json::get_object(sts, {"spec", "selector", "matchLabels"}))
      for (const auto& kv : *ml) labels[kv.key()] = kv.value();
    json::Object md{{"name", name}, {"namespace", ns}, {"labels", std::move(labels)}};
    if (const auto* a = json::find(t, {"metadata", "annotations"})) md["annotations"] = *a;
    if (owned_by_set) md["ownerReferences"] = json::Array{meta::controller_reference(sts).to_json()};
    json::Value claim = json::Object{{"apiVersion", "v1"}, {"kind", "PersistentVolumeClaim"}, {"metadata", std::move(md)}};
    if (const auto* spec = json::find(t, {"spec"})) claim.as_object()["spec"] = *spec;
    try {
      api_.create(kClaims, ns, std::move(claim));
    } catch (const ApiError& e) {
      if (e.code() != 409 || e.reason() != "AlreadyExists") throw;
    }
  }
  return ok;
}

void StatefulSetController::delete_claims(const json::Value& sts, int ordinal) {
  if (const auto* templates = json::get_array(sts, {"spec", "volumeClaimTemplates"}))
    for (const auto& t : *templates) api_.remove(kClaims, meta::namespace_of(sts), claim_name(t, sts, ordinal));
}

void StatefulSetController::sweep_scaled_claims(const json::Value& sts, int first, int end) {
  if (retention(sts, "whenScaled") != "Delete") return;
  const auto* templates = json::get_array(sts, {"spec", "volumeClaimTemplates"});
  if (!templates || templates->empty()) return;
  std::string ns(meta::namespace_of(sts)), name(meta::name_of(sts));
  meta::LabelSelector sel;
  try {
    sel = meta::LabelSelector::from_json(json::find(sts, {"spec", "selector"}));
  } catch (const meta::SelectorError&) {
    return;
  }
  for (const auto& pvc : api_.list(kClaims, ns)) {
    std::string_view pn = meta::name_of(*pvc);
    if (meta::is_deleting(*pvc) || !sel.matches(*pvc)) continue;
    for (const auto& t : *templates) {
      std::string prefix = std::string(meta::name_of(t)) + "-" + name + "-";
      if (pn.substr(0, prefix.size()) != prefix) continue;
      auto ord = parse_int(pn.substr(prefix.size()));
      if (!ord || (*ord >= first && *ord < end)) continue;
      if (api_.get(kPods, ns, name + "-" + std::to_string(*ord))) continue;  // its pod still stops
      api_.remove(kClaims, ns, pn, meta::uid_of(*pvc));
    }
  }
}

void StatefulSetController::create_pod(const json::Value& sts, const Revisions& revs, int ordinal) {
  bool rolling = json::get_string(sts, {"spec", "updateStrategy", "type"}, "RollingUpdate") == "RollingUpdate";
  auto partition = int_at(sts, {"spec", "updateStrategy", "rollingUpdate", "partition"});
  const Object& rev = rolling && ordinal < partition ? revs.current : revs.update;
  json::Value tmpl = template_of_revision(*rev);
  std::string ns(meta::namespace_of(sts));
  std::string name = std::string(meta::name_of(sts)) + "-" + std::to_string(ordinal);
  json::Value pod = pod_from_template(tmpl, sts);
  auto& md = pod.as_object()["metadata"].as_object();
  md["name"] = name;
  auto& labels = json::ensure_object(pod, {"metadata", "labels"});
  labels[kStsPodNameLabel] = name;
  labels[kStsPodIndexLabel] = std::to_string(ordinal);
  labels[kControllerRevisionHashLabel] = meta::name_of(*rev);
  auto& spec = json::ensure_object(pod, {"spec"});
  spec["hostname"] = name;
  if (auto svc = json::get_string(sts, {"spec", "serviceName"}); !svc.empty()) spec["subdomain"] = svc;
  if (const auto* templates = json::get_array(sts, {"spec", "volumeClaimTemplates"}); templates && !templates->empty()) {
    json::Array volumes;
    std::set<std::string, std::less<>> claimed;
    for (const auto& t : *templates) {
      claimed.insert(std::string(meta::name_of(t)));
      volumes.push_back(json::Object{{"name", meta::name_of(t)},
                                     {"persistentVolumeClaim", json::Object{{"claimName", claim_name(t, sts, ordinal)}}}});
    }
    if (const auto* old = spec.if_contains("volumes"); old && old->is_array())
      for (const auto& v : old->as_array())
        if (!claimed.count(json::get_string(v, {"name"}))) volumes.push_back(v);
    spec["volumes"] = std::move(volumes);
  }
  log::debug("creating statefulset pod", {{"statefulset", ns + "/" + std::string(meta::name_of(sts))}, {"pod", name},
                                          {"revision", std::string(meta::name_of(*rev))}});
  try {
    api_.create(kPods, ns, std::move(pod));
  } catch (const ApiError& e) {
    if (e.code() != 409 || e.reason() != "AlreadyExists") throw;
  }
}

void StatefulSetController::write_status(const json::Value& sts, const Revisions& revs) {
  std::string ns(meta::namespace_of(sts)), name(meta::name_of(sts)), uid(meta::uid_of(sts));
  auto now = meta::Clock::now();
  auto min_ready = int_at(sts, {"spec", "minReadySeconds"});
  std::string current(meta::name_of(*revs.current)), update(meta::name_of(*revs.update));
  std::int64_t replicas = 0, ready = 0, available = 0, n_current = 0, n_updated = 0;
  for (const auto& p : api_.list(kPods, ns)) {
    if (!controlled_by(*p, uid)) continue;
    auto parent = parent_and_ordinal(meta::name_of(*p));
    if (!parent || parent->first != name) continue;
    if (pod_phase(*p).empty()) continue;
    ++replicas;
    if (running_and_ready(*p)) {
      ++ready;
      if (pod_available(*p, min_ready, now)) ++available;
    }
    if (!meta::is_deleting(*p)) {
      if (pod_revision(*p) == current) ++n_current;
      if (pod_revision(*p) == update) ++n_updated;
    }
  }
  bool rolling = json::get_string(sts, {"spec", "updateStrategy", "type"}, "RollingUpdate") == "RollingUpdate";
  if (rolling && n_updated == replicas && ready == replicas) {
    current = update;
    n_current = n_updated;
  }
  api_.mutate(kStatefulSets, ns, name, true, [&](json::Value& cur) {
    if (meta::uid_of(cur) != uid) return false;
    json::Value before = cur;
    auto& st = json::ensure_object(cur, {"status"});
    st["observedGeneration"] = meta::generation_of(sts);  // the generation this sync computed from, not a newer one
    st["replicas"] = replicas;
    auto opt = [&](std::string_view k, std::int64_t v) {
      if (v) st[k] = v;
      else st.erase(k);
    };
    opt("readyReplicas", ready);
    opt("currentReplicas", n_current);
    opt("updatedReplicas", n_updated);
    st["availableReplicas"] = available;
    st["currentRevision"] = current;
    st["updateRevision"] = update;
    st["collisionCount"] = int_at(cur, {"status", "collisionCount"});
    return !json::deep_equal(before, cur);
  });
}

void StatefulSetController::truncate_history(const json::Value& sts, const Revisions& revs) {
  std::set<std::string, std::less<>> live{std::string(meta::name_of(*revs.current)), std::string(meta::name_of(*revs.update))};
  std::string_view uid = meta::uid_of(sts);
  for (const auto& p : api_.list(kPods, meta::namespace_of(sts)))
    if (controlled_by(*p, uid)) live.insert(std::string(pod_revision(*p)));
  std::vector<Object> history;
  for (const auto& cr : revs.all)
    if (!live.count(meta::name_of(*cr))) history.push_back(cr);
  auto limit = int_at(sts, {"spec", "revisionHistoryLimit"}, 10);
  std::int64_t extra = static_cast<std::int64_t>(history.size()) - limit;
  for (std::int64_t i = 0; i < extra; ++i)
    api_.remove(kRevisions, meta::namespace_of(sts), meta::name_of(*history[i]), meta::uid_of(*history[i]));
}

std::chrono::milliseconds StatefulSetController::sync(const Object& obj) {
  const json::Value& sts = *obj;
  std::string ns(meta::namespace_of(sts)), name(meta::name_of(sts)), uid(meta::uid_of(sts));
  meta::LabelSelector selector;
  try {
    selector = meta::LabelSelector::from_json(json::find(sts, {"spec", "selector"}));
  } catch (const meta::SelectorError& e) {
    log::warn("statefulset has an invalid selector", {{"statefulset", ns + "/" + name}, {"error", e.what()}});
    return {};
  }
  if (selector.empty()) return {};
  auto revs = revisions(sts, selector);
  if (!revs) return {};
  bool deleting = meta::is_deleting(sts);
  auto member = [&](const json::Value& pod) {
    auto p = parent_and_ordinal(meta::name_of(pod));
    return p && p->first == name;
  };
  auto pods = claim(api_, kPods, sts, selector, !deleting, member);
  if (deleting) {
    write_status(sts, *revs);
    return {};
  }

  int replicas = static_cast<int>(int_at(sts, {"spec", "replicas"}, 1));
  int start = static_cast<int>(int_at(sts, {"spec", "ordinals", "start"}));
  std::vector<std::optional<Object>> slots(static_cast<std::size_t>(std::max(replicas, 0)));
  std::vector<Object> condemned;
  for (auto& p : pods) {
    int ord = ordinal_of(*p);
    if (ord >= start && ord < start + replicas) slots[ord - start] = p;
    else if (ord >= 0) condemned.push_back(p);
  }
  std::sort(condemned.begin(), condemned.end(),
            [](const Object& a, const Object& b) { return ordinal_of(*a) < ordinal_of(*b); });
  bool monotonic = json::get_string(sts, {"spec", "podManagementPolicy"}, "OrderedReady") != "Parallel";
  auto min_ready = int_at(sts, {"spec", "minReadySeconds"});
  auto now = meta::Clock::now();
  std::chrono::milliseconds again{0};
  auto later = [&](std::chrono::milliseconds d) {
    if (again.count() == 0 || d < again) again = d;
  };
  auto done = [&] {
    write_status(sts, *revs);
    truncate_history(sts, *revs);
    sweep_scaled_claims(sts, start, start + replicas);
    return again;
  };

  // Every ordinal in [start, start+replicas) gets a pod; OrderedReady waits at the first
  // that is missing, terminating, not yet Running and Ready, or not yet available.
  for (int i = 0; i < replicas; ++i) {
    int ord = start + i;
    if (!slots[i]) {
      if (!ensure_claims(sts, ord)) {
        later(kClaimWait);
        if (monotonic) return done();
        continue;
      }
      create_pod(sts, *revs, ord);
      if (monotonic) return done();
      continue;
    }
    const json::Value& pod = **slots[i];
    if (pod_terminal(pod) && !meta::is_deleting(pod)) {
      api_.remove(kPods, ns, meta::name_of(pod), meta::uid_of(pod));  // recreated on the next pass
      if (monotonic) return done();
      continue;
    }
    if (meta::is_deleting(pod)) {
      if (monotonic) return done();
      continue;
    }
    ensure_claims(sts, ord);
    if (!running_and_ready(pod)) {
      if (monotonic) return done();
      continue;
    }
    if (!pod_available(pod, min_ready, now)) {
      if (auto left = until_available(pod, min_ready, now)) later(*left);
      if (monotonic) return done();
    }
  }

  // Ordinals past the end go, highest first; OrderedReady one at a time, and only while
  // the others are healthy (the lowest unhealthy one may go).
  std::optional<std::size_t> first_unhealthy;
  for (std::size_t t = 0; t < condemned.size(); ++t)
    if (!healthy(*condemned[t])) {
      first_unhealthy = t;
      break;
    }
  for (std::size_t n = condemned.size(); n-- > 0;) {
    const json::Value& pod = *condemned[n];
    if (meta::is_deleting(pod)) {
      if (monotonic) return done();
      continue;
    }
    if (monotonic && !running_and_ready(pod) && first_unhealthy != n) return done();
    api_.remove(kPods, ns, meta::name_of(pod), meta::uid_of(pod));
    if (retention(sts, "whenScaled") == "Delete" && !api_.get(kPods, ns, meta::name_of(pod)))
      delete_claims(sts, ordinal_of(pod));
    if (monotonic) return done();
  }

  // RollingUpdate: replace pods not at the update revision, highest ordinal first, down to
  // the partition, one at a time and only once the one above is healthy again.
  if (json::get_string(sts, {"spec", "updateStrategy", "type"}, "RollingUpdate") != "RollingUpdate") return done();
  auto partition = int_at(sts, {"spec", "updateStrategy", "rollingUpdate", "partition"});
  std::string_view update_name = meta::name_of(*revs->update);
  for (int i = replicas - 1; i >= 0; --i) {
    int ord = start + i;
    if (ord < partition) break;
    if (!slots[i]) return done();  // just created (Parallel): wait for it
    const json::Value& pod = **slots[i];
    if (pod_revision(pod) != update_name && !meta::is_deleting(pod)) {
      api_.remove(kPods, ns, meta::name_of(pod), meta::uid_of(pod));
      return done();
    }
    if (!healthy(pod)) return done();
  }
  return done();
}

}  // namespace capstan::simulator
