#include "runtime/plugin/kept_objects.h"

#include "runtime/client/client.h"
#include "runtime/controller/manager.h"
#include "runtime/log/log.h"
#include "runtime/meta/object.h"
#include "runtime/plugin/leader_loop.h"

namespace capstan::plugin {

void add_kept_objects(controller::Manager& mgr, std::string name, std::vector<json::Value> objects, std::string field_manager,
                      std::chrono::milliseconds interval) {
  client::Client& client = mgr.client();
  add_leader_loop(mgr, std::move(name),
                  [&client, objects = std::move(objects), field_manager = std::move(field_manager),
                   interval](const std::atomic<bool>& stopping) -> std::optional<std::chrono::milliseconds> {
                    bool failed = false;
                    for (const auto& o : objects) {
                      if (stopping) break;
                      try {
                        client.apply(o, field_manager, /*force=*/true);
                      } catch (const std::exception& e) {
                        failed = true;
                        log::warn("could not apply an object the manager keeps; retrying",
                                  {{"kind", std::string(json::get_string(o, {"kind"}))},
                                   {"object", std::string(meta::namespace_of(o)) + "/" + std::string(meta::name_of(o))},
                                   {"error", e.what()}});
                      }
                    }
                    return failed ? std::chrono::milliseconds(std::chrono::seconds(10)) : interval;
                  });
}

}  // namespace capstan::plugin
