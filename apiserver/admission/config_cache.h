// The admission webhooks currently configured, read from the store's
// Mutating/ValidatingWebhookConfigurations and re-read lazily after a change: the store watch
// only marks the set dirty (its callback runs under the store lock), the next request rebuilds.
#pragma once

#include "apiserver/admission/webhook_config.h"
#include "apiserver/storage/store.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace capstan::apiserver::admission {

inline constexpr const char* kMutatingConfigurations = "mutatingwebhookconfigurations.admissionregistration.k8s.io";
inline constexpr const char* kValidatingConfigurations = "validatingwebhookconfigurations.admissionregistration.k8s.io";

using WebhookList = std::shared_ptr<const std::vector<Webhook>>;

class ConfigCache {
 public:
  explicit ConfigCache(storage::Store& store);
  ~ConfigCache();
  ConfigCache(const ConfigCache&) = delete;
  ConfigCache& operator=(const ConfigCache&) = delete;

  // Configuration order: by configuration name, then each configuration's webhooks in order.
  WebhookList mutating() { return current(mutating_); }
  WebhookList validating() { return current(validating_); }

 private:
  struct Set {
    std::string resource;
    bool mutating = false;
    std::shared_ptr<std::atomic<bool>> dirty = std::make_shared<std::atomic<bool>>(true);
    std::uint64_t watch_id = 0;
    WebhookList hooks = std::make_shared<const std::vector<Webhook>>();
  };
  WebhookList current(Set& s);

  storage::Store& store_;
  std::mutex mu_;
  Set mutating_;
  Set validating_;
};

}  // namespace capstan::apiserver::admission
