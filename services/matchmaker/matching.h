// Forming tables from a ladder's queue: pure logic, no Redis, no clock, no
// network, so that every rule of it is tested directly.
//
// The oldest ticket is served first. Its table is the players nearest to it in
// rating that it and they accept: a ticket accepts a rating gap up to its
// window, which widens with its waiting time (base + per second waited, up to a
// maximum). A table of 4 needs 4 tickets; where the ladder allows it, the oldest
// ticket accepts a table of 3 after a wait; and where the ladder fills seats
// with built-in bots, it takes bots for the seats it cannot fill after another
// wait. Tickets that form no table wait for the next round.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace metropolis::matchmaker {

struct Ticket {
  std::string id;
  int64_t identity_id = 0;
  double rating = 0;  // the player's μ on the ladder (a newcomer's is the ladder's μ)
  int64_t enqueued_ms = 0;
  std::string name;  // the player's name, for the game's seat
};

struct MatchRules {
  int seats = 4;                      // 3 or 4
  int64_t allow_three_after_ms = -1;  // a 4-seat ladder forms tables of 3 after this wait; -1 never
  int64_t bot_fill_after_ms = -1;     // built-in bots fill the seats left after this wait; -1 never
  double window_base = 3.0;           // rating gap accepted at once (μ points)
  double window_per_second = 0.5;     // added per second waited
  double window_max = 25.0;           // never wider than this
};

// The rating gap `t` accepts after waiting until `now_ms`.
double Window(const Ticket& t, const MatchRules& rules, int64_t now_ms);

struct Table {
  std::vector<std::string> tickets;  // the oldest first
  int bots = 0;                      // seats for built-in bots
};

// The tables to form now from `queue` (any order). Each ticket is in at most one
// table; every table has rules.seats seats (or 3 on a 4-seat ladder that
// allows it), at least one of them a ticket.
std::vector<Table> FormTables(const std::vector<Ticket>& queue, const MatchRules& rules, int64_t now_ms);

}  // namespace metropolis::matchmaker
