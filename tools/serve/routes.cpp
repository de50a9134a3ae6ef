// The explorer's routes (see routes.hpp): each API handler turns a GonuError into a 400 and a
// lack of memory into a 503; anything else reaches the exception handler, a 500 with JSON.
#include "tools/serve/routes.hpp"

#include <functional>

#include "core/error.hpp"

namespace gonu::cli {

namespace {

const char* content_type(const std::string& name) {
  if (name.ends_with(".html")) return "text/html; charset=utf-8";
  if (name.ends_with(".js")) return "text/javascript; charset=utf-8";
  if (name.ends_with(".css")) return "text/css; charset=utf-8";
  if (name.ends_with(".svg")) return "image/svg+xml";
  return "application/octet-stream";
}

void send(httplib::Response& res, const ApiAnswer& a) {
  res.status = a.status;
  res.set_header("Cache-Control", "no-store");
  res.set_content(a.body, "application/json");
}

// The request named by the query string; throws GonuError for an unknown parameter.
ExplorerRequest request_from_params(const httplib::Request& req) {
  ExplorerRequest r;
  for (const auto& [key, value] : req.params) {
    if (key == "table") r.table = value;
    else if (key == "certificate") r.certificate = value;
    else if (key == "position") r.position = value;
    else if (key == "history") r.history = value;
    else throw GonuError("unknown parameter '" + key + "' (expected table, certificate, position, history)");
  }
  return r;
}

// A GET (query string) and a POST (JSON body) route onto call(served, request), where `served`
// outlives the server.
void add_game_route(httplib::Server& svr, const std::string& path, const Served& served,
                    ApiAnswer (*call)(const Served&, const ExplorerRequest&)) {
  svr.Get(path, [&served, call](const httplib::Request& req, httplib::Response& res) {
    try {
      send(res, call(served, request_from_params(req)));
    } catch (const GonuError& e) {
      send(res, api_error(400, e.what()));
    } catch (const std::bad_alloc&) {
      send(res, api_error(503, "out of memory; try again"));
    }
  });
  svr.Post(path, [&served, call](const httplib::Request& req, httplib::Response& res) {
    try {
      send(res, call(served, request_from_json(req.body)));
    } catch (const GonuError& e) {
      send(res, api_error(400, e.what()));
    } catch (const std::bad_alloc&) {
      send(res, api_error(503, "out of memory; try again"));
    }
  });
}

// A GET with a query string of one parameter, `name`, onto call(value).
void add_get_route(httplib::Server& svr, const std::string& path, const std::string& name,
                   const std::function<ApiAnswer(const std::string&)>& call) {
  svr.Get(path, [name, call](const httplib::Request& req, httplib::Response& res) {
    std::string value;
    for (const auto& [key, v] : req.params) {
      if (key != name) return send(res, api_error(400, "unknown parameter '" + printable(key) + "' (expected " + name + ")"));
      value = v;
    }
    try {
      send(res, call(value));
    } catch (const GonuError& e) {
      send(res, api_error(400, e.what()));
    } catch (const std::bad_alloc&) {
      send(res, api_error(503, "out of memory; try again"));
    }
  });
}

void add_routes(httplib::Server& svr, const Served& served, std::span<const WebAsset> assets) {
  for (const WebAsset& a : assets) {
    const std::string name = a.name;
    auto serve = [a, name](const httplib::Request&, httplib::Response& res) {
      res.set_header("Content-Security-Policy", "default-src 'self'; img-src 'self' data:");
      res.set_header("X-Content-Type-Options", "nosniff");
      res.set_content(reinterpret_cast<const char*>(a.data), a.size, content_type(name));
    };
    svr.Get("/" + name, serve);
    if (name == "index.html") svr.Get("/", serve);
  }
  svr.Get("/api/tables", [&served](const httplib::Request&, httplib::Response& res) { send(res, api_tables(served)); });
  add_game_route(svr, "/api/query", served, api_query);
  add_game_route(svr, "/api/line", served, api_line);
  svr.Get("/api/certificates", [&served](const httplib::Request&, httplib::Response& res) {
    send(res, api_certificates(served));
  });
  add_game_route(svr, "/api/certificate", served, api_certificate);
  add_get_route(svr, "/api/materials", "table", [&served](const std::string& set) {
    return api_materials(served, ExplorerRequest{set, "", std::nullopt, ""});
  });
  add_get_route(svr, "/api/rules", "game", [](const std::string& game) { return api_rules(game); });
}

// Errors that httplib answers itself (no route, a request too large, a bad request line) and
// faults of a handler get a JSON body too.
void add_error_handlers(httplib::Server& svr) {
  svr.set_error_handler(httplib::Server::HandlerWithResponse([](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;  // an API answer already
    const std::string request = printable(req.method) + " " + printable(req.path);
    std::string what = "bad request (HTTP " + std::to_string(res.status) + "): " + request;
    if (res.status == 404) what = "no such page or API: " + request;
    if (res.status == 413) what = "the request body is too large (at most " + std::to_string(kMaxBodyBytes) + " bytes)";
    if (res.status == 414) what = "the request line is too long (at most 8192 characters)";
    send(res, api_error(res.status, what));
    return httplib::Server::HandlerResponse::Handled;
  }));
  svr.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr ep) {
    std::string what = "internal error";
    try {
      std::rethrow_exception(ep);
    } catch (const std::exception& e) {
      what += ": " + printable(e.what());
    } catch (...) {
    }
    send(res, api_error(500, what));
  });
}

}  // namespace

void add_explorer_routes(httplib::Server& svr, const Served& served, std::span<const WebAsset> assets) {
  add_routes(svr, served, assets);
  add_error_handlers(svr);
}

}  // namespace gonu::cli
