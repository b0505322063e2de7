// Protobuf's canonical JSON mapping, printed straight from a message through
// reflection, with the gateway's options: field names as in the .proto, every
// field written (zeros and empty lists too), enums by name, 64-bit integers as
// strings. It is the text protobuf's own printer makes for these messages
// (tests/proto_json_test.cc compares the two on every message type), at a
// fraction of the cost: protobuf's printer serialises the message again and
// walks the bytes through a type resolver, and that was a third of the
// gateway's CPU with ten thousand live streams (docs/PERFORMANCE.md).
//
// It knows no well-known types (Timestamp, Any, Struct, wrappers): the API's
// messages use none, and the test fails if one ever does.
#pragma once

#include <string>

namespace google::protobuf {
class Message;
}

namespace metropolis::gateway {

// Appends `message` as JSON to `out`.
void AppendProtoJson(const google::protobuf::Message& message, std::string* out);
std::string PrintProtoJson(const google::protobuf::Message& message);

}  // namespace metropolis::gateway
