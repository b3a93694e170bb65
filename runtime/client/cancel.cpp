#include "runtime/client/cancel.h"

#include "runtime/client/client_impl.h"

#include <utility>

namespace capstan::client {
namespace {
thread_local std::stop_token t_current;
}  // namespace

CancelScope::CancelScope(std::stop_token token) : previous_(std::exchange(t_current, std::move(token))) {}

CancelScope::~CancelScope() { t_current = std::move(previous_); }

std::stop_token CancelScope::current() { return t_current; }

CallCancellation::CallCancellation(http::Cancellation* given) {
  if (given) {
    cancel_ = given;
    return;
  }
  std::stop_token token = CancelScope::current();
  if (!token.stop_possible()) return;
  cancel_ = &own_;
  // Runs at once when the token is already stopped.
  on_stop_.emplace(std::move(token), [this] { own_.cancel(); });
}

}  // namespace capstan::client
