#include "apiserver/rest/pod_binding.h"

#include "apiserver/rest/api_error.h"
#include "runtime/meta/object.h"

namespace capstan::apiserver::rest {
namespace {

constexpr int kMaxConflictRetries = 5;

}  // namespace

void bind_pod(Service& service, const Target& pod, const json::Value& binding, WriteOptions& o) {
  const auto& r = *pod.res;
  std::string node(json::get_string(binding, {"target", "name"}));
  if (node.empty()) throw invalid(r, pod.name, {Cause{"FieldValueRequired", "target.name", "Required value"}});
  Target main{pod.res, pod.version, pod.ns, pod.name, ""};
  for (int attempt = 0;; ++attempt) {
    json::Value cur = service.get(main);
    auto assigned = json::get_string(cur, {"spec", "nodeName"});
    if (!assigned.empty())
      throw conflict(r, pod.name, "pod " + pod.name + " is already assigned to node \"" + std::string(assigned) + "\"");
    if (meta::is_deleting(cur))
      throw conflict(r, pod.name, "pod " + pod.name + " is being deleted, cannot be assigned to a host");
    json::ensure_object(cur, {"spec"})["nodeName"] = node;
    try {
      service.update(main, std::move(cur), o);
      return;
    } catch (const ApiError& e) {
      if (e.code != 409 || attempt + 1 >= kMaxConflictRetries) throw;
    }
  }
}

}  // namespace capstan::apiserver::rest
