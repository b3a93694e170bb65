// A Queue that can also add a key after a delay. One internal thread waits for the earliest due key
// (an ordered index of due times, not a thread or timer per key).
#pragma once

#include <condition_variable>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>

#include "runtime/workqueue/queue.h"

namespace capstan::workqueue {

class DelayingQueue : public Queue {
 public:
  explicit DelayingQueue(QueueConfig config = {});
  ~DelayingQueue() override;

  // Adds `key` once `delay` has passed (at once if delay <= 0). If `key` is already waiting, the earlier
  // of the two due times wins. A positive delay counts in workqueue_retries_total. Ignored once shutting
  // down.
  void add_after(const std::string& key, Duration delay);
  // Keys waiting for their delay to pass.
  std::size_t waiting_len() const;

  // All three also stop the waiting thread; keys still waiting for their delay are dropped.
  void shut_down() override;
  void shut_down_with_drain() override;
  void shut_down_now() override;

 private:
  void wait_loop();
  void stop_waiting();

  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::multimap<TimePoint, std::string> due_;  // equal times keep insertion order
  std::unordered_map<std::string, std::multimap<TimePoint, std::string>::iterator> entries_;
  bool stopping_ = false;
  Clock::SubscriptionId subscription_ = 0;
  std::once_flag stop_once_;
  std::thread waiter_;
};

}  // namespace capstan::workqueue
