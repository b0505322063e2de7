#include "bench/sse_reader.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace metropolis::load {
namespace {

std::string Chunk(const std::string& s) {
  char size[32];
  std::snprintf(size, sizeof size, "%zx\r\n", s.size());
  return size + s + "\r\n";
}

using Events = std::vector<std::pair<std::string, std::string>>;

// Feeds `body` in pieces of `piece` bytes until the reader is done.
SseReader::Result FeedAll(SseReader* reader, const std::string& body, size_t piece, Events* out) {
  SseReader::Result r = SseReader::Result::kMore;
  for (size_t i = 0; i < body.size() && r == SseReader::Result::kMore; i += piece) {
    r = reader->Feed(std::string_view(body).substr(i, piece),
                     [&](std::string_view name, std::string_view data) { out->emplace_back(name, data); });
  }
  return r;
}

TEST(SseReader, EventsAcrossChunksAndReadsWhateverTheCuts) {
  // As the gateway writes: a retry line, events, a keep-alive comment, then an
  // event cut across two chunks with two data lines, then the last chunk.
  const std::string body = Chunk("retry: 2000\n\n") +
                           Chunk(
                               "event: welcome\ndata: {\"a\":1}\n\nevent: events\ndata: "
                               "{\"events\":[{\"step\":9,\"s\":\"}\\\"\"}],\"step\":42}\n\n") +
                           Chunk(": keep-alive\n\n") + Chunk("event: view\nid: 7\ndata: {\"x\":\n") +
                           Chunk("data: 2}\n\n") + "0\r\n\r\n";
  for (size_t piece : {size_t(1), size_t(3), size_t(7), body.size()}) {
    SCOPED_TRACE(piece);
    SseReader reader(true);
    Events events;
    EXPECT_EQ(FeedAll(&reader, body, piece, &events), SseReader::Result::kEnd);
    ASSERT_EQ(events.size(), 3u);
    EXPECT_EQ(events[0], (std::pair<std::string, std::string>("welcome", "{\"a\":1}")));
    EXPECT_EQ(events[1].first, "events");
    EXPECT_EQ(events[2], (std::pair<std::string, std::string>("view", "{\"x\":\n2}")));
    uint32_t step = 0;
    EXPECT_TRUE(TopLevelStep(events[1].second, &step));
    EXPECT_EQ(step, 42u);  // not the nested one
  }
}

TEST(SseReader, WithoutChunksTheBodyIsTheEvents) {
  SseReader reader(false);
  Events events;
  EXPECT_EQ(FeedAll(&reader, "event: game_over\ndata: {}\n\n", 5, &events), SseReader::Result::kMore);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].first, "game_over");
}

TEST(SseReader, AMalformedChunkSizeIsAnError) {
  SseReader reader(true);
  EXPECT_EQ(reader.Feed("zz\r\n", [](std::string_view, std::string_view) {}), SseReader::Result::kError);
  EXPECT_FALSE(reader.error().empty());
}

TEST(TopLevelStep, EitherOrderAndNoneIsFalse) {
  uint32_t step = 0;
  EXPECT_TRUE(TopLevelStep("{\"step\":7,\"events\":[]}", &step));
  EXPECT_EQ(step, 7u);
  EXPECT_FALSE(TopLevelStep("{\"events\":[{\"step\":3}]}", &step));
}

TEST(HttpHead, StatusChunkedAndLength) {
  HttpHead head;
  size_t bytes = 0;
  const std::string ok = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n";
  ASSERT_TRUE(ParseHttpHead(ok + "3\r\n", &head, &bytes));
  EXPECT_EQ(bytes, ok.size());
  EXPECT_EQ(head.status, 200);
  EXPECT_TRUE(head.chunked);
  ASSERT_TRUE(ParseHttpHead("HTTP/1.1 503 Service Unavailable\r\nContent-Length: 5\r\n\r\n", &head, &bytes));
  EXPECT_EQ(head.status, 503);
  EXPECT_FALSE(head.chunked);
  EXPECT_TRUE(ParseHttpHead("HTTP/1.1 200", &head, &bytes));  // not whole yet
  EXPECT_EQ(bytes, 0u);
  EXPECT_FALSE(ParseHttpHead("garbage\r\n\r\n", &head, &bytes));
}

}  // namespace
}  // namespace metropolis::load
