#include "runtime/leader/elector.h"

#include "runtime/client/client.h"
#include "runtime/events/recorder.h"
#include "runtime/log/log.h"
#include "runtime/metrics/registry.h"

#include <algorithm>
#include <condition_variable>
#include <random>
#include <stdexcept>

namespace capstan::leader {
namespace {

using SteadyClock = std::chrono::steady_clock;

Config with_defaults(Config c) {
  if (c.identity.empty()) c.identity = default_identity();
  return c;
}

std::unique_ptr<client::Client> make_lease_client(client::Client& base, const Config& c, metrics::Registry* registry) {
  client::Config cfg = base.config();
  // controller-runtime: the lease client's timeout is max(RenewDeadline/2, 1s), so that a hung
  // request cannot outlive the renew deadline by much.
  cfg.timeout = std::max<std::chrono::milliseconds>(c.renew_deadline / 2, std::chrono::seconds(1));
  cfg.user_agent += "/leader-election";
  client::ClientOptions o;
  o.registry = registry;
  o.max_retries = 0;
  return std::make_unique<client::Client>(std::move(cfg), o);
}

std::string describe_error(const std::exception& e) { return e.what(); }

}  // namespace

LeaderElector::LeaderElector(client::Client& client, Config config, Callbacks callbacks, metrics::Registry* registry)
    : config_(with_defaults(std::move(config))), callbacks_(std::move(callbacks)) {
  validate(config_);
  metrics::Registry& reg = registry ? *registry : metrics::Registry::global();
  master_status_ = &reg.gauge("leader_election_master_status",
                              "Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 "
                              "indicates master. 'name' is the string used to identify the lease. Please make sure to "
                              "group by name.",
                              {"name"})
                        .with({config_.lease_name});
  slowpath_ = &reg.counter("leader_election_slowpath_total",
                           "Total number of slow path exercised in renewing leader leases. 'name' is the string used "
                           "to identify the lease. Please make sure to group by name.",
                           {"name"})
                   .with({config_.lease_name});
  lease_client_ = make_lease_client(client, config_, registry);
  lock_ = std::make_unique<LeaseLock>(*lease_client_, config_.lease_namespace, config_.lease_name, config_.labels);
}

LeaderElector::~LeaderElector() { stop(); }

void LeaderElector::start() {
  std::lock_guard<std::mutex> l(thread_mu_);
  if (thread_.joinable()) throw std::logic_error("leader elector for lease " + lock_->describe() + " already started");
  thread_ = std::jthread([this](std::stop_token st) { run(st); });
}

void LeaderElector::stop() {
  std::lock_guard<std::mutex> l(thread_mu_);
  if (!thread_.joinable()) return;
  thread_.request_stop();
  thread_.join();
}

void LeaderElector::abandon() {
  abandon_ = true;
  stop();
}

std::string LeaderElector::leader_identity() const {
  std::lock_guard<std::mutex> l(mu_);
  return observed_.holder_identity;
}

bool LeaderElector::sleep_for(std::stop_token stop, SteadyClock::duration d) {
  std::mutex m;
  std::condition_variable_any cv;
  std::unique_lock<std::mutex> lock(m);
  cv.wait_for(lock, stop, d, [] { return false; });
  return !stop.stop_requested();
}

void LeaderElector::run(std::stop_token stop) {
  log::Logger logger{{"lease", lock_->describe()}, {"identity", config_.identity}};
  running_ = true;
  lost_ = false;
  master_status_->set(0);
  logger.info("attempting to acquire leader lease");
  if (acquire(stop)) {
    leading_ = true;
    master_status_->set(1);
    logger.info("successfully acquired lease");
    record_event("became leader");
    std::stop_source leading;
    std::thread started;
    if (callbacks_.on_started_leading) {
      started = std::thread([this, token = leading.get_token(), &logger] {
        try {
          callbacks_.on_started_leading(token);
        } catch (const std::exception& e) {
          logger.error("on_started_leading failed", {{"error", e.what()}});
        }
      });
    }
    renew(stop);
    leading_ = false;
    master_status_->set(0);
    leading.request_stop();
    if (started.joinable()) started.join();
    if (!abandon_) {
      if (config_.release_on_cancel) release();
      record_event("stopped leading");
    }
    if (lost_) logger.info("leader election lost");
    else logger.info("stopped leading");
  }
  if (callbacks_.on_stopped_leading) {
    try {
      callbacks_.on_stopped_leading();
    } catch (const std::exception& e) {
      logger.error("on_stopped_leading failed", {{"error", e.what()}});
    }
  }
  running_ = false;
}

bool LeaderElector::acquire(std::stop_token stop) {
  std::mt19937_64 rng{std::random_device{}()};
  std::uniform_real_distribution<double> jitter(0.0, kJitterFactor);
  while (!stop.stop_requested()) {
    bool ok = try_acquire_or_renew();
    maybe_report_transition();
    if (ok) return true;
    log::debug("failed to acquire lease", {{"lease", lock_->describe()}});
    // wait.JitterUntil(f, RetryPeriod, 1.2, sliding): period + rand*1.2*period after each try.
    auto wait = std::chrono::duration_cast<SteadyClock::duration>(config_.retry_period * (1.0 + jitter(rng)));
    if (!sleep_for(stop, wait)) break;
  }
  return false;
}

void LeaderElector::renew(std::stop_token stop) {
  log::Logger logger{{"lease", lock_->describe()}, {"identity", config_.identity}};
  while (!stop.stop_requested()) {
    // wait.PollImmediateUntil(RetryPeriod, tryAcquireOrRenew, renew-deadline context)
    auto deadline = SteadyClock::now() + config_.renew_deadline;
    bool renewed = false;
    while (!stop.stop_requested()) {
      if (try_acquire_or_renew()) {
        renewed = true;
        break;
      }
      auto now = SteadyClock::now();
      if (now >= deadline) break;
      auto next = std::min<SteadyClock::time_point>(now + config_.retry_period, deadline);
      if (!sleep_for(stop, next - now)) break;
      if (SteadyClock::now() >= deadline) break;
    }
    maybe_report_transition();
    if (stop.stop_requested()) return;
    if (!renewed) {
      lost_ = true;
      logger.warn("failed to renew lease within the renew deadline",
                  {{"renewDeadlineMs", static_cast<long long>(config_.renew_deadline.count())}});
      return;
    }
    logger.trace("successfully renewed lease");
    // wait.Until(..., RetryPeriod): the next round starts one period after this one ended.
    if (!sleep_for(stop, config_.retry_period)) return;
  }
}

void LeaderElector::release() { release_with(*lock_); }

bool LeaderElector::release_with(LeaseLock& lock) {
  log::Logger logger{{"lease", lock.describe()}, {"identity", config_.identity}};
  Record current;
  try {
    current = lock.get().first;  // refreshes the resourceVersion
  } catch (const std::exception& e) {
    logger.error("releasing the lease: reading it failed", {{"error", describe_error(e)}});
    return false;
  }
  // client-go checks only its observed record; the fresh one decides here, so a candidate
  // that has already taken over is never overwritten.
  if (!holds_lease() || current.holder_identity != config_.identity) return false;
  auto now = meta::Clock::now();
  Record released;
  released.leader_transitions = current.leader_transitions;
  released.lease_duration_seconds = 1;
  released.renew_time = now;
  released.acquire_time = now;
  try {
    lock.update(released);
  } catch (const std::exception& e) {
    logger.error("failed to release the lease", {{"error", describe_error(e)}});
    return false;
  }
  set_observed(released);
  logger.info("released the lease");
  return true;
}

bool LeaderElector::release_now(std::chrono::milliseconds timeout) {
  abandon_ = true;  // the election thread writes no more (it may finish a write in flight)
  if (!holds_lease()) return false;
  client::Config cfg = lease_client_->config();
  cfg.timeout = std::max<std::chrono::milliseconds>(timeout, std::chrono::milliseconds(1));
  metrics::Registry private_metrics;  // not the process's: this client lives for one release
  client::ClientOptions o;
  o.registry = &private_metrics;
  o.max_retries = 0;
  client::Client quick(std::move(cfg), o);
  LeaseLock lock(quick, lock_->ns(), lock_->name(), config_.labels);
  return release_with(lock);
}

bool LeaderElector::try_acquire_or_renew() {
  if (abandon_) return false;  // abandon() / release_now(): no further write
  log::Logger logger{{"lease", lock_->describe()}, {"identity", config_.identity}};
  auto now = meta::Clock::now();
  Record rec;
  rec.holder_identity = config_.identity;
  rec.lease_duration_seconds = std::chrono::duration_cast<std::chrono::seconds>(config_.lease_duration).count();
  rec.renew_time = now;
  rec.acquire_time = now;

  // 1. Fast path: the leader updates optimistically, assuming its last record is current.
  if (holds_lease() && lease_valid(SteadyClock::now())) {
    Record old;
    {
      std::lock_guard<std::mutex> l(mu_);
      old = observed_;
    }
    rec.acquire_time = old.acquire_time;
    rec.leader_transitions = old.leader_transitions;
    try {
      lock_->update(rec);
      set_observed(rec);
      return true;
    } catch (const std::exception& e) {
      logger.info("failed to update lock optimistically, falling back to slow path", {{"error", describe_error(e)}});
    }
  }

  // 2. Obtain or create the record.
  Record old;
  std::string raw;
  try {
    std::tie(old, raw) = lock_->get();
  } catch (const client::ApiError& e) {
    if (!client::is_not_found(e)) {
      logger.warn("error retrieving resource lock", {{"error", describe_error(e)}});
      return false;
    }
    try {
      lock_->create(rec);
    } catch (const std::exception& ce) {
      logger.warn("error initially creating leader election record", {{"error", describe_error(ce)}});
      return false;
    }
    set_observed(rec);
    return true;
  } catch (const std::exception& e) {
    logger.warn("error retrieving resource lock", {{"error", describe_error(e)}});
    return false;
  }

  // 3. Record obtained: note a change, then check the holder and the expiry.
  {
    bool changed;
    {
      std::lock_guard<std::mutex> l(mu_);
      changed = raw != observed_raw_;
      if (changed) observed_raw_ = raw;
    }
    if (changed) set_observed(old);
  }
  if (!old.holder_identity.empty() && lease_valid(SteadyClock::now()) && !holds_lease()) {
    logger.trace("lock is held by another candidate and has not yet expired", {{"holder", old.holder_identity}});
    return false;
  }

  // 4. Take it (or keep it): fix up the record from the one read.
  if (holds_lease()) {
    rec.acquire_time = old.acquire_time;
    rec.leader_transitions = old.leader_transitions;
    slowpath_->inc();
  } else {
    rec.leader_transitions = old.leader_transitions + 1;
  }
  try {
    lock_->update(rec);
  } catch (const std::exception& e) {
    // A 409 Conflict: another candidate wrote first.
    logger.info("failed to update lock", {{"error", describe_error(e)}});
    return false;
  }
  set_observed(rec);
  return true;
}

void LeaderElector::maybe_report_transition() {
  std::string holder = leader_identity();
  if (holder == reported_leader_) return;
  reported_leader_ = holder;
  if (!callbacks_.on_new_leader) return;
  try {
    callbacks_.on_new_leader(holder);
  } catch (const std::exception& e) {
    log::error("on_new_leader failed", {{"lease", lock_->describe()}, {"error", e.what()}});
  }
}

void LeaderElector::set_observed(const Record& r) {
  std::lock_guard<std::mutex> l(mu_);
  observed_ = r;
  observed_time_ = SteadyClock::now();
}

bool LeaderElector::holds_lease() const {
  std::lock_guard<std::mutex> l(mu_);
  return observed_.holder_identity == config_.identity;
}

bool LeaderElector::lease_valid(SteadyClock::time_point now) const {
  std::lock_guard<std::mutex> l(mu_);
  return observed_time_ + std::chrono::seconds(observed_.lease_duration_seconds) > now;
}

void LeaderElector::record_event(const std::string& what) {
  if (!config_.recorder) return;
  json::Value lease = lock_->lease();
  if (!lease.is_object()) return;
  config_.recorder->event(lease, "Normal", "LeaderElection", config_.identity + " " + what);
}

}  // namespace capstan::leader
