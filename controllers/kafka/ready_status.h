// The Ready condition of the operators' objects (KafkaTopic, KafkaUser), written the same way
// by both: Ready=False with Strimzi's reason and the message, at the object's generation.
#pragma once

#include "apis/kafka/v1/group.h"
#include "runtime/client/client.h"
#include "runtime/controller/reconcile.h"
#include "runtime/controller/status.h"
#include "runtime/meta/object.h"

#include <chrono>
#include <string>
#include <string_view>

namespace capstan::kafka {

// `status` (decoded from `before`) with Ready=False, written; the reconcile runs again after `again`.
template <class Status>
controller::Result write_not_ready(client::Client& c, const meta::ResourceType& type, const json::Value& before, Status& status,
                                   std::string_view reason, const std::string& message, std::chrono::milliseconds again) {
  status.observed_generation = meta::generation_of(before);
  controller::set_condition(status.conditions, apis::kafka::v1::condition::kReady, "False", reason, message, status.observed_generation);
  controller::write_status(c, type.gvr, before, status);
  return controller::Result::after(again);
}

// The same for an object whose status cannot be decoded (or is not at hand): set on a copy of it.
inline controller::Result write_not_ready(client::Client& c, const meta::ResourceType& type, const json::Value& before, std::string_view reason,
                                          const std::string& message, std::chrono::milliseconds again) {
  json::Value obj = before;
  controller::set_condition(obj, apis::kafka::v1::condition::kReady, "False", reason, message);
  controller::write_status(c, type.gvr, before, obj);
  return controller::Result::after(again);
}

}  // namespace capstan::kafka
