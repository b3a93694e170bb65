// The controller plug-in contract: everything one controller library gives the manager, stated
// once through one builder. The manager (manager/) lists the plugins; it holds none of their
// options and knows none of their kinds.
//
//   plugin::Plugin kafka::plugin() {
//     auto options = std::make_shared<KafkaOptions>();
//     return plugin::Plugin("kafka")
//         .alias("strimzi")
//         .describe("Kafka clusters ...")
//         .flags([options](flags::FlagSet& fs) { fs.add_int("kafka-workers", &options->workers, "..."); })
//         .crds(apis::kafka::v1::crds)
//         .permits({""}, {"pods"}, {"create", "update", "patch", "delete"})  // beyond reading
//         .webhooks({webhooks::kafka::configurations, [](plugin::Wiring& w) { ... }})
//         .setup([options](plugin::Wiring& w) { wire_kafka(w.manager, *options); });
//   }
//
// What the controllers read is never listed: setup's For/Owns/Watches (and any informer it or
// the webhooks take from the manager) create the shared informers, and informers() records them
// by wiring the plugin into a manager that never starts. rbac_rules() grants get, list and watch
// on exactly those resources, then what permits() adds.
#pragma once

#include "runtime/flags/flags.h"
#include "runtime/json/json.h"
#include "runtime/meta/gvk.h"
#include "runtime/webhook/configuration.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::controller {
class Manager;
}
namespace capstan::webhook {
class Server;
}

namespace capstan::plugin {

// What the manager knows that a controller may need while it wires itself.
struct Environment {
  std::string pod_namespace = "capstan-system";  // the manager's own namespace
  // The plug-ins the manager runs (their names): what lets two compose when both are on (the
  // certificates controller gives the monitoring controller alert rules).
  std::vector<std::string> enabled;
  bool runs(std::string_view plugin) const { return std::find(enabled.begin(), enabled.end(), plugin) != enabled.end(); }
};

// What setup() and a webhook's serve() wire into.
struct Wiring {
  controller::Manager& manager;
  webhook::Server& webhooks;
  const Environment& env;
};

// What `capstan dev` (one machine, the embedded API server) offers a plug-in to default its
// flags to: its data directory and loopback ports kept across restarts.
struct DevEnvironment {
  std::string data_dir;
  std::function<std::uint16_t(const std::string& name)> loopback_port;  // name: "acme-http01"
};

// A CRD whose versions a conversion webhook converts.
struct Conversion {
  std::string crd;   // "kafkas.kafka.capstan.dev"
  std::string path;  // where serve() registers the converter
};

// An API group's admission and conversion webhooks (webhooks/<group>).
struct Webhooks {
  // The Validating/MutatingWebhookConfiguration objects, for the endpoint the manager serves at.
  std::function<std::vector<json::Value>(const webhook::Endpoint&)> configurations;
  // Registers the handlers on w.webhooks (after setup: informers it reads exist).
  std::function<void(Wiring&)> serve;
  // The CRDs converted by a path of serve()'s: crds() points them there.
  std::vector<Conversion> conversions = {};
};

// An informer a plugin reads: a resource, narrowed by a label selector ("" = every object).
struct InformerUse {
  meta::GroupVersionResource gvr;
  std::string label_selector;
  bool operator==(const InformerUse&) const = default;
};

class Plugin {
 public:
  explicit Plugin(std::string name);

  // ---- declaring --------------------------------------------------------------------------
  // A name --controllers accepts forever for compatibility ("cert-manager").
  Plugin& alias(std::string name);
  // Not enabled by '*' in --controllers; only by its name.
  Plugin& off_by_default();
  Plugin& describe(std::string text);
  // Adds its command-line flags; they parse into state the plugin owns (captured by setup).
  Plugin& flags(std::function<void(flags::FlagSet&)> add);
  Plugin& crds(std::function<std::vector<json::Value>()> crds);
  // Rights beyond reading what it watches: writes, status, events, impersonation...
  Plugin& permits(std::initializer_list<std::string_view> groups, std::initializer_list<std::string_view> resources,
                  std::initializer_list<std::string_view> verbs);
  Plugin& webhooks(Webhooks hooks);
  // Adds its controllers, indexes and servers to w.manager.
  Plugin& setup(std::function<void(Wiring&)> wire);
  // Sets its flags the user did not give (fs.changed()) to what suits `capstan dev`; returns
  // lines for the dev banner ("ACME HTTP-01 solver: http://127.0.0.1:8089").
  Plugin& dev_defaults(std::function<std::vector<std::string>(flags::FlagSet&, const DevEnvironment&)> set);

  // ---- using ------------------------------------------------------------------------------
  const std::string& name() const { return name_; }
  const std::vector<std::string>& aliases() const { return aliases_; }
  bool default_on() const { return default_on_; }
  const std::string& description() const { return description_; }
  void add_flags(flags::FlagSet& fs) const;
  std::vector<std::string> apply_dev_defaults(flags::FlagSet& fs, const DevEnvironment& env) const;
  // Its CRDs, a converted one's conversion webhook at `endpoint`.
  std::vector<json::Value> crds(const webhook::Endpoint& endpoint) const;
  std::vector<json::Value> webhook_configurations(const webhook::Endpoint& endpoint) const;
  // Runs setup, then serves the webhooks; while leading, moves the objects of its CRDs served
  // at several versions to their storage version (runtime/crd/storage_migration.h).
  void wire(Wiring& w) const;
  // The informers wire() creates, recorded by wiring into a manager that never starts (with the
  // flags as parsed so far): the single source of the informers and the read rules.
  std::vector<InformerUse> informers() const;
  // ClusterRole rules: get, list, watch on every resource of informers(), merged with permits()
  // (one rule per API group and set of verbs); then, for a CRD served at several versions, what
  // its storage migration and CA injection take, by name: get and patch on the CRD, patch on its
  // status, list and update on its resource.
  json::Array rbac_rules() const;

 private:
  struct Permit {
    std::vector<std::string> groups, resources, verbs;
  };
  std::string name_;
  std::vector<std::string> aliases_;
  bool default_on_ = true;
  std::string description_;
  std::vector<std::function<void(flags::FlagSet&)>> flags_;
  std::function<std::vector<json::Value>()> crds_;
  std::vector<Permit> permits_;
  std::vector<Webhooks> webhooks_;
  std::function<void(Wiring&)> setup_;
  std::function<std::vector<std::string>(flags::FlagSet&, const DevEnvironment&)> dev_defaults_;
};

// One ClusterRole rule: {apiGroups, resources, verbs}.
json::Object rbac_rule(std::initializer_list<std::string_view> groups, std::initializer_list<std::string_view> resources,
                       std::initializer_list<std::string_view> verbs);

}  // namespace capstan::plugin
