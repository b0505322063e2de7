#include "bench/gamehost_load_wire.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>
#include <grpcpp/support/byte_buffer.h>

#include "metropolis/v1/gamehost.pb.h"

namespace metropolis::load {
namespace {

using google::protobuf::internal::WireFormatLite;
using google::protobuf::io::CodedInputStream;

// Reads the fields of the message the stream is in (up to its limit), calling
// `field` for each tag it wants; what it does not want is skipped.
template <typename Field>
bool ReadFields(CodedInputStream* in, Field field) {
  for (uint32_t tag; (tag = in->ReadTag()) != 0;) {
    bool handled = false;
    if (!field(tag, &handled)) return false;
    if (!handled && !WireFormatLite::SkipField(in, tag)) return false;
  }
  return in->ConsumedEntireMessage();
}

// Runs `read` on the length-delimited field the stream is at.
template <typename Read>
bool ReadNested(CodedInputStream* in, Read read) {
  uint32_t length;
  if (!in->ReadVarint32(&length)) return false;
  const CodedInputStream::Limit limit = in->PushLimit(int(length));
  const bool ok = read(in);
  in->PopLimit(limit);
  return ok;
}

bool ReadLegal(CodedInputStream* in, uint32_t tag, std::vector<uint64_t>* legal) {
  const auto type = WireFormatLite::GetTagWireType(tag);
  if (type == WireFormatLite::WIRETYPE_FIXED64) {  // unpacked
    uint64_t code;
    if (!in->ReadLittleEndian64(&code)) return false;
    legal->push_back(code);
    return true;
  }
  if (type != WireFormatLite::WIRETYPE_LENGTH_DELIMITED) return false;
  return ReadNested(in, [legal](CodedInputStream* packed) {
    for (uint64_t code; packed->BytesUntilLimit() > 0;) {
      if (!packed->ReadLittleEndian64(&code)) return false;
      legal->push_back(code);
    }
    return true;
  });
}

// Reads the one message of an update's oneof: *kind is its field number.
template <typename Read>
bool ReadOneof(const grpc::ByteBuffer& buffer, int* kind, Read read) {
  grpc::Slice slice;
  if (!buffer.TrySingleSlice(&slice).ok() && !buffer.DumpToSingleSlice(&slice).ok()) return false;
  CodedInputStream in(slice.begin(), int(slice.size()));
  const uint32_t tag = in.ReadTag();
  if (WireFormatLite::GetTagWireType(tag) != WireFormatLite::WIRETYPE_LENGTH_DELIMITED) return false;
  *kind = int(WireFormatLite::GetTagFieldNumber(tag));
  return ReadNested(&in, read);
}

}  // namespace

bool SummarizeUpdate(const grpc::ByteBuffer& buffer, UpdateSummary* out) {
  out->legal.clear();
  out->view_delta = out->legal_in_delta = false;
  return ReadOneof(buffer, &out->kind, [out](CodedInputStream* msg) {
    if (out->kind == v1::PlayUpdate::kDecision) {
      return ReadFields(msg, [msg, out](uint32_t t, bool* handled) {
        *handled = true;
        if (t == WireFormatLite::MakeTag(v1::Decision::kStepFieldNumber, WireFormatLite::WIRETYPE_VARINT))
          return msg->ReadVarint32(&out->step);
        auto read_view = [out](CodedInputStream* view) {
          return ReadFields(view, [view, out](uint32_t v, bool* legal_field) {
            *legal_field = WireFormatLite::GetTagFieldNumber(v) == v1::View::kLegalFieldNumber;
            return !*legal_field || ReadLegal(view, v, &out->legal);
          });
        };
        if (t == WireFormatLite::MakeTag(v1::Decision::kViewFieldNumber, WireFormatLite::WIRETYPE_LENGTH_DELIMITED))
          return ReadNested(msg, read_view);
        if (t ==
            WireFormatLite::MakeTag(v1::Decision::kViewDeltaFieldNumber, WireFormatLite::WIRETYPE_LENGTH_DELIMITED)) {
          out->view_delta = true;
          return ReadNested(msg, [out, &read_view](CodedInputStream* delta) {
            return ReadFields(delta, [delta, out, &read_view](uint32_t d, bool* handled) {
              *handled = true;
              const int number = int(WireFormatLite::GetTagFieldNumber(d));
              if (number == v1::ViewDelta::kChangedFieldNumber) return ReadNested(delta, read_view);
              if (number != v1::ViewDelta::kFieldsFieldNumber) {
                *handled = false;
                return true;
              }
              auto note = [out](uint32_t field) {
                if (field == v1::View::kLegalFieldNumber) out->legal_in_delta = true;
              };
              uint32_t field;
              if (WireFormatLite::GetTagWireType(d) == WireFormatLite::WIRETYPE_VARINT) {  // unpacked
                if (!delta->ReadVarint32(&field)) return false;
                note(field);
                return true;
              }
              return ReadNested(delta, [&](CodedInputStream* packed) {
                while (packed->BytesUntilLimit() > 0) {
                  if (!packed->ReadVarint32(&field)) return false;
                  note(field);
                }
                return true;
              });
            });
          });
        }
        *handled = false;
        return true;
      });
    }
    if (out->kind == v1::PlayUpdate::kRejected) {
      return ReadFields(msg, [msg, out](uint32_t t, bool* handled) {
        *handled = true;
        if (t == WireFormatLite::MakeTag(v1::Rejected::kStepFieldNumber, WireFormatLite::WIRETYPE_VARINT))
          return msg->ReadVarint32(&out->step);
        if (t == WireFormatLite::MakeTag(v1::Rejected::kErrorFieldNumber, WireFormatLite::WIRETYPE_LENGTH_DELIMITED))
          return WireFormatLite::ReadString(msg, &out->error);
        *handled = false;
        return true;
      });
    }
    return true;  // the rest is not needed
  });
}

bool SummarizeSpectate(const grpc::ByteBuffer& buffer, SpectateSummary* out) {
  out->step = 0;
  return ReadOneof(buffer, &out->kind, [out](CodedInputStream* msg) {
    // The step is field 1 of Events and field 6 of Welcome; the rest is skipped.
    int step_field = 0;
    if (out->kind == v1::SpectateUpdate::kEvents) step_field = v1::Events::kStepFieldNumber;
    if (out->kind == v1::SpectateUpdate::kWelcome) step_field = v1::Welcome::kStepFieldNumber;
    if (step_field == 0) return true;
    return ReadFields(msg, [msg, out, step_field](uint32_t t, bool* handled) {
      *handled = t == WireFormatLite::MakeTag(step_field, WireFormatLite::WIRETYPE_VARINT);
      return !*handled || msg->ReadVarint32(&out->step);
    });
  });
}

}  // namespace metropolis::load
