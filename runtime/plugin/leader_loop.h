// Work a plug-in runs on a thread of its own while the manager leads: step() is called at once,
// then again after the delay it returns, until it returns nullopt (done) or the manager stops
// leading. Stopping wakes a waiting loop at once.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace capstan::controller {
class Manager;
}

namespace capstan::plugin {

class LeaderLoop {
 public:
  // `stopping` lets a long step notice the stop.
  using Step = std::function<std::optional<std::chrono::milliseconds>(const std::atomic<bool>& stopping)>;
  explicit LeaderLoop(Step step) : step_(std::move(step)) {}
  ~LeaderLoop() { stop(); }
  LeaderLoop(const LeaderLoop&) = delete;
  LeaderLoop& operator=(const LeaderLoop&) = delete;

  void start();
  void stop();

 private:
  void run();

  Step step_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

// Runs `step` in a LeaderLoop while `mgr` leads.
void add_leader_loop(controller::Manager& mgr, std::string name, LeaderLoop::Step step);

}  // namespace capstan::plugin
