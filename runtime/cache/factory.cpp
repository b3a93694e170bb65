#include "runtime/cache/factory.h"

namespace capstan::cache {

InformerFactory::InformerFactory(client::Client& client, FactoryOptions options) : client_(client), opts_(std::move(options)) {}

InformerFactory::~InformerFactory() { stop(); }

Informer& InformerFactory::informer(InformerOptions o, bool namespaced) {
  if (namespaced && o.ns.empty()) o.ns = opts_.namespace_restriction;
  if (o.resync.count() == 0) o.resync = opts_.resync;
  o.streaming_list = o.streaming_list && opts_.streaming_list;
  std::lock_guard<std::mutex> l(mu_);
  auto& slot = informers_[o.identity()];
  if (!slot) {
    slot = std::make_unique<Informer>(client_, std::move(o));
    if (started_) slot->start();
  }
  return *slot;
}

void InformerFactory::start() {
  std::lock_guard<std::mutex> l(mu_);
  started_ = true;
  for (auto& [k, i] : informers_) i->start();
}

void InformerFactory::stop() {
  std::vector<Informer*> all;
  {
    std::lock_guard<std::mutex> l(mu_);
    started_ = false;
    for (auto& [k, i] : informers_) all.push_back(i.get());
  }
  for (auto* i : all) i->stop();
}

bool InformerFactory::wait_for_sync(std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  for (auto* i : informers()) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0 || !i->wait_for_sync(left)) return false;
  }
  return true;
}

bool InformerFactory::all_synced() const {
  for (auto* i : informers())
    if (!i->has_synced()) return false;
  return true;
}

std::vector<Informer*> InformerFactory::informers() const {
  std::lock_guard<std::mutex> l(mu_);
  std::vector<Informer*> out;
  for (const auto& [k, i] : informers_) out.push_back(i.get());
  return out;
}

}  // namespace capstan::cache
