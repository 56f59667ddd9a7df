// stands in for launchopt output at granularity grid
#define LAUNCHOPT_THRESHOLD 256
