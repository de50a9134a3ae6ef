// The web explorer's page and its assets (tools/web/*), built into the program: web_assets.cpp is
// generated at build time by tools/web/embed.cmake, one byte array a file, so `gonu serve` needs
// no files beside it and fetches nothing from anywhere.
#pragma once
#include <cstddef>

namespace gonu::cli {

struct WebAsset {
  const char* name;  // the file's name in tools/web/, served at "/" + name
  const unsigned char* data;
  std::size_t size;
};

extern const WebAsset kWebAssets[];
extern const std::size_t kWebAssetCount;

}  // namespace gonu::cli
