// stands in for launchopt output at granularity multiblock8
#define LAUNCHOPT_THRESHOLD 256
