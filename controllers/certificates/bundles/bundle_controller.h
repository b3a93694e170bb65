// trust-manager's Bundle controller: for each Bundle, the certificates of its sources (ConfigMaps
// and Secrets of the trust namespace, inline PEM, the system's CA package) joined and
// deduplicated into a ConfigMap and/or Secret of the Bundle's name in every namespace its
// selector picks, with JKS and PKCS#12 trust stores when asked. Targets follow their sources and
// the namespaces' labels, are put back when edited, and go when no longer selected. A target name
// already used by an object that is not ours is left alone (Synced=False, TargetConflict).
#pragma once

#include "runtime/controller/reconcile.h"

#include <memory>
#include <string>

namespace capstan::cache {
class Informer;
}
namespace capstan::client {
class Client;
}
namespace capstan::controller {
class Manager;
}
namespace capstan::events {
class Recorder;
}

namespace capstan::certificates::bundles {

struct BundleOptions {
  std::string trust_namespace;     // where sources are read
  std::string default_ca_package;  // PEM file of useDefaultCAs ("" = none configured)
};

struct BundleEnv {
  client::Client& client;
  cache::Informer& bundles;
  cache::Informer& source_config_maps;  // in the trust namespace
  cache::Informer& source_secrets;      // in the trust namespace
  cache::Informer& target_config_maps;  // labelled trust.capstan.dev/bundle
  cache::Informer& target_secrets;      // labelled trust.capstan.dev/bundle
  cache::Informer& namespaces;
  events::Recorder* recorder = nullptr;
  BundleOptions options;
};

controller::Result reconcile_bundle(BundleEnv& env, const controller::Request& req, controller::Context& ctx);

// Registers the controller "bundles" on `mgr`.
std::shared_ptr<BundleEnv> wire_bundles(controller::Manager& mgr, BundleOptions options, events::Recorder* recorder);

}  // namespace capstan::certificates::bundles
