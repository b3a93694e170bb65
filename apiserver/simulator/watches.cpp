#include "apiserver/simulator/watches.h"

#include "apiserver/simulator/resources.h"
#include "runtime/cache/factory.h"

namespace capstan::simulator {

Watches::Watches(client::Client& client)
    : client_(client), factory_(std::make_unique<cache::InformerFactory>(client_)) {}

Watches::~Watches() { stop(); }

void Watches::subscribe(const std::string& resource, Subscriber fn) {
  gvr(resource);  // throws for a resource outside the table
  subscribers_[resource].push_back(std::move(fn));
}

void Watches::start() {
  for (auto& [resource, subs] : subscribers_) {
    cache::InformerOptions o;
    o.gvr = gvr(resource);
    auto& informer = factory_->informer(o, namespaced(resource));
    auto fan_out = [resource = resource, subs = &subs](EventType type, const cache::ObjectPtr& obj,
                                                      const cache::ObjectPtr& previous) {
      Event e{resource, type, make_object(obj->value()), previous ? make_object(previous->value()) : nullptr};
      for (const auto& fn : *subs) fn(e);
    };
    cache::Handlers h;
    h.on_add = [fan_out](const cache::ObjectPtr& o, bool) { fan_out(EventType::Added, o, nullptr); };
    h.on_update = [fan_out](const cache::ObjectPtr& old, const cache::ObjectPtr& cur) { fan_out(EventType::Modified, cur, old); };
    h.on_delete = [fan_out](const cache::ObjectPtr& o) { fan_out(EventType::Deleted, o, nullptr); };
    informer.add_handlers(std::move(h));
  }
  factory_->start();
}

bool Watches::wait_for_sync(std::chrono::milliseconds timeout) { return factory_->wait_for_sync(timeout); }

void Watches::stop() { factory_->stop(); }

}  // namespace capstan::simulator
