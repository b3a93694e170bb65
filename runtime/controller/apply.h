// Server-side apply of the objects a controller owns, sent only when something would change.
// The applied object carries the digest of what was applied (annotation kAppliedDigest); when
// the informer's copy has that digest and still holds every applied field with the same value
// (a hand edit that changed or removed one is undone), the apply is skipped: an unchanged child
// costs no request and no bytes, however large it is (prometheus-operator's input hash on its
// StatefulSets, here for every child).
#pragma once

#include "runtime/json/json.h"
#include "runtime/meta/gvk.h"

#include <string_view>

namespace capstan::client {
class Client;
}
namespace capstan::cache {
class Informer;
}

namespace capstan::controller {

inline constexpr std::string_view kAppliedDigest = "capstan.dev/applied-digest";

// Applies `desired` (its metadata.namespace and name) with `field_manager` and force, unless
// `owned` (an informer that caches this kind of child) shows it applied and unchanged. Returns
// whether it sent the apply.
bool apply_if_changed(client::Client& client, const cache::Informer& owned, const meta::GroupVersionResource& gvr, json::Value desired,
                      std::string_view field_manager);

}  // namespace capstan::controller
