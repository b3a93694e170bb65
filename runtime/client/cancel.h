// Cancelling a thread's API calls: controller-runtime hands every client call the reconcile's
// context; Capstan binds the reconcile's stop token to the worker thread instead, so
// reconcilers call the client as usual and their calls end when the controller stops them.
//
//   std::stop_source stop;
//   {
//     client::CancelScope scope(stop.get_token());
//     client.get(gvr, ns, name);  // throws http::Cancelled once `stop` fires, in flight
//   }                             // (connecting, waiting for the answer or a Retry-After) or not yet sent
//
// Scopes nest (the inner token applies until it ends). A call given an explicit
// http::Cancellation (Client::watch, Client::list_raw) uses that one instead.
#pragma once

#include <stop_token>

namespace capstan::client {

class CancelScope {
 public:
  explicit CancelScope(std::stop_token token);
  ~CancelScope();  // restores the enclosing scope's token
  CancelScope(const CancelScope&) = delete;
  CancelScope& operator=(const CancelScope&) = delete;

  // The calling thread's token (one that never stops outside any scope).
  static std::stop_token current();

 private:
  std::stop_token previous_;
};

}  // namespace capstan::client
