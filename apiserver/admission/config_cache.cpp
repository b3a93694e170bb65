#include "apiserver/admission/config_cache.h"

#include "runtime/log/log.h"

namespace capstan::apiserver::admission {
namespace {

// Runs under the store lock: only flags the set for a rebuild.
class MarkDirty : public storage::Watcher {
 public:
  explicit MarkDirty(std::shared_ptr<std::atomic<bool>> dirty) : dirty_(std::move(dirty)) {}
  void on_event(const storage::Event&) override { dirty_->store(true); }

 private:
  std::shared_ptr<std::atomic<bool>> dirty_;
};

}  // namespace

ConfigCache::ConfigCache(storage::Store& store) : store_(store) {
  mutating_.resource = kMutatingConfigurations;
  mutating_.mutating = true;
  validating_.resource = kValidatingConfigurations;
  for (Set* s : {&mutating_, &validating_})
    s->watch_id = store_.watch(s->resource, -1, std::make_shared<MarkDirty>(s->dirty));
}

ConfigCache::~ConfigCache() {
  for (Set* s : {&mutating_, &validating_}) store_.unwatch(s->watch_id);
}

WebhookList ConfigCache::current(Set& s) {
  std::lock_guard<std::mutex> l(mu_);
  // Clear the flag before reading: a change landing during the list marks it again.
  if (s.dirty->exchange(false)) {
    auto page = store_.list(s.resource, "", "", 0);
    std::vector<json::Value> configs;
    configs.reserve(page.items.size());
    for (const auto& o : page.items) configs.push_back(*o.value);
    s.hooks = std::make_shared<const std::vector<Webhook>>(flatten_configurations(configs, s.mutating));
    log::debug("admission webhooks loaded", {{"resource", s.resource}, {"webhooks", s.hooks->size()}});
  }
  return s.hooks;
}

}  // namespace capstan::apiserver::admission
