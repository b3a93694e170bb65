#include "runtime/controller/apply.h"

#include "runtime/cache/informer.h"
#include "runtime/client/client.h"
#include "runtime/json/patch.h"
#include "runtime/meta/object.h"
#include "runtime/pki/digest.h"

namespace capstan::controller {

bool apply_if_changed(client::Client& client, const cache::Informer& owned, const meta::GroupVersionResource& gvr, json::Value desired,
                      std::string_view field_manager) {
  const std::string digest = pki::sha256_hex(json::serialize(desired), 16);
  auto& metadata = desired.as_object()["metadata"].as_object();
  auto* annotations = metadata.if_contains("annotations");
  if (!annotations || !annotations->is_object()) annotations = &(metadata["annotations"] = json::Object());
  annotations->as_object()[kAppliedDigest] = digest;

  const std::string ns(meta::namespace_of(desired));
  if (auto cached = owned.get(ns, meta::name_of(desired))) {
    const json::Value have = cached->value();
    if (json::get_string(have, {"metadata", "annotations", kAppliedDigest}) == digest && json::contains(have, desired)) return false;
  }
  client.apply(gvr, ns, desired, field_manager, true);
  return true;
}

}  // namespace capstan::controller
