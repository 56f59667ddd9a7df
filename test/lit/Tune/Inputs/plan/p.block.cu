// stands in for launchopt output at granularity block
#define LAUNCHOPT_THRESHOLD 256
