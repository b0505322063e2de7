// What gateway_streams reads of an HTTP/1.1 answer of server-sent events: the
// status line, then the body (chunked or not) cut into events. Only bytes in,
// events out: the sockets are the caller's.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

namespace metropolis::load {

// The head of an answer, once "\r\n\r\n" has come.
struct HttpHead {
  int status = 0;
  bool chunked = false;
};
// Finds the end of the head in `bytes`: *head_bytes is its length with the
// blank line (0 while it is incomplete). False when it is not an HTTP answer.
bool ParseHttpHead(std::string_view bytes, HttpHead* head, size_t* head_bytes);

// The top-level "step" of a JSON object such as an events message's data
// ({"events":[...],"step":N}, in either order); nested objects and strings are
// skipped over.
bool TopLevelStep(std::string_view json, uint32_t* step);

class SseReader {
 public:
  explicit SseReader(bool chunked) : chunked_(chunked) {}

  enum class Result { kMore, kEnd, kError };
  // Feeds body bytes; calls on_event(name, data) for each complete event (data:
  // its data lines joined with '\n'; comments and retry lines are skipped).
  // kEnd once the last chunk came; kError for a malformed chunk (error()).
  template <typename OnEvent>
  Result Feed(std::string_view bytes, OnEvent on_event) {
    const Result r = chunked_ ? Dechunk(bytes) : (text_.append(bytes), Result::kMore);
    // From where the last search stopped: a big view comes in many reads.
    for (size_t end; (end = text_.find("\n\n", std::max(pos_, scanned_))) != std::string::npos; pos_ = end + 2) {
      std::string_view name, data;
      if (ParseEvent(std::string_view(text_).substr(pos_, end - pos_), &name, &data)) on_event(name, data);
    }
    scanned_ = text_.empty() ? 0 : text_.size() - 1;
    Compact();
    return r;
  }
  const std::string& error() const { return error_; }

 private:
  Result Dechunk(std::string_view bytes);
  // False for a block with no data (a comment, a retry line).
  bool ParseEvent(std::string_view block, std::string_view* name, std::string_view* data);
  void Compact();

  enum class Chunk { kSize, kData, kDataEnd, kLast };
  const bool chunked_;
  Chunk chunk_ = Chunk::kSize;
  uint64_t chunk_left_ = 0;
  std::string size_line_;
  std::string text_;  // event text not yet cut into events, from pos_
  size_t pos_ = 0;
  size_t scanned_ = 0;  // no event ends before this offset
  std::string joined_;  // an event's data lines, when there are several
  std::string error_;
};

}  // namespace metropolis::load
