// Protobuf's own JSON printer, set as the gateway's printer behaves (every
// field, names as declared): the reference that proto_json_test compares the
// gateway's printer with, and that gateway_json_bench times it against. Kept
// out of the gateway itself, which never links protobuf's JSON utilities.
#pragma once

#include <google/protobuf/message.h>
#include <google/protobuf/util/json_util.h>

#include <string>

namespace metropolis::gateway {

// False (and *error) when protobuf refuses the message.
inline bool ReferenceJson(const google::protobuf::Message& m, std::string* text, std::string* error = nullptr) {
  google::protobuf::util::JsonPrintOptions options;
  options.always_print_primitive_fields = true;
  options.preserve_proto_field_names = true;
  text->clear();
  const auto status = google::protobuf::util::MessageToJsonString(m, text, options);
  if (!status.ok() && error) *error = status.ToString();
  return status.ok();
}

}  // namespace metropolis::gateway
