// /openapi/v2 (one Swagger 2.0 document, JSON or protobuf) and /openapi/v3: the index of group-versions and one document per group-version with the
// paths kubectl inspects (PATCH operations carrying fieldValidation, tagged with
// x-kubernetes-group-version-kind) and, for CRDs, the schemas `kubectl explain` reads.
#pragma once

#include "apiserver/registry/resource.h"
#include "runtime/json/json.h"

#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace capstan::apiserver::rest {

class OpenApi {
 public:
  explicit OpenApi(const registry::Registry& reg) : reg_(reg) {}
  // {"paths":{"api/v1":{"serverRelativeURL":"/openapi/v3/api/v1?hash=..."}, ...}}
  json::Value index();
  // The document of "api/v1" or "apis/GROUP/VERSION"; nullopt when unknown.
  std::optional<std::string> document(std::string_view gv_path);
  // The Swagger 2.0 document with every served kind's definitions, as JSON or as protobuf.
  std::string v2(bool protobuf);

 private:
  void rebuild_locked();
  const registry::Registry& reg_;
  std::mutex mu_;
  std::uint64_t built_for_ = 0;
  std::map<std::string, std::string, std::less<>> docs_;    // gv path -> serialized document
  std::map<std::string, std::string, std::less<>> hashes_;  // gv path -> hash
  std::string v2_json_, v2_protobuf_;
};

}  // namespace capstan::apiserver::rest
