#include "runtime/controller/finalizer.h"

#include "runtime/client/client.h"
#include "runtime/meta/object.h"

namespace capstan::controller {

bool write_finalizer(client::Client& client, const meta::GroupVersionResource& gvr, const json::Value& obj, std::string_view finalizer,
                     bool present) {
  json::Value copy = obj;
  bool changed = present ? meta::add_finalizer(copy, finalizer) : meta::remove_finalizer(copy, finalizer);
  if (!changed) return false;
  const json::Value* finalizers = json::find(copy, {"metadata", "finalizers"});
  json::Object metadata{{"resourceVersion", meta::resource_version_of(obj)},
                        {"finalizers", finalizers ? *finalizers : json::Value(json::Array())}};
  client.patch(gvr, meta::namespace_of(obj), meta::name_of(obj), client::PatchType::Merge,
               json::Value(json::Object{{"metadata", std::move(metadata)}}));
  return true;
}

}  // namespace capstan::controller
