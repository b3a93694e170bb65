// REST mapping: GroupVersionKind -> GroupVersionResource + scope, from discovery. Results
// are cached per group version; a miss re-reads that group version (so a CRD installed
// later becomes mappable), at most once per `min_refresh_interval` per group version.
#pragma once

#include "runtime/meta/gvk.h"

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace capstan::client {

class Discovery;
struct ApiResource;

struct RestMapping {
  meta::GroupVersionKind gvk;
  meta::GroupVersionResource gvr;
  bool namespaced = false;
};

// No resource of that kind (or group version) is served, as apimachinery's NoKindMatchError.
class NoKindMatchError : public std::runtime_error {
 public:
  NoKindMatchError(meta::GroupVersionKind gvk, std::string message)
      : std::runtime_error(std::move(message)), gvk_(std::move(gvk)) {}
  const meta::GroupVersionKind& gvk() const { return gvk_; }

 private:
  meta::GroupVersionKind gvk_;
};
bool is_no_match(const std::exception& e);

struct MapperOptions {
  std::chrono::milliseconds min_refresh_interval{1000};
};

class RestMapper {
 public:
  explicit RestMapper(Discovery& discovery, MapperOptions options = {});
  ~RestMapper();

  // `gvk.version` empty = the group's preferred version. Throws NoKindMatchError, or the
  // discovery request's ApiError / TransportError.
  RestMapping mapping(const meta::GroupVersionKind& gvk);
  // nullopt instead of NoKindMatchError.
  std::optional<RestMapping> find(const meta::GroupVersionKind& gvk);
  // The reverse: which kind a resource serves (subresources not included).
  RestMapping mapping_for(const meta::GroupVersionResource& gvr);
  bool is_namespaced(const meta::GroupVersionKind& gvk) { return mapping(gvk).namespaced; }
  // Drops everything cached.
  void reset();
  // Discovery requests made so far (tests, debugging).
  std::uint64_t fetches() const;

 private:
  struct GvEntry;
  using TimePoint = std::chrono::steady_clock::time_point;
  // Returns the cached entry for gv, fetching it when absent, or when `refresh_if_allowed`
  // is set and the last fetch is older than the refresh interval.
  std::shared_ptr<const GvEntry> entry(const meta::GroupVersion& gv, bool refresh_if_allowed);
  std::string preferred_version(const std::string& group);

  Discovery& discovery_;
  MapperOptions options_;
  mutable std::mutex mu_;  // guards the maps
  std::mutex fetch_mu_;    // serialises discovery requests
  std::map<std::string, std::shared_ptr<const GvEntry>> gvs_;  // key: apiVersion
  std::map<std::string, std::string> preferred_;               // group -> version
  TimePoint groups_fetched_{};
  bool groups_loaded_ = false;
  std::uint64_t fetches_ = 0;
};

}  // namespace capstan::client
