#include "apiserver/protobuf/wire.h"

namespace capstan::apiserver::protobuf {

std::string_view wire_type_name(WireType type) {
  switch (type) {
    case WireType::Varint: return "varint";
    case WireType::Fixed64: return "fixed64";
    case WireType::LengthDelimited: return "length-delimited";
    case WireType::StartGroup: return "start-group";
    case WireType::EndGroup: return "end-group";
    case WireType::Fixed32: return "fixed32";
  }
  return "invalid";
}

void WireReader::truncated(std::string_view what, std::uint64_t need) const {
  throw WireError("truncated message at offset " + std::to_string(offset()) + ": " + std::string(what) +
                  " needs " + std::to_string(need) + " bytes, only " + std::to_string(data_.size() - pos_) +
                  " remain");
}

std::uint64_t WireReader::read_varint() {
  const std::size_t start = pos_;
  std::uint64_t value = 0;
  for (int i = 0; i < 10; ++i) {
    if (pos_ >= data_.size()) {
      throw WireError("truncated varint at offset " + std::to_string(base_ + start));
    }
    const auto byte = static_cast<std::uint8_t>(data_[pos_++]);
    if (i == 9 && byte > 1) {
      throw WireError("malformed varint at offset " + std::to_string(base_ + start) + ": more than 64 bits");
    }
    value |= static_cast<std::uint64_t>(byte & 0x7f) << (7 * i);
    if ((byte & 0x80) == 0) return value;
  }
  throw WireError("malformed varint at offset " + std::to_string(base_ + start) + ": more than 10 bytes");
}

Tag WireReader::read_tag() {
  Tag tag;
  tag.offset = offset();
  const std::uint64_t key = read_varint();
  const std::uint64_t field = key >> 3;
  const auto wire = static_cast<unsigned>(key & 7);
  if (field == 0 || field > 0x1fffffff) {
    throw WireError("invalid field number " + std::to_string(field) + " at offset " + std::to_string(tag.offset));
  }
  if (wire > 5) {
    throw WireError("invalid wire type " + std::to_string(wire) + " for field " + std::to_string(field) +
                    " at offset " + std::to_string(tag.offset));
  }
  tag.field = static_cast<std::uint32_t>(field);
  tag.wire = static_cast<WireType>(wire);
  return tag;
}

std::uint64_t WireReader::read_fixed64() {
  if (data_.size() - pos_ < 8) truncated("fixed64 value", 8);
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<std::uint8_t>(data_[pos_ + static_cast<std::size_t>(i)]);
  pos_ += 8;
  return v;
}

std::uint32_t WireReader::read_fixed32() {
  if (data_.size() - pos_ < 4) truncated("fixed32 value", 4);
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<std::uint8_t>(data_[pos_ + static_cast<std::size_t>(i)]);
  pos_ += 4;
  return v;
}

std::string_view WireReader::read_length_delimited(std::size_t* payload_offset) {
  const std::uint64_t length = read_varint();
  if (length > data_.size() - pos_) {
    truncated("length-delimited field", length);
  }
  if (payload_offset) *payload_offset = offset();
  auto out = data_.substr(pos_, static_cast<std::size_t>(length));
  pos_ += static_cast<std::size_t>(length);
  return out;
}

void WireReader::skip(WireType type) {
  switch (type) {
    case WireType::Varint: read_varint(); return;
    case WireType::Fixed64: read_fixed64(); return;
    case WireType::LengthDelimited: read_length_delimited(); return;
    case WireType::Fixed32: read_fixed32(); return;
    case WireType::StartGroup:
    case WireType::EndGroup: break;
  }
  throw WireError("unsupported wire type " + std::string(wire_type_name(type)) + " (groups) before offset " +
                  std::to_string(offset()));
}

}  // namespace capstan::apiserver::protobuf
