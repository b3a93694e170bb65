#include "apiserver/registry/resource.h"

#include "apiserver/registry/builtin.h"
#include "runtime/meta/base64.h"

#include <openssl/sha.h>

#include <algorithm>
#include <cctype>
#include <mutex>
#include <stdexcept>

namespace capstan::apiserver::registry {

const VersionInfo* ResourceInfo::version(std::string_view v) const {
  for (const auto& x : versions)
    if (x.name == v) return &x;
  return nullptr;
}

const VersionInfo& ResourceInfo::storage_version() const {
  for (const auto& x : versions)
    if (x.storage) return x;
  if (versions.empty()) throw std::logic_error("resource " + group_resource() + " has no versions");
  return versions.front();
}

const VersionInfo& ResourceInfo::preferred_version() const {
  for (const auto& x : versions)
    if (x.served) return x;
  return storage_version();
}

bool ResourceInfo::has_status(std::string_view v) const {
  const auto* vi = version(v);
  return vi && vi->status_subresource;
}

std::string ResourceInfo::storage_version_hash() const {
  std::string gvk = stored_as.empty() ? group + "/" + storage_version().name + "/" + kind : stored_as;
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(gvk.data()), gvk.size(), digest);
  return meta::base64_encode(std::string_view(reinterpret_cast<const char*>(digest), 8));
}

Registry::Registry() {
  for (auto& r : builtin_resources()) put(std::move(r));
}

ResourcePtr Registry::find(std::string_view group, std::string_view version, std::string_view resource) const {
  std::shared_lock l(mu_);
  std::string gr = group.empty() ? std::string(resource) : std::string(resource) + "." + std::string(group);
  auto it = by_gr_.find(gr);
  if (it == by_gr_.end()) return nullptr;
  const auto* v = it->second->version(version);
  if (!v || !v->served) return nullptr;
  return it->second;
}

ResourcePtr Registry::find_group_resource(std::string_view gr) const {
  std::shared_lock l(mu_);
  auto it = by_gr_.find(gr);
  return it == by_gr_.end() ? nullptr : it->second;
}

ResourcePtr Registry::find_kind(std::string_view group, std::string_view kind) const {
  std::shared_lock l(mu_);
  for (const auto& [k, r] : by_gr_)
    if (r->group == group && r->kind == kind) return r;
  return nullptr;
}

std::vector<ResourcePtr> Registry::all() const {
  std::shared_lock l(mu_);
  std::vector<ResourcePtr> out;
  out.reserve(by_gr_.size());
  for (const auto& [k, r] : by_gr_) out.push_back(r);
  return out;
}

void Registry::put(ResourceInfo info) {
  std::sort(info.versions.begin(), info.versions.end(),
            [](const VersionInfo& a, const VersionInfo& b) { return version_less_preferred(b.name, a.name); });
  auto p = std::make_shared<const ResourceInfo>(std::move(info));
  std::unique_lock l(mu_);
  by_gr_[p->group_resource()] = p;
  ++generation_;
}

void Registry::remove(std::string_view gr) {
  std::unique_lock l(mu_);
  auto it = by_gr_.find(gr);
  if (it != by_gr_.end()) by_gr_.erase(it);
  ++generation_;
}

std::uint64_t Registry::generation() const {
  std::shared_lock l(mu_);
  return generation_;
}

namespace {
// Parses "v<major>[(alpha|beta)<minor>]"; returns false for other names.
bool parse_kube_version(std::string_view v, int& major, int& stage, int& minor) {
  if (v.size() < 2 || v[0] != 'v' || !std::isdigit(static_cast<unsigned char>(v[1]))) return false;
  std::size_t i = 1;
  major = 0;
  while (i < v.size() && std::isdigit(static_cast<unsigned char>(v[i]))) major = major * 10 + (v[i++] - '0');
  if (i == v.size()) {
    stage = 2;  // GA
    minor = 0;
    return true;
  }
  std::string_view rest = v.substr(i);
  if (rest.rfind("alpha", 0) == 0) {
    stage = 0;
    rest.remove_prefix(5);
  } else if (rest.rfind("beta", 0) == 0) {
    stage = 1;
    rest.remove_prefix(4);
  } else {
    return false;
  }
  if (rest.empty()) return false;
  minor = 0;
  for (char c : rest) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    minor = minor * 10 + (c - '0');
  }
  return true;
}
}  // namespace

bool version_less_preferred(std::string_view a, std::string_view b) {
  int am, as, an, bm, bs, bn;
  bool ka = parse_kube_version(a, am, as, an), kb = parse_kube_version(b, bm, bs, bn);
  if (ka != kb) return !ka;  // non-kube versions sort after kube-like ones
  if (!ka) return a > b;     // alphabetical among the rest (earlier = preferred)
  if (as != bs) return as < bs;
  if (am != bm) return am < bm;
  return an < bn;
}

}  // namespace capstan::apiserver::registry
