// Playing and querying a superko proof (checker/certificate_play.hpp): gonu play --certificate
// FILE, where the certificate's strategy plays the winner against the user's defence with the
// full history and superko applied (every legal move of the loser allowed, undo to try another),
// and gonu query --certificate FILE [POSITION], the strategy's move at a state of the proof or
// the loser's legal replies, each with the strategy's answer.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "checker/certificate_play.hpp"
#include "tools/play_input.hpp"

namespace gonu::cli {

// The game a certificate command answers for: the certificate's root, then `history`; or, with a
// POSITION, a game of the proof that reaches it (found by walking the strategy against every
// defence). Throws GonuError when the history leaves the proof or no game of the proof reaches
// the position.
Game certificate_game(const CertificatePlayer& p, const std::optional<std::string>& position,
                      const std::string& history);

// `human`: the side the user plays (nullopt: both, the strategy's move then only shown).
void play_certificate(const CertificatePlayer& p, const std::string& path, const Game& g, std::optional<Side> human,
                      LineReader& in);

// gonu query --certificate's answer: as text, or the gonu-certificate-query/1 object.
void print_certificate_query(const CertificatePlayer& p, const std::string& path, const Game& g);
nlohmann::ordered_json certificate_query_json(const CertificatePlayer& p, const std::string& path, const Game& g);

}  // namespace gonu::cli
