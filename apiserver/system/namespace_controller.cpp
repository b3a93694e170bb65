#include "apiserver/system/namespace_controller.h"

#include "apiserver/patch/apply.h"
#include "apiserver/patch/managed_fields.h"
#include "apiserver/system/event_resource.h"
#include "apiserver/system/service_writes.h"
#include "runtime/meta/object.h"
#include "runtime/meta/time.h"

#include <algorithm>

namespace capstan::apiserver::system {
namespace {

using namespace std::chrono_literals;

const std::string kNamespaces = "namespaces";
constexpr std::string_view kKubernetesFinalizer = "kubernetes";
// Content with finalizers is waited for through events; this is the safety net.
constexpr auto kContentRecheck = 5000ms;

bool has_verb(const registry::ResourceInfo& r, std::string_view verb) {
  return std::find(r.verbs.begin(), r.verbs.end(), verb) != r.verbs.end();
}

std::string join(const std::vector<std::string>& parts) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : ", ") + p;
  return out;
}

std::vector<std::string> spec_finalizers(const json::Value& ns) {
  std::vector<std::string> out;
  if (const auto* a = json::get_array(ns, {"spec", "finalizers"}))
    for (const auto& f : *a)
      if (f.is_string()) out.emplace_back(f.get_string());
  return out;
}

bool has_metadata_finalizers(const json::Value& obj) {
  const auto* a = json::get_array(obj, {"metadata", "finalizers"});
  return a && !a->empty();
}

// The conditions upstream's namespace deleter maintains, in its order, with the "ok" variant
// for everything that is not failing.
std::vector<meta::Condition> deletion_conditions(const std::map<std::string, std::int64_t>& resources,
                                                 const std::map<std::string, std::int64_t>& finalizers,
                                                 const std::vector<std::string>& errors) {
  std::vector<meta::Condition> out;
  out.push_back({"NamespaceDeletionDiscoveryFailure", "False", "ResourcesDiscovered", "All resources successfully discovered"});
  out.push_back({"NamespaceDeletionGroupVersionParsingFailure", "False", "ParsedGroupVersions",
                 "All legacy kube types successfully parsed"});
  if (errors.empty()) {
    out.push_back({"NamespaceDeletionContentFailure", "False", "ContentDeleted",
                   "All content successfully deleted, may be waiting on finalization"});
  } else {
    auto sorted = errors;
    std::sort(sorted.begin(), sorted.end());
    out.push_back({"NamespaceDeletionContentFailure", "True", "ContentDeletionFailed",
                   "Failed to delete all resource types, " + std::to_string(errors.size()) + " remaining: " + join(sorted)});
  }
  if (resources.empty()) {
    out.push_back({"NamespaceContentRemaining", "False", "ContentRemoved", "All content successfully removed"});
  } else {
    std::vector<std::string> parts;
    for (const auto& [gr, n] : resources) parts.push_back(gr + " has " + std::to_string(n) + " resource instances");
    std::sort(parts.begin(), parts.end());
    out.push_back({"NamespaceContentRemaining", "True", "SomeResourcesRemain", "Some resources are remaining: " + join(parts)});
  }
  if (finalizers.empty()) {
    out.push_back({"NamespaceFinalizersRemaining", "False", "ContentHasNoFinalizers", "All content-preserving finalizers finished"});
  } else {
    std::vector<std::string> parts;
    for (const auto& [f, n] : finalizers) parts.push_back(f + " in " + std::to_string(n) + " resource instances");
    std::sort(parts.begin(), parts.end());
    out.push_back({"NamespaceFinalizersRemaining", "True", "SomeFinalizersRemain",
                   "Some content in the namespace has finalizers remaining: " + join(parts)});
  }
  return out;
}

}  // namespace

NamespaceController::NamespaceController(rest::Service& service)
    : service_(service),
      log_({{"controller", "namespace"}}),
      loop_("namespace", service.store(), [this](const Key& k) { return reconcile(k); }) {}

NamespaceController::~NamespaceController() { stop(); }

void NamespaceController::start() {
  loop_.watch("*", [this](const storage::Event& e) { return observe(e); });
  loop_.start();
}

void NamespaceController::stop() { loop_.stop(); }

std::vector<Key> NamespaceController::observe(const storage::Event& e) {
  if (!e.object) return {};
  const json::Value& obj = *e.object.value;
  bool is_namespace = e.resource == kNamespaces || (e.resource == "*" && event_resource(service_.registry(), e) == kNamespaces);
  std::lock_guard<std::mutex> l(mu_);
  if (is_namespace) {
    std::string name(meta::name_of(obj));
    if (e.type == storage::EventType::Deleted || !meta::is_deleting(obj)) {
      terminating_.erase(name);
      return {};
    }
    terminating_.insert(name);
    return {Key{kNamespaces, "", std::move(name)}};
  }
  // Progress in a terminating namespace (an object gone, a finalizer removed) is worth a look.
  std::string_view ns = meta::namespace_of(obj);
  if (ns.empty() || terminating_.find(ns) == terminating_.end()) return {};
  return {Key{kNamespaces, "", std::string(ns)}};
}

std::chrono::milliseconds NamespaceController::reconcile(const Key& k) {
  auto cur = service_.store().get(kNamespaces, "", k.name);
  if (!cur || !meta::is_deleting(*cur.value)) return {};
  if (spec_finalizers(*cur.value).empty()) {
    // Finalized already: only metadata.finalizers can hold it now (their removal through the
    // API deletes it), so delete it if there are none.
    if (!has_metadata_finalizers(*cur.value)) finalize(k.name);
    return {};
  }
  Remaining left = delete_content(k.name);
  update_conditions(k.name, left);
  if (!left.empty()) {
    log_.debug("namespace content remains", {{"namespace", k.name}, {"resources", std::to_string(left.resources.size())}});
    return kContentRecheck;
  }
  if (!left.errors.empty()) throw std::runtime_error("deleting the content of namespace " + k.name + ": " + join(left.errors));
  finalize(k.name);
  return {};
}

NamespaceController::Remaining NamespaceController::delete_content(const std::string& ns) {
  Remaining left;
  auto& store = service_.store();
  for (const auto& r : service_.registry().all()) {
    if (!r->namespaced || !has_verb(*r, "delete") || !has_verb(*r, "list")) continue;
    const std::string gr = r->group_resource();
    auto page = store.list(gr, ns, "", 0);
    if (page.items.empty()) continue;
    std::string first_error;
    for (const auto& item : page.items) {
      const json::Value& obj = *item.value;
      try {
        delete_object(service_, r, ns, meta::name_of(obj), meta::uid_of(obj), "", "Background");
      } catch (const std::exception& e) {
        if (first_error.empty()) first_error = e.what();
      }
    }
    if (!first_error.empty()) left.errors.push_back(first_error);
    auto after = store.list(gr, ns, "", 0);
    if (after.items.empty()) continue;
    // Upstream names group-resources as "<resource>.<group>" here: "configmaps." for the core group.
    left.resources[r->resource + "." + r->group] += static_cast<std::int64_t>(after.items.size());
    for (const auto& item : after.items)
      if (const auto* fs = json::get_array(*item.value, {"metadata", "finalizers"}))
        for (const auto& f : *fs)
          if (f.is_string()) ++left.finalizers[std::string(f.get_string())];
  }
  return left;
}

void NamespaceController::update_conditions(const std::string& ns, const Remaining& left) {
  auto res = service_.registry().find_group_resource(kNamespaces);
  auto conditions = deletion_conditions(left.resources, left.finalizers, left.errors);
  try {
    service_.store().update(kNamespaces, "", ns, [&](const storage::Object& cur) -> std::optional<json::Value> {
      const json::Value& old = *cur.value;
      if (!meta::is_deleting(old)) return std::nullopt;
      json::Value next = old;
      auto now = meta::Clock::now();
      bool changed = false;
      auto& status = json::ensure_object(next, {"status"});
      if (json::get_string(next, {"status", "phase"}) != "Terminating") {
        status["phase"] = "Terminating";
        changed = true;
      }
      for (const auto& c : conditions) changed |= meta::set_condition(next, c, now);
      if (!changed) return std::nullopt;
      if (res) {
        // As a status update by kube-controller-manager would record it.
        std::string api = res->api_version(res->storage_version().name);
        patch::set_managed_fields(next, patch::update(&old, next, kControllerManager, patch::kOperationUpdate, "status", api,
                                                      now, rest::list_types_for(*res, res->storage_version().name)));
      }
      return next;
    });
  } catch (const storage::NotFoundError&) {
    // Gone meanwhile: nothing to report.
  }
}

void NamespaceController::finalize(const std::string& ns) {
  auto& store = service_.store();
  for (int attempt = 0; attempt < 16; ++attempt) {
    auto cur = store.get(kNamespaces, "", ns);
    if (!cur || !meta::is_deleting(*cur.value)) return;
    json::Value next = *cur.value;
    auto kept = spec_finalizers(next);
    bool ours = std::find(kept.begin(), kept.end(), kKubernetesFinalizer) != kept.end();
    kept.erase(std::remove(kept.begin(), kept.end(), kKubernetesFinalizer), kept.end());
    std::sort(kept.begin(), kept.end());  // upstream rebuilds the list from a set
    json::Array arr;
    for (const auto& f : kept) arr.emplace_back(f);
    json::ensure_object(next, {"spec"})["finalizers"] = std::move(arr);
    try {
      if (kept.empty() && !has_metadata_finalizers(next)) {
        // As kube-apiserver's finalize does: no finalizer of any kind left, the namespace goes.
        store.remove(kNamespaces, "", ns, cur.rv, &next);
        log_.info("namespace deleted", {{"namespace", ns}});
      } else if (ours) {
        store.replace(kNamespaces, std::move(next), cur.rv);
      }
      return;
    } catch (const storage::StaleError&) {
      continue;
    } catch (const storage::NotFoundError&) {
      return;
    }
  }
  throw std::runtime_error("finalizing namespace " + ns + ": too many concurrent writes");
}

}  // namespace capstan::apiserver::system
