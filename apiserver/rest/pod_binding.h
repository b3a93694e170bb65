// POST pods/NAME/binding: how kube-scheduler assigns a pod to a node (spec.nodeName cannot
// be set by an update on kube-apiserver). A pod already assigned elsewhere is a 409.
#pragma once

#include "apiserver/rest/service.h"

namespace capstan::apiserver::rest {

// `pod` addresses the pod (its subresource is ignored); `binding` is the Binding body.
void bind_pod(Service& service, const Target& pod, const json::Value& binding, WriteOptions& o);

}  // namespace capstan::apiserver::rest
