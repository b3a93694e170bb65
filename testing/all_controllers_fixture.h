// A ControllerFixture for tests of every controller at once (hostile objects, faults): the
// manager runs `--controllers=*`, and a Git repository "app" is served by `git daemon` for the
// gitops controller. The tests' objects live in namespace "team".
#pragma once

#include "testing/controller_fixture.h"
#include "testing/git.h"

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace capstan::e2e {

class AllControllersFixture : public ControllerFixture {
 protected:
  using ControllerFixture::ControllerFixture;

  std::vector<std::string> manager_flags() override {
    return {"--controllers=*", "--gitops-storage-path=" + dir_->file("mirrors"),
            "--gitops-default-service-account=capstan-system/capstan-gitops"};
  }
  void before_cluster() override {
    std::filesystem::create_directories(dir_->file("git"));
    repo_ = std::make_unique<GitRepo>(dir_->file("git"), "app");
    daemon_ = std::make_unique<GitDaemon>(dir_->file("git"));
    daemon_->start();
  }

  // The Ready condition's status of `kind` `name` in namespace "team".
  std::string ready(const std::string& kind, const std::string& name) { return condition(kind, name, "team", "Ready"); }

  std::unique_ptr<GitRepo> repo_;
  std::unique_ptr<GitDaemon> daemon_;
};

}  // namespace capstan::e2e
