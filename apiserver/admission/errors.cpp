#include "apiserver/admission/errors.h"

namespace capstan::apiserver::admission {
namespace {

std::string quoted(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out.append(1, '"').append(s).append(1, '"');
  return out;
}

}  // namespace

std::string calling_error_text(std::string_view webhook, std::string_view reason) {
  return "failed calling webhook " + quoted(webhook) + ": " + std::string(reason);
}

ApiError calling_error(std::string_view webhook, std::string_view reason) {
  return internal_error(calling_error_text(webhook, reason));
}

ApiError denial_error(std::string_view webhook, const json::Value& status) {
  std::string denied_by = "admission webhook " + quoted(webhook) + " denied the request";
  int code = 0;
  std::string message, reason;
  const json::Object* details = nullptr;
  if (status.is_object()) {
    code = static_cast<int>(json::get_int(status, {"code"}).value_or(0));
    message = json::get_string(status, {"message"});
    reason = json::get_string(status, {"reason"});
    details = json::get_object(status, {"details"});
  }
  if (code < 400) code = 400;
  std::string text;
  if (!message.empty()) text = denied_by + ": " + message;
  else if (!reason.empty()) text = denied_by + ": " + reason;
  else text = denied_by + " without explanation";
  ApiError e(code, reason, text);
  if (details) e.details = *details;
  return e;
}

ApiError dry_run_unsupported(std::string_view webhook) {
  return bad_request("admission webhook " + quoted(webhook) + " does not support dry run");
}

}  // namespace capstan::apiserver::admission
