// kube-controller-manager's root-ca-cert-publisher: every namespace has the ConfigMap
// "kube-root-ca.crt" whose data is exactly {"ca.crt": the cluster CA} and which carries the
// description annotation. It is created when missing (and re-created when deleted) and put
// back when its data or annotation is changed.
#pragma once

#include "apiserver/rest/service.h"
#include "apiserver/system/loop.h"
#include "runtime/log/log.h"

#include <chrono>
#include <string>

namespace capstan::apiserver::system {

inline constexpr std::string_view kRootCaConfigMap = "kube-root-ca.crt";

class RootCaPublisher {
 public:
  // `ca_pem`: the cluster CA certificate (what kube-controller-manager's --root-ca-file holds).
  // Stopped when destroyed (its loop is).
  RootCaPublisher(rest::Service& service, std::string ca_pem);

  void start();
  void stop() { loop_.stop(); }

 private:
  std::chrono::milliseconds publish(const std::string& ns);

  rest::Service& service_;
  const std::string ca_pem_;
  log::Logger log_;
  Loop loop_;  // declared last: stopped before the rest goes away
};

}  // namespace capstan::apiserver::system
