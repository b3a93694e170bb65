#include "runtime/plugin/storage_migration.h"

#include "runtime/controller/manager.h"
#include "runtime/crd/storage_migration.h"
#include "runtime/log/log.h"
#include "runtime/plugin/leader_loop.h"

#include <algorithm>
#include <chrono>
#include <memory>

namespace capstan::plugin {

void add_storage_migration(controller::Manager& mgr, std::string name, std::vector<std::string> crds) {
  // The CRDs left to migrate, retried with backoff (1 s doubling to 5 min) until none is left.
  struct State {
    std::vector<std::string> left;
    std::chrono::milliseconds backoff{std::chrono::seconds(1)};
  };
  auto state = std::make_shared<State>(State{std::move(crds)});
  client::Client& client = mgr.client();
  add_leader_loop(mgr, std::move(name), [state, &client](const std::atomic<bool>& stopping) -> std::optional<std::chrono::milliseconds> {
    std::vector<std::string> failed;
    for (const auto& crd_name : state->left) {
      try {
        auto r = crd::migrate_storage_version(client, crd_name, &stopping);
        if (!r.done) failed.push_back(crd_name);
      } catch (const std::exception& e) {
        log::warn("storage version migration failed; retrying",
                  {{"crd", crd_name}, {"error", e.what()}, {"retryIn", state->backoff.count()}});
        failed.push_back(crd_name);
      }
    }
    state->left = std::move(failed);
    if (state->left.empty()) return std::nullopt;
    auto wait = state->backoff;
    state->backoff = std::min<std::chrono::milliseconds>(state->backoff * 2, std::chrono::minutes(5));
    return wait;
  });
}

}  // namespace capstan::plugin
