#include "runtime/controller/builder.h"

#include "runtime/controller/manager.h"
#include "runtime/controller/status.h"
#include "runtime/events/recorder.h"

#include <stdexcept>

namespace capstan::controller {
namespace {

bool pass_create(const std::vector<Predicate>& ps, const cache::ObjectPtr& o) {
  for (const auto& p : ps)
    if (!p.on_create(o)) return false;
  return true;
}
bool pass_update(const std::vector<Predicate>& ps, const cache::ObjectPtr& a, const cache::ObjectPtr& b) {
  for (const auto& p : ps)
    if (!p.on_update(a, b)) return false;
  return true;
}
bool pass_delete(const std::vector<Predicate>& ps, const cache::ObjectPtr& o) {
  for (const auto& p : ps)
    if (!p.on_delete(o)) return false;
  return true;
}

std::string_view group_of(std::string_view api_version) {
  auto slash = api_version.find('/');
  return slash == std::string_view::npos ? std::string_view() : api_version.substr(0, slash);
}

void ensure_uid_index(cache::Informer& inf) {
  try {
    inf.add_index(std::string(kUidIndex), [](const cache::CachedObject& o) { return std::vector<std::string>{std::string(o.uid())}; });
  } catch (const std::invalid_argument&) {
    // Another controller sharing this informer added it already.
  }
}

bool same_labels(const cache::CachedObject& a, const cache::CachedObject& b) {
  if (a.label_count() != b.label_count()) return false;
  for (std::size_t i = 0; i < a.label_count(); ++i)
    if (a.label(i) != b.label(i)) return false;  // in the order written: a mere reordering costs one more request
  return true;
}

}  // namespace

Builder::Builder(Manager& mgr, std::string name) : mgr_(mgr), name_(std::move(name)) {}

Builder& Builder::for_(ResourceType t, std::vector<Predicate> predicates, cache::InformerOptions narrow) {
  sources_.push_back({std::move(t), std::move(predicates), std::move(narrow), Source::Kind::For, {}});
  return *this;
}

Builder& Builder::owns(ResourceType t, std::vector<Predicate> predicates, cache::InformerOptions narrow) {
  sources_.push_back({std::move(t), std::move(predicates), std::move(narrow), Source::Kind::Owns, {}});
  return *this;
}

Builder& Builder::watches(ResourceType t, MapFunc map, std::vector<Predicate> predicates, cache::InformerOptions narrow) {
  sources_.push_back({std::move(t), std::move(predicates), std::move(narrow), Source::Kind::Watches, std::move(map)});
  return *this;
}

Builder& Builder::with_max_concurrent(int n) {
  max_concurrent_ = n;
  return *this;
}

Builder& Builder::records_faults(std::string condition_type, events::Recorder* recorder) {
  fault_condition_ = std::move(condition_type);
  fault_recorder_ = recorder;
  return *this;
}

Controller& Builder::complete(Reconciler reconciler) {
  const Source* for_src = nullptr;
  for (const auto& s : sources_)
    if (s.kind == Source::Kind::For) for_src = &s;
  if (!for_src) throw std::invalid_argument("controller \"" + name_ + "\": for_() must be called");
  auto informer_for = [&](const Source& s) -> cache::Informer& {
    cache::InformerOptions o = s.narrow;
    o.gvr = s.type.gvr;
    return mgr_.informers().informer(std::move(o), s.type.namespaced);
  };
  cache::Informer& owner_inf = informer_for(*for_src);
  ensure_uid_index(owner_inf);
  ResourceType owner_type = for_src->type;

  ControllerOptions opts{name_, max_concurrent_, mgr_.metrics_registry()};
  if (!fault_condition_.empty() || fault_recorder_)
    opts.on_fault = [&owner_inf, &client = mgr_.client(), owner_type, type = fault_condition_, recorder = fault_recorder_](
                        const Request& r, const Fault& f) {
      auto cached = owner_inf.store().get(r.key());
      if (!cached) return;  // gone meanwhile
      json::Value obj = cached->value();
      auto& o = obj.as_object();
      o["apiVersion"] = owner_type.gvr.api_version();
      o["kind"] = owner_type.kind;
      if (recorder) recorder->event(obj, "Warning", f.reason, f.message);
      if (type.empty()) return;
      json::Value before = obj;
      set_condition(obj, type, "False", f.reason, f.message);
      write_status(client, owner_type.gvr, before, obj);
    };
  auto& ctrl = mgr_.add_controller(std::move(opts), std::move(reconciler));
  Controller* c = &ctrl;

  std::vector<const cache::Informer*> read;
  for (const auto& src : sources_) {
    cache::Informer& inf = informer_for(src);
    read.push_back(&inf);
    auto preds = src.predicates;
    std::function<void(const cache::ObjectPtr&)> enqueue;
    switch (src.kind) {
      case Source::Kind::For:
        enqueue = [c](const cache::ObjectPtr& o) { c->enqueue({std::string(o->ns()), std::string(o->name())}); };
        break;
      case Source::Kind::Owns:
        enqueue = [c, &owner_inf, owner_type](const cache::ObjectPtr& o) {
          for (const auto& ref : o->owners()) {
            if (!ref.controller || ref.kind != owner_type.kind || group_of(ref.api_version) != owner_type.gvr.group) continue;
            // The owner by UID (the index), else by the reference's name.
            auto owners = owner_inf.store().by_index(kUidIndex, ref.uid);
            if (!owners.empty()) {
              c->enqueue({std::string(owners.front()->ns()), std::string(owners.front()->name())});
            } else {
              c->enqueue({owner_type.namespaced ? std::string(o->ns()) : std::string(), std::string(ref.name)});
            }
          }
        };
        break;
      case Source::Kind::Watches: {
        auto map = src.map;
        enqueue = [c, map](const cache::ObjectPtr& o) {
          for (const auto& r : map(o)) c->enqueue(r);
        };
        break;
      }
    }
    cache::Handlers h;
    h.on_add = [enqueue, preds](const cache::ObjectPtr& o, bool) {
      if (pass_create(preds, o)) enqueue(o);
    };
    h.on_update = [enqueue, preds](const cache::ObjectPtr& a, const cache::ObjectPtr& b) {
      if (pass_update(preds, a, b)) {
        enqueue(b);
        // An owner was dropped, or labels changed (a map by label selector): the old object's
        // requests are told too (controller-runtime maps both objects of an update).
        if (a->owners().size() != b->owners().size() || !same_labels(*a, *b)) enqueue(a);
      }
    };
    h.on_delete = [enqueue, preds](const cache::ObjectPtr& o) {
      if (pass_delete(preds, o)) enqueue(o);
    };
    inf.add_handlers(std::move(h));
  }
  ctrl.set_sources(std::move(read));
  return ctrl;
}

std::vector<Request> requests_by_index(const cache::Informer& inf, std::string_view index, std::string_view value) {
  std::vector<Request> out;
  for (const auto& o : inf.store().by_index(index, value)) out.push_back({std::string(o->ns()), std::string(o->name())});
  return out;
}

}  // namespace capstan::controller
