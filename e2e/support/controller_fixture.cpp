#include "e2e/support/controller_fixture.h"

#include <iostream>

namespace capstan::e2e {

void ControllerFixture::SetUp() {
  dir_ = std::make_unique<TempDir>(setup_.name + "-" + to_string(backend()));
  before_cluster();
  ClusterOptions so;
  so.simulate_workloads = setup_.simulate_workloads;
  if (setup_.durable) so.data_dir = dir_->file("data");
  server_ = make_cluster(backend(), *dir_, so);
  server_->start();
  kubectl_ = std::make_unique<Kubectl>(*dir_, server_->kubeconfig());
  auto crds = run({capstan_bin(), "crds"});
  ASSERT_EQ(crds.code, 0) << crds.err;
  kubectl_->ok({"apply", "--server-side", "-f", "-"}, crds.out);
  kubectl_->ok({"wait", "--for=condition=Established", "crd", "--all", "--timeout=60s"});
  std::string kubeconfig = server_->kubeconfig();
  if (setup_.through_fault_proxy) {
    proxy_ = std::make_unique<FaultProxy>(server_->port());
    kubeconfig = dir_->file("proxy.kubeconfig");
    proxy_->write_kubeconfig(server_->kubeconfig(), kubeconfig);
  }
  manager_ = std::make_unique<ManagerProcess>(*dir_, kubeconfig, manager_flags());
  manager_->start();
}

void ControllerFixture::TearDown() {
  if (HasFailure()) {
    if (manager_) std::cerr << "---- manager log ----\n" << manager_->logs() << "\n";
    if (server_) std::cerr << "---- cluster logs ----\n" << server_->logs() << "\n";
    if (kubectl_ && !setup_.dump.empty())
      std::cerr << "---- " << setup_.dump << " ----\n" << (*kubectl_)({"get", setup_.dump, "-A", "-o", "yaml"}).out << "\n";
  }
  if (manager_) manager_->stop();
  proxy_.reset();
}

std::string ControllerFixture::condition(const std::string& resource, const std::string& name, const std::string& ns,
                                         const std::string& type, const std::string& field) {
  return get({"get", resource, name, "-n", ns, "-o", "jsonpath={.status.conditions[?(@.type==\"" + type + "\")]." + field + "}"});
}

}  // namespace capstan::e2e
