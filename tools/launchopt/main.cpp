#include "Driver/Driver.h"

int main(int Argc, const char **Argv) { return launchopt::runDriver(Argc, Argv); }
