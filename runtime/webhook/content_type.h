// Media-type check shared by the admission and conversion handlers.
#pragma once

#include <string_view>

namespace capstan::webhook {

// Whether a Content-Type header names application/json (case-insensitive; parameters such
// as "; charset=utf-8" are allowed).
bool is_json_content_type(std::string_view content_type);

}  // namespace capstan::webhook
