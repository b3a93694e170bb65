// The JSON forms Kubernetes' custom-unmarshalled types accept (metav1.Time, MicroTime, Duration,
// resource.Quantity) and []byte's base64, with the exact errors their Go decoders return.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace capstan::apiserver::typed {

inline constexpr std::string_view kRFC3339 = "2006-01-02T15:04:05Z07:00";
inline constexpr std::string_view kRFC3339Micro = "2006-01-02T15:04:05.000000Z07:00";

// time.Parse(layout, value) for the two layouts above: nullopt when it parses, else Go's
// *time.ParseError text, e.g. `parsing time "2024-01-01" as "2006-01-02T15:04:05Z07:00": cannot
// parse "" as "T"` or `parsing time "2024-13-01T00:00:00Z": month out of range`.
std::optional<std::string> time_parse_error(std::string_view layout, std::string_view value);

// time.ParseDuration: `time: invalid duration "x"`, `time: missing unit in duration "1"`,
// `time: unknown unit "y" in duration "1y"`.
std::optional<std::string> duration_parse_error(std::string_view value);

// resource.ParseQuantity: ErrFormatWrong ("quantities must match the regular expression
// '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'") or ErrSuffix ("unable to parse quantity's
// suffix").
std::optional<std::string> quantity_parse_error(std::string_view value);

// base64.StdEncoding.Decode as encoding/json decodes a []byte: "illegal base64 data at input byte N".
std::optional<std::string> base64_error(std::string_view value);

}  // namespace capstan::apiserver::typed
