#include "bench/sse_reader.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace metropolis::load {
namespace {

bool StartsWithNoCase(std::string_view text, std::string_view prefix) {
  if (text.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(text[i])) != prefix[i]) return false;
  return true;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

}  // namespace

bool ParseHttpHead(std::string_view bytes, HttpHead* head, size_t* head_bytes) {
  *head_bytes = 0;
  const size_t end = bytes.find("\r\n\r\n");
  if (end == std::string_view::npos) return bytes.size() < 5 || bytes.substr(0, 5) == "HTTP/";
  if (bytes.substr(0, 5) != "HTTP/") return false;
  std::string_view rest = bytes.substr(0, end + 2);
  size_t eol = rest.find("\r\n");
  const std::string_view status_line = rest.substr(0, eol);
  const size_t space = status_line.find(' ');
  if (space == std::string_view::npos || space + 4 > status_line.size()) return false;
  int status = 0;
  auto [ptr, ec] = std::from_chars(status_line.data() + space + 1, status_line.data() + space + 4, status);
  if (ec != std::errc() || ptr != status_line.data() + space + 4) return false;
  head->status = status;
  head->chunked = false;
  for (rest.remove_prefix(eol + 2); !rest.empty(); rest.remove_prefix(eol + 2)) {
    eol = rest.find("\r\n");
    const std::string_view line = rest.substr(0, eol);
    if (StartsWithNoCase(line, "transfer-encoding:")) {
      head->chunked = StartsWithNoCase(Trim(line.substr(18)), "chunked");
    }
  }
  *head_bytes = end + 4;
  return true;
}

bool TopLevelStep(std::string_view json, uint32_t* step) {
  int depth = 0;
  for (size_t i = 0; i < json.size(); ++i) {
    const char c = json[i];
    if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      --depth;
    } else if (c == '"') {
      if (depth == 1 && json.compare(i, 7, "\"step\":") == 0) {
        std::string_view number = Trim(json.substr(i + 7));
        auto [ptr, ec] = std::from_chars(number.data(), number.data() + number.size(), *step);
        return ec == std::errc();
      }
      // Over the string, escapes included.
      for (++i; i < json.size() && json[i] != '"'; ++i)
        if (json[i] == '\\') ++i;
    }
  }
  return false;
}

SseReader::Result SseReader::Dechunk(std::string_view bytes) {
  while (!bytes.empty()) {
    switch (chunk_) {
      case Chunk::kSize: {
        const size_t eol = bytes.find('\n');
        size_line_.append(bytes.substr(0, eol));
        if (size_line_.size() > 64) return error_ = "a chunk size line of over 64 bytes", Result::kError;
        if (eol == std::string_view::npos) return Result::kMore;
        bytes.remove_prefix(eol + 1);
        std::string_view line = Trim(size_line_);
        line = line.substr(0, line.find(';'));  // chunk extensions
        auto [ptr, ec] = std::from_chars(line.data(), line.data() + line.size(), chunk_left_, 16);
        if (line.empty() || ec != std::errc() || ptr != line.data() + line.size())
          return error_ = "a malformed chunk size '" + size_line_ + "'", Result::kError;
        size_line_.clear();
        // The last chunk: what follows (trailers) does not matter here.
        if (chunk_left_ == 0) return chunk_ = Chunk::kLast, Result::kEnd;
        chunk_ = Chunk::kData;
        break;
      }
      case Chunk::kData: {
        const size_t n = size_t(std::min<uint64_t>(chunk_left_, bytes.size()));
        text_.append(bytes.substr(0, n));
        bytes.remove_prefix(n);
        chunk_left_ -= n;
        if (chunk_left_ == 0) chunk_ = Chunk::kDataEnd;
        break;
      }
      case Chunk::kDataEnd: {  // the CRLF after a chunk's data
        const char c = bytes.front();
        bytes.remove_prefix(1);
        if (c == '\n')
          chunk_ = Chunk::kSize;
        else if (c != '\r')
          return error_ = "no CRLF after a chunk's data", Result::kError;
        break;
      }
      case Chunk::kLast:
        return Result::kEnd;
    }
  }
  return chunk_ == Chunk::kLast ? Result::kEnd : Result::kMore;
}

bool SseReader::ParseEvent(std::string_view block, std::string_view* name, std::string_view* data) {
  *name = "message";
  int data_lines = 0;
  joined_.clear();
  while (!block.empty()) {
    const size_t eol = block.find('\n');
    std::string_view line = block.substr(0, eol);
    block.remove_prefix(eol == std::string_view::npos ? block.size() : eol + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const size_t colon = line.find(':');
    if (colon == 0) continue;  // a comment (the keep-alive)
    const std::string_view field = line.substr(0, colon);
    std::string_view value = colon == std::string_view::npos ? std::string_view() : line.substr(colon + 1);
    if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
    if (field == "event") {
      *name = value;
    } else if (field == "data") {
      // Most events have one data line: it is used where it lies.
      if (++data_lines == 1) {
        *data = value;
      } else {
        if (data_lines == 2) joined_.assign(*data);
        joined_.push_back('\n');
        joined_.append(value);
      }
    }
  }
  if (data_lines > 1) *data = joined_;
  return data_lines > 0;
}

void SseReader::Compact() {
  if (pos_ >= text_.size()) {
    text_.clear();
    pos_ = scanned_ = 0;
    // One big view should not keep its buffer for the rest of the stream.
    if (text_.capacity() > (256 << 10)) text_.shrink_to_fit();
  } else if (pos_ > (64 << 10)) {
    text_.erase(0, pos_);
    scanned_ -= std::min(scanned_, pos_);
    pos_ = 0;
  }
}

}  // namespace metropolis::load
