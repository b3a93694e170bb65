// Adding or removing a controller's finalizer on the object it reconciles.
#pragma once

#include "runtime/json/json.h"
#include "runtime/meta/gvk.h"

#include <string_view>

namespace capstan::client {
class Client;
}

namespace capstan::controller {

// Writes `obj`'s metadata.finalizers with `finalizer` present or not, as a JSON merge patch
// carrying the cached resourceVersion (optimistic: a 409 means the object moved on, and the
// reconcile is retried with the new one). Writes nothing when it is already so; returns whether
// it wrote.
bool write_finalizer(client::Client& client, const meta::GroupVersionResource& gvr, const json::Value& obj, std::string_view finalizer,
                     bool present);

}  // namespace capstan::controller
