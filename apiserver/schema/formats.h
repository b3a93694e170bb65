// String formats validated for CRDs. apiextensions keeps only the formats in its supported list
// (StripUnsupportedFormatsPostProcess, 1.32): bsonobjectid, uri, email, hostname, ipv4, ipv6, cidr,
// mac, uuid, uuid3, uuid4, uuid5, isbn, isbn10, isbn13, creditcard, ssn, hexcolor, rgbcolor, byte,
// password, date, duration, datetime ("date-time" after removing '-'). Every other format, notably
// int32, int64, float and double, is dropped and has no effect on validation (so int32 ranges are
// not enforced by kube-apiserver either).
#pragma once

#include <string>
#include <string_view>

namespace capstan::apiserver::schema {

// The format name kube-openapi validates, or "" when apiextensions strips it.
std::string effective_format(std::string_view format);

// kube-openapi strfmt.Default validation for a supported format (as returned by
// effective_format). Unknown names return true.
bool format_valid(std::string_view effective, std::string_view value);

}  // namespace capstan::apiserver::schema
