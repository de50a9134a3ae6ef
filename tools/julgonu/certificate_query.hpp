// A superko proof's answer at one state of its game, shared by gonu query --certificate, gonu play
// --certificate (tools/julgonu/play_certificate.hpp) and the explorer's /api/certificate
// (tools/serve/api.hpp): the game a request names (the certificate's root or a POSITION the proof
// reaches, then a history that must follow the proof), and the gonu-certificate-query/1 object:
// the value, the winner's move, or the loser's legal replies with the strategy's answer to each,
// and the moves superko bans there. The certificate is read by the checker's CertificatePlayer
// (checker/certificate_play.hpp); nothing here decides a move of its own.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "checker/certificate_play.hpp"

namespace gonu::cli {

// The game a certificate command answers for: the certificate's root, then `history`; or, with a
// POSITION, a game of the proof that reaches it (found by walking the strategy against every
// defence). Throws GonuError when the history leaves the proof or no game of the proof reaches
// the position.
Game certificate_game(const CertificatePlayer& p, const std::optional<std::string>& position,
                      const std::string& history);

// "WIN" or "LOSS" for the side to move at g.
std::string certificate_value(const CertificatePlayer& p, const Game& g);

// The gonu-certificate-query/1 object at g; `name` names the certificate (a path, or the
// explorer's id).
nlohmann::ordered_json certificate_query_json(const CertificatePlayer& p, const std::string& name, const Game& g);

}  // namespace gonu::cli
