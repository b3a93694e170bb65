#include "runtime/client/mapper.h"

#include "runtime/client/discovery.h"

namespace capstan::client {

struct RestMapper::GvEntry {
  bool served = false;
  std::vector<ApiResource> resources;  // top-level resources only (no "x/status")
  TimePoint fetched{};
};

bool is_no_match(const std::exception& e) { return dynamic_cast<const NoKindMatchError*>(&e) != nullptr; }

RestMapper::RestMapper(Discovery& discovery, MapperOptions options) : discovery_(discovery), options_(options) {}
RestMapper::~RestMapper() = default;

std::shared_ptr<const RestMapper::GvEntry> RestMapper::entry(const meta::GroupVersion& gv, bool refresh_if_allowed) {
  const std::string key = gv.api_version();
  std::optional<TimePoint> seen;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = gvs_.find(key);
    if (it != gvs_.end()) {
      if (!refresh_if_allowed) return it->second;
      if (std::chrono::steady_clock::now() - it->second->fetched < options_.min_refresh_interval) return it->second;
      seen = it->second->fetched;
    }
  }
  std::lock_guard<std::mutex> fetching(fetch_mu_);
  {
    // Another thread may have fetched it while this one waited.
    std::lock_guard<std::mutex> lock(mu_);
    auto it = gvs_.find(key);
    if (it != gvs_.end() && (!seen || it->second->fetched != *seen)) return it->second;
  }
  auto resources = discovery_.resources(gv);
  auto e = std::make_shared<GvEntry>();
  e->fetched = std::chrono::steady_clock::now();
  e->served = resources.has_value();
  if (resources)
    for (auto& r : *resources)
      if (!r.is_subresource()) e->resources.push_back(std::move(r));
  std::lock_guard<std::mutex> lock(mu_);
  ++fetches_;
  gvs_[key] = e;
  return e;
}

std::string RestMapper::preferred_version(const std::string& group) {
  auto lookup = [&]() -> std::optional<std::string> {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = preferred_.find(group);
    if (it != preferred_.end()) return it->second;
    return std::nullopt;
  };
  if (auto v = lookup()) return *v;
  {
    std::lock_guard<std::mutex> fetching(fetch_mu_);
    if (auto v = lookup()) return *v;
    bool allowed;
    {
      std::lock_guard<std::mutex> lock(mu_);
      allowed = !groups_loaded_ ||
                std::chrono::steady_clock::now() - groups_fetched_ >= options_.min_refresh_interval;
    }
    if (allowed) {
      auto groups = discovery_.groups();
      std::lock_guard<std::mutex> lock(mu_);
      fetches_ += 2;  // /api and /apis
      groups_loaded_ = true;
      groups_fetched_ = std::chrono::steady_clock::now();
      for (const auto& g : groups) preferred_[g.name] = g.preferred_version;
    }
  }
  if (auto v = lookup()) return *v;
  return {};
}

std::optional<RestMapping> RestMapper::find(const meta::GroupVersionKind& gvk) {
  meta::GroupVersionKind want = gvk;
  if (want.version.empty()) {
    want.version = preferred_version(want.group);
    if (want.version.empty()) return std::nullopt;
  }
  meta::GroupVersion gv{want.group, want.version};
  auto search = [&](const GvEntry& e) -> std::optional<RestMapping> {
    for (const auto& r : e.resources)
      if (r.kind == want.kind) return RestMapping{want, {want.group, want.version, r.name}, r.namespaced};
    return std::nullopt;
  };
  if (auto m = search(*entry(gv, false))) return m;
  return search(*entry(gv, true));  // a miss: re-read the group version, rate-limited
}

RestMapping RestMapper::mapping(const meta::GroupVersionKind& gvk) {
  if (auto m = find(gvk)) return *m;
  std::string where = gvk.version.empty() ? "group \"" + gvk.group + "\"" : "version \"" + gvk.api_version() + "\"";
  throw NoKindMatchError(gvk, "no matches for kind \"" + gvk.kind + "\" in " + where);
}

RestMapping RestMapper::mapping_for(const meta::GroupVersionResource& gvr) {
  meta::GroupVersion gv = gvr.gv();
  auto search = [&](const GvEntry& e) -> std::optional<RestMapping> {
    for (const auto& r : e.resources)
      if (r.name == gvr.resource) return RestMapping{{gvr.group, gvr.version, r.kind}, gvr, r.namespaced};
    return std::nullopt;
  };
  if (auto m = search(*entry(gv, false))) return *m;
  if (auto m = search(*entry(gv, true))) return *m;
  throw NoKindMatchError({gvr.group, gvr.version, ""},
                         "the server does not have a resource type \"" + gvr.resource + "\" in \"" + gv.api_version() +
                             "\"");
}

void RestMapper::reset() {
  std::lock_guard<std::mutex> fetching(fetch_mu_);
  std::lock_guard<std::mutex> lock(mu_);
  gvs_.clear();
  preferred_.clear();
  groups_loaded_ = false;
}

std::uint64_t RestMapper::fetches() const {
  std::lock_guard<std::mutex> lock(mu_);
  return fetches_;
}

}  // namespace capstan::client
