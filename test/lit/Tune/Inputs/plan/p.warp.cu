// stands in for launchopt output at granularity warp
#define LAUNCHOPT_THRESHOLD 256
