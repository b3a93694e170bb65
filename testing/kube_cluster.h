// The real control plane as the judge, started the way controller-runtime's envtest starts
// it, plus what envtest leaves out and Capstan's users always have:
//   - etcd (our main over the pinned etcd server, tools/etcd) on free loopback ports;
//   - kube-apiserver of the pinned release with generated PKI (serving certificate, one
//     cluster CA for serving and client certificates, a service-account signing key, an admin
//     client certificate in system:masters), --authorization-mode=Node,RBAC and the admission
//     plugins a real cluster enables (the defaults plus NodeRestriction);
//   - kube-controller-manager running only the control-plane loops a cluster cannot do
//     without: garbage collection of ownerReferences, namespace deletion, the default
//     ServiceAccount of each namespace, kube-root-ca.crt, ClusterRole aggregation and PVC/PV
//     protection. Its workload loops stay off: the workload simulator does them on both
//     backends, written once.
// The binaries come from scripts/tools.sh (.tools/bin); start() fails at once, naming the
// command that builds them, when one is missing.
#pragma once

#include "testing/cluster.h"

#include <chrono>
#include <memory>
#include <string>

namespace capstan::e2e {

class KubeCluster : public Cluster {
 public:
  KubeCluster(const TempDir& dir, ClusterOptions options);
  ~KubeCluster() override;

  Backend backend() const override { return Backend::Kube; }
  void start() override;
  void stop() override;
  void restart() override;
  void kill_and_restart() override;
  void kill() override;
  void compact() override;
  int pid() const override;
  bool running() override;
  std::string logs() const override;

  std::uint16_t etcd_port() const { return etcd_port_; }
  // The directory of the generated PKI: ca.crt/key, apiserver.crt/key, sa.key/pub, admin.crt/key.
  std::string pki_dir() const { return dir_ + "/pki"; }
  // How long the last start() took for each piece (reported by the tests' output).
  struct StartTimes {
    std::chrono::milliseconds etcd{0}, apiserver{0}, controller_manager{0};
  };
  const StartTimes& start_times() const { return times_; }

 private:
  void write_pki();
  void start_etcd();
  void start_apiserver(bool keep_port);
  void start_controller_manager();

  std::string dir_;
  ClusterOptions opts_;
  std::uint16_t etcd_port_ = 0, etcd_peer_port_ = 0;
  std::unique_ptr<Process> etcd_, apiserver_, controller_manager_, simulator_;
  StartTimes times_;
};

}  // namespace capstan::e2e
