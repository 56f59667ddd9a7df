// Prints generated programs as CUDA: one file holds any number of programs,
// each under its own name prefix, and a main that runs a range of them.
#ifndef LAUNCHOPT_DPGEN_PRINTER_H
#define LAUNCHOPT_DPGEN_PRINTER_H

#include "Program.h"
#include <string>
#include <vector>

namespace dpgen {

/// A whole translation unit: helpers, the programs (without the Removed items)
/// and a main that prints one checksum line per program.
std::string printFile(const std::vector<Program> &Programs, const RemovedSet &Removed = {});

} // namespace dpgen

#endif
