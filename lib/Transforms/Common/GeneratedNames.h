#ifndef LAUNCHOPT_TRANSFORMS_COMMON_GENERATEDNAMES_H
#define LAUNCHOPT_TRANSFORMS_COMMON_GENERATEDNAMES_H

// Every identifier launchopt writes into a user's program starts with the
// reserved prefix below, so that it cannot collide with a user's name. Each
// generated name or name prefix is spelled here once.

namespace launchopt::generated {

// The reserved prefix of every generated identifier.
inline constexpr const char Prefix[] = "__lo_";

} // namespace launchopt::generated

#endif
