#include "services/gateway/proto_json.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace metropolis::gateway {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;

template <typename Int>
void AppendInt(Int value, std::string* out) {
  char buffer[24];
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
  out->append(buffer, end);
}

// 64-bit integers are strings in the mapping: JavaScript's numbers hold 53 bits.
template <typename Int>
void AppendQuotedInt(Int value, std::string* out) {
  out->push_back('"');
  AppendInt(value, out);
  out->push_back('"');
}

// The shortest of "%.<digits>g" and "%.<max_digits>g" that reads back as the
// same value: what protobuf writes, so that both printers agree to the byte.
template <typename Float>
void AppendFloat(Float value, std::string* out) {
  if (std::isnan(value)) {
    out->append("\"NaN\"");
    return;
  }
  if (std::isinf(value)) {
    out->append(value > 0 ? "\"Infinity\"" : "\"-Infinity\"");
    return;
  }
  constexpr int kDigits = std::numeric_limits<Float>::digits10;
  constexpr int kMaxDigits = std::numeric_limits<Float>::max_digits10;
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.*g", kDigits, static_cast<double>(value));
  Float back;
  if constexpr (sizeof(Float) == sizeof(float)) {
    back = std::strtof(buffer, nullptr);
  } else {
    back = std::strtod(buffer, nullptr);
  }
  if (back != value) std::snprintf(buffer, sizeof buffer, "%.*g", kMaxDigits, static_cast<double>(value));
  out->append(buffer);
}

// JSON's escapes, plus '<' and '>' (a text inside a page's <script> cannot
// close it) and the two line separators JavaScript strings once refused.
void AppendString(const std::string& text, std::string* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out->push_back('"');
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    switch (c) {
      case '"':
        out->append("\\\"");
        continue;
      case '\\':
        out->append("\\\\");
        continue;
      case '\b':
        out->append("\\b");
        continue;
      case '\f':
        out->append("\\f");
        continue;
      case '\n':
        out->append("\\n");
        continue;
      case '\r':
        out->append("\\r");
        continue;
      case '\t':
        out->append("\\t");
        continue;
      default:
        break;
    }
    if (c < 0x20 || c == '<' || c == '>' || c == 0x7f) {
      out->append("\\u00");
      out->push_back(kHex[c >> 4]);
      out->push_back(kHex[c & 0xf]);
    } else if (c == 0xe2 && i + 2 < text.size() && static_cast<unsigned char>(text[i + 1]) == 0x80 &&
               (static_cast<unsigned char>(text[i + 2]) == 0xa8 || static_cast<unsigned char>(text[i + 2]) == 0xa9)) {
      out->append(static_cast<unsigned char>(text[i + 2]) == 0xa8 ? "\\u2028" : "\\u2029");
      i += 2;
    } else {
      out->push_back(static_cast<char>(c));
    }
  }
  out->push_back('"');
}

void AppendBase64(const std::string& bytes, std::string* out) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  out->push_back('"');
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const uint32_t n = (static_cast<unsigned char>(bytes[i]) << 16) | (static_cast<unsigned char>(bytes[i + 1]) << 8) |
                       static_cast<unsigned char>(bytes[i + 2]);
    out->push_back(kAlphabet[(n >> 18) & 63]);
    out->push_back(kAlphabet[(n >> 12) & 63]);
    out->push_back(kAlphabet[(n >> 6) & 63]);
    out->push_back(kAlphabet[n & 63]);
  }
  if (const size_t rest = bytes.size() - i; rest > 0) {
    uint32_t n = static_cast<unsigned char>(bytes[i]) << 16;
    if (rest == 2) n |= static_cast<unsigned char>(bytes[i + 1]) << 8;
    out->push_back(kAlphabet[(n >> 18) & 63]);
    out->push_back(kAlphabet[(n >> 12) & 63]);
    out->push_back(rest == 2 ? kAlphabet[(n >> 6) & 63] : '=');
    out->push_back('=');
  }
  out->push_back('"');
}

void AppendEnum(const FieldDescriptor* field, int number, std::string* out) {
  // A number the enum does not name (from a newer peer) is written as the number.
  if (const auto* value = field->enum_type()->FindValueByNumber(number)) {
    out->push_back('"');
    out->append(value->name());
    out->push_back('"');
  } else {
    AppendInt(number, out);
  }
}

void AppendMessage(const Message& message, std::string* out);

// One element of a repeated field (index >= 0) or a singular field (index < 0).
void AppendValue(const Message& m, const Reflection* r, const FieldDescriptor* f, int index, std::string* out) {
  const bool one = index < 0;
  switch (f->cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT32:
      return AppendInt(one ? r->GetInt32(m, f) : r->GetRepeatedInt32(m, f, index), out);
    case FieldDescriptor::CPPTYPE_UINT32:
      return AppendInt(one ? r->GetUInt32(m, f) : r->GetRepeatedUInt32(m, f, index), out);
    case FieldDescriptor::CPPTYPE_INT64:
      return AppendQuotedInt(one ? r->GetInt64(m, f) : r->GetRepeatedInt64(m, f, index), out);
    case FieldDescriptor::CPPTYPE_UINT64:
      return AppendQuotedInt(one ? r->GetUInt64(m, f) : r->GetRepeatedUInt64(m, f, index), out);
    case FieldDescriptor::CPPTYPE_DOUBLE:
      return AppendFloat(one ? r->GetDouble(m, f) : r->GetRepeatedDouble(m, f, index), out);
    case FieldDescriptor::CPPTYPE_FLOAT:
      return AppendFloat(one ? r->GetFloat(m, f) : r->GetRepeatedFloat(m, f, index), out);
    case FieldDescriptor::CPPTYPE_BOOL:
      out->append((one ? r->GetBool(m, f) : r->GetRepeatedBool(m, f, index)) ? "true" : "false");
      return;
    case FieldDescriptor::CPPTYPE_ENUM:
      return AppendEnum(f, one ? r->GetEnumValue(m, f) : r->GetRepeatedEnumValue(m, f, index), out);
    case FieldDescriptor::CPPTYPE_STRING: {
      std::string scratch;
      const std::string& text =
          one ? r->GetStringReference(m, f, &scratch) : r->GetRepeatedStringReference(m, f, index, &scratch);
      if (f->type() == FieldDescriptor::TYPE_BYTES) return AppendBase64(text, out);
      return AppendString(text, out);
    }
    case FieldDescriptor::CPPTYPE_MESSAGE:
      return AppendMessage(one ? r->GetMessage(m, f) : r->GetRepeatedMessage(m, f, index), out);
  }
}

// A map's key is always a string in JSON: numbers and booleans are quoted.
void AppendMapKey(const Message& entry, const Reflection* r, const FieldDescriptor* key, std::string* out) {
  switch (key->cpp_type()) {
    case FieldDescriptor::CPPTYPE_STRING: {
      std::string scratch;
      return AppendString(r->GetStringReference(entry, key, &scratch), out);
    }
    case FieldDescriptor::CPPTYPE_BOOL:
      out->append(r->GetBool(entry, key) ? "\"true\"" : "\"false\"");
      return;
    case FieldDescriptor::CPPTYPE_INT32:
      return AppendQuotedInt(r->GetInt32(entry, key), out);
    case FieldDescriptor::CPPTYPE_UINT32:
      return AppendQuotedInt(r->GetUInt32(entry, key), out);
    case FieldDescriptor::CPPTYPE_INT64:
      return AppendQuotedInt(r->GetInt64(entry, key), out);
    case FieldDescriptor::CPPTYPE_UINT64:
      return AppendQuotedInt(r->GetUInt64(entry, key), out);
    default:
      return;  // protobuf allows no other key types
  }
}

void AppendRepeated(const Message& m, const Reflection* r, const FieldDescriptor* f, std::string* out) {
  const int size = r->FieldSize(m, f);
  if (f->is_map()) {
    const Descriptor* entry_type = f->message_type();
    const FieldDescriptor* key = entry_type->map_key();
    const FieldDescriptor* value = entry_type->map_value();
    out->push_back('{');
    for (int i = 0; i < size; ++i) {
      const Message& entry = r->GetRepeatedMessage(m, f, i);
      const Reflection* er = entry.GetReflection();
      if (i > 0) out->push_back(',');
      AppendMapKey(entry, er, key, out);
      out->push_back(':');
      AppendValue(entry, er, value, -1, out);
    }
    out->push_back('}');
    return;
  }
  out->push_back('[');
  for (int i = 0; i < size; ++i) {
    if (i > 0) out->push_back(',');
    AppendValue(m, r, f, i, out);
  }
  out->push_back(']');
}

void AppendMessage(const Message& message, std::string* out) {
  const Descriptor* d = message.GetDescriptor();
  const Reflection* r = message.GetReflection();
  out->push_back('{');
  bool first = true;
  for (int i = 0; i < d->field_count(); ++i) {
    const FieldDescriptor* f = d->field(i);
    // Fields with presence (messages, oneof members, proto3 `optional`) are
    // written when set; the rest always, defaults included.
    if (!f->is_repeated() && f->has_presence() && !r->HasField(message, f)) continue;
    if (!first) out->push_back(',');
    first = false;
    out->push_back('"');
    out->append(f->name());
    out->append("\":");
    if (f->is_repeated()) {
      AppendRepeated(message, r, f, out);
    } else {
      AppendValue(message, r, f, -1, out);
    }
  }
  out->push_back('}');
}

}  // namespace

void AppendProtoJson(const Message& message, std::string* out) { AppendMessage(message, out); }

std::string PrintProtoJson(const Message& message) {
  std::string out;
  out.reserve(256);
  AppendMessage(message, &out);
  return out;
}

}  // namespace metropolis::gateway
