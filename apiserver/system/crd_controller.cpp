#include "apiserver/system/crd_controller.h"

#include "apiserver/builtin/crd_strategy.h"
#include "apiserver/patch/list_types.h"
#include "apiserver/schema/cel_rules.h"
#include "apiserver/schema/parse.h"
#include "apiserver/table/crd_columns.h"
#include "runtime/log/log.h"
#include "runtime/meta/object.h"

#include <mutex>
#include <set>

namespace capstan::apiserver::system {
namespace {

const std::string kCrdResource = "customresourcedefinitions.apiextensions.k8s.io";

std::vector<std::string> strings_of(const json::Value& obj, json::Path p) {
  std::vector<std::string> out;
  if (const auto* a = json::get_array(obj, p))
    for (const auto& s : *a)
      if (s.is_string()) out.emplace_back(s.get_string());
  return out;
}

// Logs each CEL rule the embedded server does not evaluate once per process (a CRD is registered
// again on every update and restart; the warning should not repeat every time).
void log_unevaluated_rules(std::string_view crd, const schema::Schema& s) {
  static std::mutex mu;
  static std::set<std::string> logged;
  std::vector<const schema::CelRule*> rules;
  schema::collect_unevaluated(s, rules);
  for (const auto* r : rules) {
    std::string key = std::string(crd) + "\n" + r->schema_path + "\n" + r->rule;
    {
      std::lock_guard lock(mu);
      if (logged.size() > 10000 || !logged.insert(key).second) continue;
    }
    log::warn("CEL validation rule is not evaluated by the embedded API server",
              {{"crd", crd}, {"path", r->schema_path}, {"rule", r->rule}, {"reason", r->unsupported}});
  }
}

}  // namespace

registry::ResourceInfo resource_from_crd(const json::Value& crd) {
  registry::ResourceInfo r;
  r.group = json::get_string(crd, {"spec", "group"});
  r.resource = json::get_string(crd, {"spec", "names", "plural"});
  r.singular = json::get_string(crd, {"spec", "names", "singular"});
  r.kind = json::get_string(crd, {"spec", "names", "kind"});
  r.list_kind = json::get_string(crd, {"spec", "names", "listKind"});
  if (r.list_kind.empty()) r.list_kind = r.kind + "List";
  r.namespaced = json::get_string(crd, {"spec", "scope"}) == "Namespaced";
  r.short_names = strings_of(crd, {"spec", "names", "shortNames"});
  r.categories = strings_of(crd, {"spec", "names", "categories"});
  r.has_generation = true;
  r.crd = true;
  // The custom resource handler's verbs, in the order its discovery lists them.
  r.verbs = {"delete", "deletecollection", "get", "list", "patch", "create", "update", "watch"};
  r.crd_name = json::get_string(crd, {"metadata", "name"});
  r.allow_unconditional_update = false;
  r.conversion_strategy = json::get_string(crd, {"spec", "conversion", "strategy"}, "None");
  if (const auto* w = json::find(crd, {"spec", "conversion", "webhook"})) r.conversion_webhook = *w;
  r.preserve_unknown_fields = json::get_bool(crd, {"spec", "preserveUnknownFields"});
  if (const auto* versions = json::get_array(crd, {"spec", "versions"})) {
    for (std::size_t i = 0; i < versions->size(); ++i) {
      const auto& v = (*versions)[i];
      registry::VersionInfo vi;
      vi.name = json::get_string(v, {"name"});
      vi.served = json::get_bool(v, {"served"}, true);
      vi.storage = json::get_bool(v, {"storage"});
      vi.deprecated = json::get_bool(v, {"deprecated"});
      vi.deprecation_warning = json::get_string(v, {"deprecationWarning"});
      if (const auto* s = json::find(v, {"schema", "openAPIV3Schema"})) {
        vi.schema = *s;
        schema::ParseOptions po;
        po.path = "spec.versions[" + std::to_string(i) + "].schema.openAPIV3Schema";
        vi.structural = schema::parse_or_throw(*s, po);
        log_unevaluated_rules(r.crd_name, *vi.structural);
        vi.list_types = patch::schema_list_types(*s);
      }
      if (const auto* pc = json::find(v, {"additionalPrinterColumns"})) vi.printer_columns = *pc;
      vi.table = std::make_shared<table::CrdConverter>(table::printer_columns_for_version(crd, vi.name));
      vi.status_subresource = json::find(v, {"subresources", "status"}) != nullptr;
      if (const auto* sc = json::get_object(v, {"subresources", "scale"})) {
        registry::ScaleSubresource s;
        s.spec_replicas_path = json::get_string(*sc, {"specReplicasPath"}, ".spec.replicas");
        s.status_replicas_path = json::get_string(*sc, {"statusReplicasPath"}, ".status.replicas");
        s.label_selector_path = json::get_string(*sc, {"labelSelectorPath"});
        vi.scale = s;
      }
      r.versions.push_back(std::move(vi));
    }
  }
  return r;
}

CrdController::CrdController(rest::Service& service)
    : service_(service), loop_("crd", service.store(), [this](const Key& k) { return reconcile(k); }) {}

void CrdController::start() {
  // Register what is already stored before serving requests (a restart must not lose CRDs).
  auto page = service_.store().list(kCrdResource, "", "", 0);
  for (const auto& o : page.items) {
    try {
      service_.registry().put(resource_from_crd(*o.value));
    } catch (const std::exception& e) {
      log::error("stored CRD cannot be served", {{"crd", std::string(meta::name_of(*o.value))}, {"error", e.what()}});
    }
  }
  loop_.watch(kCrdResource);
  loop_.start();
}

std::chrono::milliseconds CrdController::reconcile(const Key& k) {
  auto& store = service_.store();
  auto obj = store.get(kCrdResource, "", k.name);
  if (!obj) {
    service_.registry().remove(k.name);
    return {};
  }
  const json::Value& crd = *obj.value;
  if (meta::is_deleting(crd)) {
    // Remove every instance, then let the CRD go.
    auto info = service_.registry().find_group_resource(k.name);
    if (info) {
      auto page = store.list(k.name, "", "", 0);
      if (!page.items.empty()) {
        for (const auto& item : page.items) {
          rest::Target t{info, info->storage_version().name, std::string(meta::namespace_of(*item.value)),
                         std::string(meta::name_of(*item.value)), ""};
          try {
            service_.remove(t, rest::DeleteOptions{});
          } catch (const ApiError& e) {
            if (e.code != 404) throw;
          }
        }
        return std::chrono::milliseconds(200);
      }
    }
    store.update(kCrdResource, "", k.name, [](const storage::Object& cur) -> std::optional<json::Value> {
      json::Value v = *cur.value;
      if (!meta::remove_finalizer(v, builtin::kCrdCleanupFinalizer)) return std::nullopt;
      return v;
    });
    auto after = store.get(kCrdResource, "", k.name);
    if (after && !json::get_array(*after.value, {"metadata", "finalizers"})) store.remove(kCrdResource, "", k.name, after.rv);
    service_.registry().remove(k.name);
    return {};
  }
  registry::ResourceInfo info;
  try {
    info = resource_from_crd(crd);
  } catch (const std::exception& e) {
    log::error("CRD cannot be served", {{"crd", k.name}, {"error", e.what()}});
    return {};
  }
  std::string storage_version = info.storage_version().name;
  service_.registry().put(std::move(info));
  store.update(kCrdResource, "", k.name, [&](const storage::Object& cur) -> std::optional<json::Value> {
    json::Value v = *cur.value;
    auto now = meta::Clock::now();
    meta::set_condition(v, {"NamesAccepted", "True", "NoConflicts", "no conflicts found"}, now);
    meta::set_condition(v, {"Established", "True", "InitialNamesAccepted", "the initial names have been accepted"}, now);
    auto& status = json::ensure_object(v, {"status"});
    if (const auto* names = json::find(v, {"spec", "names"})) status["acceptedNames"] = *names;
    auto stored = strings_of(v, {"status", "storedVersions"});
    if (std::find(stored.begin(), stored.end(), storage_version) == stored.end()) stored.push_back(storage_version);
    json::Array sv;
    for (auto& s : stored) sv.emplace_back(s);
    status["storedVersions"] = std::move(sv);
    return v;
  });
  return {};
}

}  // namespace capstan::apiserver::system
