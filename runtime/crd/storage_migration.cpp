#include "runtime/crd/storage_migration.h"

#include "runtime/client/client.h"
#include "runtime/client/errors.h"
#include "runtime/log/log.h"
#include "runtime/meta/object.h"

namespace capstan::crd {
namespace {

const meta::GroupVersionResource kCrds{"apiextensions.k8s.io", "v1", "customresourcedefinitions"};
constexpr std::int64_t kPageSize = 250;
constexpr int kConflictRetries = 5;

bool stopped(const std::atomic<bool>* stop) { return stop && stop->load(); }

// Writes `obj` back unchanged; on a conflict reads it again and retries. False when it is gone.
bool rewrite(client::Client& c, const meta::GroupVersionResource& gvr, json::Value obj) {
  const std::string ns(meta::namespace_of(obj)), name(meta::name_of(obj));
  for (int attempt = 0;; ++attempt) {
    try {
      c.update(gvr, ns, obj);
      return true;
    } catch (const client::ApiError& e) {
      if (e.code() == 404) return false;
      if (e.code() != 409 || attempt == kConflictRetries) throw;
    }
    try {
      obj = c.get(gvr, ns, name);
    } catch (const client::ApiError& e) {
      if (e.code() == 404) return false;
      throw;
    }
  }
}

}  // namespace

MigrationResult migrate_storage_version(client::Client& c, std::string_view crd_name, const std::atomic<bool>* stop) {
  MigrationResult r;
  const json::Value crd = c.get(kCrds, "", crd_name);
  if (const auto* versions = json::get_array(crd, {"spec", "versions"}))
    for (const auto& v : *versions)
      if (json::get_bool(v, {"storage"})) r.storage_version = std::string(json::get_string(v, {"name"}));
  std::vector<std::string> stored;
  if (const auto* s = json::get_array(crd, {"status", "storedVersions"}))
    for (const auto& v : *s)
      if (v.is_string()) stored.emplace_back(v.get_string());
  if (r.storage_version.empty() || stored == std::vector<std::string>{r.storage_version}) {
    r.done = !r.storage_version.empty();
    return r;
  }
  const meta::GroupVersionResource gvr{std::string(json::get_string(crd, {"spec", "group"})), r.storage_version,
                                       std::string(json::get_string(crd, {"spec", "names", "plural"}))};
  std::string from;
  for (const auto& v : stored) from += (from.empty() ? "" : ",") + v;
  log::info("migrating stored objects to the storage version",
            {{"crd", crd_name}, {"storageVersion", r.storage_version}, {"storedVersions", from}});
  client::ListOptions page;
  page.limit = kPageSize;
  do {
    auto list = c.list(gvr, "", page);
    for (auto& item : list.items) {
      if (stopped(stop)) return r;
      if (rewrite(c, gvr, std::move(item))) ++r.migrated;
    }
    page.continue_token = list.continue_token;
  } while (!page.continue_token.empty());
  // Every object is at the storage version now (new ones were written there): only it is stored.
  c.patch(kCrds, "", crd_name, client::PatchType::Merge,
          json::Value(json::Object{{"status", json::Object{{"storedVersions", json::Array{json::Value(r.storage_version)}}}}}),
          client::PatchOptions{.subresource = "status"});
  r.done = true;
  log::info("stored objects migrated", {{"crd", crd_name}, {"storageVersion", r.storage_version}, {"objects", r.migrated}});
  return r;
}

}  // namespace capstan::crd
