#include "services/replays/replays.h"

#include <algorithm>
#include <set>
#include <vector>

#include "engine/game.h"
#include "lib/chance/verifiable.h"
#include "lib/common/grpc_util.h"
#include "lib/common/log.h"
#include "lib/common/negative_control.h"
#include "services/replays/digest.h"
#include "services/replays/prepare.h"
#include "services/replays/record.h"
#include "services/replays/visibility.h"

namespace metropolis::replays {
namespace {

// Replays::Reveal (the call) hides the struct's name inside the class.
using RevealRows = std::vector<Reveal>;

constexpr uint32_t kDefaultPage = 50, kMaxPage = 500;
constexpr int kMaxIds = 500;

grpc::Status Invalid(std::string message) { return {grpc::StatusCode::INVALID_ARGUMENT, std::move(message)}; }

// The analysis calls of a replays service started without an analysis store
// or worker.
grpc::Status NoAnalyses() { return {grpc::StatusCode::UNIMPLEMENTED, "this replays service analyses no games"}; }

grpc::Status CheckIds(const google::protobuf::RepeatedPtrField<std::string>& ids, const char* field) {
  if (ids.size() > kMaxIds) return Invalid(std::string(field) + ": more than 500");
  for (int i = 0; i < ids.size(); ++i)
    if (!ValidGameId(ids[i]))
      return Invalid(std::string(field) + "[" + std::to_string(i) + "]: " + services::Quoted(ids[i]) +
                     " is not a game id");
  return grpc::Status::OK;
}

grpc::Status BadGameId(const std::string& game_id) { return Invalid("game_id: '" + game_id + "' is not a game id"); }

// The page token: the last game's finished time and id, which the next page
// starts strictly after (newest first).
std::string PageToken(int64_t finished_ms, const std::string& id) { return std::to_string(finished_ms) + "/" + id; }
bool ParsePageToken(const std::string& token, int64_t* ms, std::string* id) {
  const size_t slash = token.find('/');
  if (slash == std::string::npos || slash == 0) return false;
  try {
    size_t used = 0;
    *ms = std::stoll(token.substr(0, slash), &used);
    if (used != slash) return false;
  } catch (...) {
    return false;
  }
  *id = token.substr(slash + 1);
  return ValidGameId(*id);
}

// Visible(), unless the negative control "hidden_games" switched the rule off
// (lib/common/negative_control.h): then every game is shown.
bool Shown(const std::string& game_id, const std::string& tournament, const std::vector<Reveal>& reveals) {
  return Visible(game_id, tournament, reveals) || services::ProtectionRemoved("hidden_games");
}

// A stored game read back, as the engine's configuration and actions: it passed
// this check when it was stored, so failing now means the stored data or the
// engine changed.
grpc::Status Replayable(const v1::CompletedGameRecord& game, GameConfig* config, std::vector<Action>* actions) {
  if (grpc::Status s = CheckRecord(game, config, actions); !s.ok())
    return {grpc::StatusCode::DATA_LOSS, "stored game " + game.game_id() + " no longer replays: " + s.error_message()};
  return grpc::Status::OK;
}

// The engine's game record of a stored game (ExportGame's record_json).
grpc::Status RecordJson(const v1::CompletedGameRecord& game, std::string* out) {
  GameRecord record;
  if (grpc::Status s = Replayable(game, &record.config, &record.actions); !s.ok()) return s;
  if (game.verifiable_seed().empty()) {
    record.seed = game.chance_seed();
  } else {  // docs/CHANCE.md: what `metropolis-engine verify` checks
    record.verifiable_seed = chance::ToHex(game.verifiable_seed());
    record.chance_commitment = chance::ToHex(game.chance_commitment());
  }
  record.winner = game.result().winner();
  for (const auto& seat : game.seats()) record.players.push_back(seat.name());
  *out = GameRecordToJson(record);
  return grpc::Status::OK;
}

// The bulk export's cursor: "e" and ListGames' token of the game it follows
// (oldest first), so that neither is taken for the other.
std::string ExportCursor(int64_t finished_ms, const std::string& id) { return "e" + PageToken(finished_ms, id); }
bool ParseExportCursor(const std::string& cursor, ListCursor* out) {
  if (cursor.size() < 2 || cursor[0] != 'e') return false;
  out->set = ParsePageToken(cursor.substr(1), &out->finished_unix_ms, &out->game_id);
  return out->set;
}

// A ladder's or a tournament's id as the export takes it: what ListGames
// filters on, 1 to 64 bytes without control characters.
bool ValidScopeId(const std::string& id) {
  if (id.empty() || id.size() > 64) return false;
  for (unsigned char c : id)
    if (c < 0x20 || c == 0x7f) return false;
  return true;
}

}  // namespace

grpc::Status Replays::Shows(const std::string& game_id, const std::string& tournament, bool* shown) {
  RevealRows reveals;
  // A game outside tournaments needs no reveal: no read for it.
  if (!tournament.empty())
    if (grpc::Status s = reveals_->Reveals({tournament}, &reveals); !s.ok()) return s;
  *shown = Shown(game_id, tournament, reveals);
  return grpc::Status::OK;
}

grpc::Status Replays::Store(const v1::CompletedGameRecord& game, v1::StoreGameResponse* out) {
  PreparedGame prepared;
  if (grpc::Status s = PrepareRecord(game, &prepared); !s.ok()) return s;
  bool already_stored = false;
  std::string digest;
  if (grpc::Status s = store_->Insert(prepared, &already_stored, &digest); !s.ok()) return s;
  // Stored before: the digest of what was stored then, which the caller passes on.
  out->set_digest(digest);
  if (already_stored) {
    out->set_already_stored(true);
    return grpc::Status::OK;
  }
  if (!prepared.has_compact)
    services::LogWarning("no compact form", {{"game", game.game_id()}, {"error", prepared.compact_error}});
  // Stored for the first time: the worker decides whether to analyse it (a
  // game stored again was offered when it was first stored).
  if (scheduler_) scheduler_->Stored(game);
  out->set_compact_bytes(uint32_t(prepared.compact.size()));
  return grpc::Status::OK;
}

grpc::Status Replays::Confirm(const std::string& game_id, const std::string& digest, bool* confirmed) {
  if (!ValidGameId(game_id)) return BadGameId(game_id);
  if (!ValidDigest(digest)) return Invalid("digest: not 64 lower-case hex digits");
  bool found = false;
  std::string stored;
  if (grpc::Status s = store_->Digest(game_id, &stored, &found); !s.ok()) return s;
  if (!found) return {grpc::StatusCode::NOT_FOUND, "no stored game " + game_id};
  *confirmed = stored == digest;
  return grpc::Status::OK;
}

grpc::Status Replays::Load(const std::string& game_id, v1::CompletedGameRecord* out) {
  if (!ValidGameId(game_id)) return BadGameId(game_id);
  // A hidden game is hidden whatever else is wrong with it: the store sets its
  // tournament even when the rest does not parse (DATA_LOSS).
  const grpc::Status loaded = store_->Load(game_id, out);
  if (!loaded.ok() && loaded.error_code() != grpc::StatusCode::DATA_LOSS) return loaded;
  bool shown = false;
  if (grpc::Status s = Shows(game_id, out->tournament(), &shown); !s.ok()) return s;
  if (!shown) {
    out->Clear();
    return {grpc::StatusCode::FAILED_PRECONDITION, HiddenMessage(game_id)};
  }
  return loaded;
}

grpc::Status Replays::Debug(const std::string& game_id, const DebugReader& reader, v1::GameDebug* out) {
  v1::CompletedGameRecord game;
  if (grpc::Status s = Load(game_id, &game); !s.ok()) return s;
  std::vector<v1::SeatDebug> stored;
  if (grpc::Status s = store_->LoadDebug(game_id, &stored); !s.ok()) return s;
  bool any_seat = false;
  ReadableDebug(game, stored, reader, out, &any_seat);
  if (!any_seat) {
    out->Clear();
    return {grpc::StatusCode::PERMISSION_DENIED,
            "no seat of game " + game_id + " is yours: its debug is for its bots' authors only"};
  }
  return grpc::Status::OK;
}

grpc::Status Replays::Position(const v1::GetPositionRequest& request, v1::PositionResponse* out) {
  v1::CompletedGameRecord game;
  if (grpc::Status s = Load(request.game_id(), &game); !s.ok()) return s;
  GameConfig config;
  std::vector<Action> actions;
  if (grpc::Status s = Replayable(game, &config, &actions); !s.ok()) return s;
  return PositionAt(config, actions, request.step(), request.viewer(), out);
}

grpc::Status Replays::Export(const std::string& game_id, v1::ExportGameResponse* out) {
  v1::CompletedGameRecord game;
  if (grpc::Status s = Load(game_id, &game); !s.ok()) return s;
  if (grpc::Status s = RecordJson(game, out->mutable_record_json()); !s.ok()) return s;
  if (analyses_) {
    StoredAnalysis analysis;
    bool found = false;
    if (grpc::Status s = analyses_->Get(game_id, &analysis, &found); !s.ok()) return s;
    if (found) out->set_analysis_json(analysis.json);
  }
  return grpc::Status::OK;
}

grpc::Status Replays::AnalysisOfShown(const std::string& game_id, v1::GameAnalysis* out) {
  out->Clear();
  out->set_game_id(game_id);
  // Pending first: a job that ends between the two reads has written its
  // analysis before it stopped being pending, so the game never reads as
  // neither.
  const bool pending = scheduler_->Pending(game_id);
  StoredAnalysis analysis;
  bool found = false;
  if (grpc::Status s = analyses_->Get(game_id, &analysis, &found); !s.ok()) return s;
  if (found) {
    out->set_state(v1::ANALYSIS_READY);
    out->set_analysis_json(analysis.json);
    out->set_method_version(analysis.method_version);
    out->set_cpu_seconds(analysis.cpu_seconds);
    out->set_analysed_unix_ms(analysis.analysed_unix_ms);
  } else {
    // Not held here: another replica may hold it, or a restart will queue it.
    bool owed = pending;
    if (!owed)
      if (grpc::Status s = analyses_->Owed(game_id, &owed); !s.ok()) return s;
    out->set_state(owed ? v1::ANALYSIS_QUEUED : v1::ANALYSIS_NOT_ANALYSED);
  }
  return grpc::Status::OK;
}

grpc::Status Replays::Analysis(const std::string& game_id, v1::GameAnalysis* out) {
  if (!analyses_ || !scheduler_) return NoAnalyses();
  v1::CompletedGameRecord game;
  if (grpc::Status s = Load(game_id, &game); !s.ok()) return s;
  return AnalysisOfShown(game_id, out);
}

grpc::Status Replays::LuckSummary(int64_t identity_id, v1::LuckSummary* out) {
  if (!analyses_) return NoAnalyses();
  if (identity_id < 1) return Invalid("identity_id: at least 1");
  LuckTotals totals;
  if (grpc::Status s = analyses_->Luck(identity_id, &totals); !s.ok()) return s;
  out->set_identity_id(identity_id);
  out->set_games(totals.games);
  out->set_luck_cards(totals.luck_cards);
  out->set_dice_surplus(totals.dice_surplus);
  out->set_draw_surplus(totals.draw_surplus);
  out->set_place(totals.place);
  out->set_adjusted_place(totals.adjusted_place);
  return grpc::Status::OK;
}

grpc::Status Replays::RequestAnalysis(const std::string& game_id, v1::GameAnalysis* out) {
  if (!analyses_ || !scheduler_) return NoAnalyses();
  v1::CompletedGameRecord game;
  if (grpc::Status s = Load(game_id, &game); !s.ok()) return s;
  if (grpc::Status s = AnalysisOfShown(game_id, out); !s.ok() || out->state() == v1::ANALYSIS_READY) return s;
  // Offered even when queued: a game queued as stored may be one the worker
  // would leave alone (no person at the table); the request makes it count.
  switch (scheduler_->Request(game_id)) {
    case AnalysisQueue::Offered::kFull:
      return {grpc::StatusCode::RESOURCE_EXHAUSTED, "the analysis queue is full; ask again later"};
    case AnalysisQueue::Offered::kClosed:
      return {grpc::StatusCode::UNAVAILABLE, "the replays service is stopping; ask again"};
    default:
      break;
  }
  out->set_state(v1::ANALYSIS_QUEUED);
  return grpc::Status::OK;
}

grpc::Status Replays::List(const v1::ListStoredGamesRequest& request, v1::ListStoredGamesResponse* out) {
  if (request.page_size() > kMaxPage) return Invalid("page_size: at most 500");
  const uint32_t page = request.page_size() ? request.page_size() : kDefaultPage;
  ListCursor cursor;
  cursor.set = !request.page_token().empty();
  if (cursor.set && !ParsePageToken(request.page_token(), &cursor.finished_unix_ms, &cursor.game_id))
    return Invalid("page_token: not a token this service gave");
  const ListFilter filter{.identity_id = request.identity_id(),
                          .ladder = request.ladder(),
                          .season = request.season(),
                          .tournament = request.tournament(),
                          .finished_after_unix_ms = request.finished_after_unix_ms(),
                          .finished_before_unix_ms = request.finished_before_unix_ms()};
  bool more = false;
  if (grpc::Status s = ShownGames(filter, cursor, page, out->mutable_games(), &more); !s.ok()) return s;
  if (more) {
    const v1::StoredGameSummary& last = out->games(out->games_size() - 1);
    out->set_next_page_token(PageToken(last.finished_unix_ms(), last.game_id()));
  }
  return grpc::Status::OK;
}

grpc::Status Replays::ShownGames(const ListFilter& filter, ListCursor after, uint32_t count, Summaries* out,
                                 bool* more) {
  *more = false;
  // Hidden games (visibility.h) are dropped after they are read: batches are
  // read until `count` shown games and one more are found or the games run out.
  const int batch = int(std::max<uint32_t>(count + 1, 50));
  uint32_t found = 0;
  while (true) {
    Summaries rows;
    if (grpc::Status s = store_->ListPage(filter, after, batch, &rows); !s.ok()) return s;
    std::set<std::string> tournaments;
    for (const v1::StoredGameSummary& g : rows)
      if (!g.tournament().empty()) tournaments.insert(g.tournament());
    RevealRows reveals;
    if (!tournaments.empty())
      if (grpc::Status s = reveals_->Reveals(tournaments, &reveals); !s.ok()) return s;
    for (v1::StoredGameSummary& g : rows) {
      if (!Shown(g.game_id(), g.tournament(), reveals)) continue;
      if (found == count) {
        *more = true;
        return grpc::Status::OK;
      }
      ++found;
      *out->Add() = std::move(g);
    }
    if (rows.size() < batch) return grpc::Status::OK;
    const v1::StoredGameSummary& last = rows[batch - 1];
    after = {.set = true, .finished_unix_ms = last.finished_unix_ms(), .game_id = last.game_id()};
  }
}

grpc::Status Replays::ExportMany(const v1::ExportGamesRequest& request, v1::ExportGamesResponse* out) {
  const bool by_ladder = !request.ladder().empty(), by_tournament = !request.tournament().empty();
  if (by_ladder == by_tournament) return Invalid("ladder, tournament: exactly one of the two is required");
  if (by_ladder && !ValidScopeId(request.ladder())) return Invalid("ladder: 1 to 64 bytes, no control characters");
  if (by_tournament && !ValidScopeId(request.tournament()))
    return Invalid("tournament: 1 to 64 bytes, no control characters");
  if (request.page_size() > kMaxPage) return Invalid("page_size: at most 500");
  const uint32_t page = request.page_size() ? request.page_size() : kDefaultPage;
  ListCursor cursor;
  if (!request.cursor().empty() && !ParseExportCursor(request.cursor(), &cursor))
    return Invalid("cursor: not a cursor this service gave");
  const ListFilter filter{.ladder = request.ladder(), .tournament = request.tournament(), .oldest_first = true};
  Summaries shown;
  bool more = false;
  if (grpc::Status s = ShownGames(filter, cursor, page, &shown, &more); !s.ok()) return s;
  if (shown.empty()) {
    // Nothing after the cursor: an export at its end, unless nothing is shown
    // at all. Hidden games count as none, so this says nothing of them.
    Summaries first;
    bool ignored = false;
    if (cursor.set)
      if (grpc::Status s = ShownGames(filter, {}, 1, &first, &ignored); !s.ok()) return s;
    if (first.empty())
      return {grpc::StatusCode::NOT_FOUND,
              by_ladder ? "no game of ladder '" + request.ladder() + "' is stored"
                        : "no game of tournament '" + request.tournament() + "' is stored, or none is revealed yet"};
  }
  std::string next = request.cursor();
  for (const v1::StoredGameSummary& g : shown) {
    v1::CompletedGameRecord game;
    // Load's DATA_LOSS (a stored game that no longer reads) fails the page:
    // leaving the game out would be a gap the caller cannot see.
    v1::ExportedGame* exported = out->add_games();
    exported->set_game_id(g.game_id());
    exported->set_finished_unix_ms(g.finished_unix_ms());
    grpc::Status s = store_->Load(g.game_id(), &game);
    if (s.ok()) s = RecordJson(game, exported->mutable_record_json());
    if (!s.ok()) {
      out->Clear();
      return s;
    }
    next = ExportCursor(g.finished_unix_ms(), g.game_id());
    exported->set_cursor(next);
  }
  out->set_next_cursor(next);
  out->set_more(more);
  return grpc::Status::OK;
}

grpc::Status Replays::Reveal(const v1::RevealGamesRequest& request) {
  if (request.tournament().empty() || request.tournament().size() > 64)
    return Invalid("tournament: 1 to 64 bytes required");
  if (!request.whole_tournament() && request.game_ids().empty())
    return Invalid("game_ids: empty, and whole_tournament is false: nothing to reveal");
  if (grpc::Status s = CheckIds(request.game_ids(), "game_ids"); !s.ok()) return s;
  return reveals_->Add(request.tournament(), request.whole_tournament(),
                       {request.game_ids().begin(), request.game_ids().end()});
}

grpc::Status Replays::Results(const v1::GetResultsRequest& request, v1::GetResultsResponse* out) {
  if (request.game_ids().empty()) return Invalid("game_ids: at least one");
  if (grpc::Status s = CheckIds(request.game_ids(), "game_ids"); !s.ok()) return s;
  return store_->Results({request.game_ids().begin(), request.game_ids().end()}, out->mutable_games());
}

}  // namespace metropolis::replays
