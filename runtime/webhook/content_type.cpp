#include "runtime/webhook/content_type.h"

#include "runtime/http/message.h"

namespace capstan::webhook {

bool is_json_content_type(std::string_view ct) {
  auto semi = ct.find(';');
  std::string_view media = ct.substr(0, semi);
  while (!media.empty() && (media.back() == ' ' || media.back() == '\t')) media.remove_suffix(1);
  while (!media.empty() && (media.front() == ' ' || media.front() == '\t')) media.remove_prefix(1);
  return http::iequals(media, "application/json");
}

}  // namespace capstan::webhook
