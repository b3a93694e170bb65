#include "runtime/plugin/leader_loop.h"

#include "runtime/controller/manager.h"

namespace capstan::plugin {

void LeaderLoop::start() {
  stop_ = false;
  thread_ = std::thread([this] { run(); });
}

void LeaderLoop::stop() {
  {
    std::lock_guard l(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void LeaderLoop::run() {
  while (!stop_) {
    auto delay = step_(stop_);
    if (!delay) return;
    std::unique_lock l(mu_);
    cv_.wait_for(l, *delay, [this] { return stop_.load(); });
  }
}

void add_leader_loop(controller::Manager& mgr, std::string name, LeaderLoop::Step step) {
  auto loop = std::make_shared<LeaderLoop>(std::move(step));
  mgr.add_leader_runnable(std::move(name), [loop] { loop->start(); }, [loop] { loop->stop(); });
}

}  // namespace capstan::plugin
