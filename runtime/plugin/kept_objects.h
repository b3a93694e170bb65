// Objects a plug-in keeps in the cluster while the manager leads, such as the PrometheusRule the
// certificates controller gives the monitoring controller: applied (server-side apply, as
// `field_manager`, forced) when the manager starts leading and again every `interval`, so a
// deleted or hand-edited one comes back; a failed apply (the CRD not there yet, a webhook not
// serving) is retried after 10 s, with a warning naming the object.
#pragma once

#include "runtime/json/json.h"

#include <chrono>
#include <string>
#include <vector>

namespace capstan::controller {
class Manager;
}

namespace capstan::plugin {

void add_kept_objects(controller::Manager& mgr, std::string name, std::vector<json::Value> objects, std::string field_manager,
                      std::chrono::milliseconds interval = std::chrono::minutes(5));

}  // namespace capstan::plugin
