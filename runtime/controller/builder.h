// Wiring a controller to the shared cache, as controller-runtime's builder does:
//   mgr.controller("certificates")
//      .for_(kCertificates, {generation_changed()})   // the reconciled kind
//      .owns(kSecrets)                                // children: enqueue their controller owner
//      .watches(kIssuers, map_issuer_to_certificates) // anything else, through a map function
//      .with_max_concurrent(4)
//      .complete(reconcile);
#pragma once

#include "runtime/cache/informer.h"
#include "runtime/controller/controller.h"
#include "runtime/controller/predicate.h"

#include <functional>
#include <string>
#include <vector>

namespace capstan::events {
class Recorder;
}

namespace capstan::controller {

class Manager;

using ResourceType = meta::ResourceType;

using MapFunc = std::function<std::vector<Request>(const cache::ObjectPtr&)>;

// The requests of the objects in `inf` whose index `index` holds `value`: what a map function
// returns when an index says which objects another one concerns.
std::vector<Request> requests_by_index(const cache::Informer& inf, std::string_view index, std::string_view value);

class Builder {
 public:
  Builder(Manager& mgr, std::string name);

  // `narrow` may set a label/field selector (e.g. only the Secrets we own).
  Builder& for_(ResourceType t, std::vector<Predicate> predicates = {}, cache::InformerOptions narrow = {});
  Builder& owns(ResourceType t, std::vector<Predicate> predicates = {}, cache::InformerOptions narrow = {});
  Builder& watches(ResourceType t, MapFunc map, std::vector<Predicate> predicates = {}, cache::InformerOptions narrow = {});
  Builder& with_max_concurrent(int n);
  // A reconcile that times out, runs past its memory budget or panics (Fault) is recorded on
  // the reconciled object: condition `condition_type` set False with the fault's reason and
  // message (the reconciler's next successful run sets it again), and a Warning event when
  // `recorder` is given. Without this only the log and the metrics tell.
  Builder& records_faults(std::string condition_type, events::Recorder* recorder = nullptr);
  Controller& complete(Reconciler reconciler);

 private:
  struct Source {
    ResourceType type;
    std::vector<Predicate> predicates;
    cache::InformerOptions narrow;
    enum class Kind { For, Owns, Watches } kind;
    MapFunc map;
  };
  Manager& mgr_;
  std::string name_;
  int max_concurrent_ = 1;
  std::string fault_condition_;
  events::Recorder* fault_recorder_ = nullptr;
  std::vector<Source> sources_;
};

// The "uid" index every reconciled kind's informer carries (owner lookups by UID).
inline constexpr std::string_view kUidIndex = "uid";

}  // namespace capstan::controller
