#include "runtime/meta/pod.h"

#include "runtime/meta/object.h"

namespace capstan::meta {

bool pod_ready(const json::Value& pod) { return condition_true(pod, "Ready"); }

}  // namespace capstan::meta
