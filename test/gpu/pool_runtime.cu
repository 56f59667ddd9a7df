// Check of the record pool of runtime/include/launchopt/aggregation.cuh,
// which the host allocates at run time and sizes from the work.
//
// On the CPU (any machine): the capacities are LAUNCHOPT_POOL_MIN_BYTES
// doubled and capped at LAUNCHOPT_POOL_BYTES, and a parent's own sites are
// counted in the estimate. On a GPU: before any reset the pool is empty and
// every request fails (the parent launches directly); the first reset
// allocates the smallest pool; pieces never overlap and requests past the
// capacity fail; a refused request reports the demand at once, so the next
// reset grows the pool to some four times what was asked; a parent's
// estimate sizes it at once; it never shrinks
// and never passes the cap; a parent that takes only its own records skips
// the reset while the pool has room; multi-block scopes widen in a large
// grid (groupSpanFor). Built with -DPOOL_TEST_PROGRAM and
// pool_runtime_other.cu as one program (LAUNCHOPT_PROGRAM_POOL), both files
// see one pool.
//
//   nvcc -arch=sm_90 -rdc=true -std=c++17 -I runtime/include \
//        test/gpu/pool_runtime.cu -lcudadevrt -o pool_runtime && ./pool_runtime
//   (add -DLAUNCHOPT_POOL_BYTES=8192 for a pool capped at 8 KiB; or
//    -DPOOL_TEST_PROGRAM -DLAUNCHOPT_PROGRAM_POOL -DLAUNCHOPT_PROGRAM_POOL_DEFINITION
//    with test/gpu/pool_runtime_other.cu built with -DLAUNCHOPT_PROGRAM_POOL)
//
// Prints "pool runtime: all checks passed" (or "pool runtime: no GPU, host
// checks passed") and exits 0, or names the first failed check and exits 1.
#include <cstdio>
#include <launchopt/aggregation.cuh>

#ifdef POOL_TEST_PROGRAM
// pool_runtime_other.cu: the pool as the other file of the program sees it.
void otherFileResetPool(unsigned threads);
void otherFilePool(unsigned char **base, unsigned long long *capacity);
#endif

namespace {

int failures = 0;

void expect(bool ok, const char *what) {
  if (!ok && failures++ == 0)
    std::printf("pool runtime: FAILED: %s\n", what);
}

constexpr unsigned long long Cap = LAUNCHOPT_POOL_BYTES;
constexpr unsigned long long Least =
    LAUNCHOPT_POOL_MIN_BYTES < Cap
        ? (LAUNCHOPT_POOL_MIN_BYTES > 4096 ? LAUNCHOPT_POOL_MIN_BYTES : 4096)
        : Cap;

unsigned long long atMost(unsigned long long bytes) { return bytes < Cap ? bytes : Cap; }

void hostChecks() {
  using launchopt::poolCapacityFor;
  expect(poolCapacityFor(0) == Least, "an empty demand gets the smallest pool");
  expect(poolCapacityFor(double(Least)) == Least, "a demand of the smallest pool gets it");
  expect(poolCapacityFor(double(Least) + 1) == atMost(2 * Least), "one byte more doubles it");
  expect(poolCapacityFor(5.0 * Least) == atMost(8 * Least), "5x the smallest gets 8x");
  expect(poolCapacityFor(1e30) == Cap, "a demand past the cap gets the cap");
  for (double bytes = 1; bytes < 4.0 * Cap; bytes *= 3) {
    unsigned long long c = poolCapacityFor(bytes);
    bool geometric = c == Cap || (c % Least == 0 && ((c / Least) & (c / Least - 1)) == 0);
    expect(geometric, "every capacity is the smallest doubled, or the cap");
    expect(c == Cap || double(c) >= bytes, "a capacity below the cap holds the demand");
  }
  // 4 x 256 threads, one launch each of 16 bytes of arguments; 4 blocks
  // with one launch each of 32 bytes; a record array header per warp and block.
  double perThread = sizeof(launchopt::ChildRecord) + 16;
  double perBlock = sizeof(launchopt::ChildRecord) + 32;
  double headers = (4 + 1024 / 32) * 2 * (sizeof(launchopt::AggregatedLaunch) + 16);
  double estimate = launchopt::firstLevelBytes(dim3(4), dim3(256), {1, 16, 1, 32});
  expect(estimate == LAUNCHOPT_RECORDS_PER_THREAD * (1024 * perThread + 4 * perBlock) + headers,
         "the estimate counts a record and the arguments per launch, and the headers");
  expect(launchopt::firstLevelBytes(dim3(65535, 65535, 65535), dim3(1024), {1, 16, 0, 0}) > 1e18,
         "a huge grid's estimate does not wrap around");
  expect(launchopt::firstLevelBytes(dim3(4), dim3(256), {0, 0, 0, 0}) == 0,
         "a parent without sites of its own asks nothing");

  // Multi-block scopes: at least the granularity's blocks, widened so that a
  // grid makes at most LAUNCHOPT_MAX_GROUP_LAUNCHES launches; the scopes
  // cover the grid.
  const unsigned most = LAUNCHOPT_MAX_GROUP_LAUNCHES > 0 ? LAUNCHOPT_MAX_GROUP_LAUNCHES : 1;
  bool covered = true, bounded = true, least = true;
  for (unsigned blocks = 1; blocks < 100000; blocks += blocks / 7 + 1)
    for (unsigned granularity : {1u, 2u, 8u, 64u}) {
      unsigned span = launchopt::groupSpanFor(blocks, granularity);
      unsigned count = launchopt::groupCount(blocks, granularity);
      covered = covered && count * span >= blocks && (count - 1) * span < blocks;
      bounded = bounded && (count <= most || span == granularity);
      least = least && span >= granularity;
    }
  expect(covered, "a grid's multi-block scopes cover its blocks, none empty");
  expect(bounded, "a grid makes at most LAUNCHOPT_MAX_GROUP_LAUNCHES launches unless its "
                  "scopes are at their least");
  expect(least, "a scope spans at least the granularity's blocks");
  expect(launchopt::groupSpanFor(8 * most, 8) == 8 && launchopt::groupSpanFor(8 * most + 1, 8) > 8,
         "scopes widen only past LAUNCHOPT_MAX_GROUP_LAUNCHES scopes of the granularity's size");
}

__device__ unsigned granted, refused, overlaps, outside;

// Each thread asks for `bytes`, writes its index into its piece, and checks
// after a grid-wide pause (a second kernel) that it is still there.
__global__ void ask(unsigned count, unsigned long long bytes, unsigned **pieces) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= count)
    return;
  auto *p = static_cast<unsigned *>(launchopt::poolAllocate(bytes));
  pieces[t] = p;
  if (!p) {
    atomicAdd(&refused, 1u);
    return;
  }
  atomicAdd(&granted, 1u);
  unsigned char *c = reinterpret_cast<unsigned char *>(p);
  if (c < launchopt::poolBase || c + bytes > launchopt::poolBase + launchopt::poolCapacity ||
      reinterpret_cast<unsigned long long>(p) % 16 != 0)
    atomicAdd(&outside, 1u);
  for (unsigned long long i = 0; i < bytes / sizeof(unsigned); ++i)
    p[i] = t;
}

__global__ void verify(unsigned count, unsigned long long bytes, unsigned **pieces) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= count)
    return;
  unsigned *p = pieces[t];
  if (!p)
    return;
  for (unsigned long long i = 0; i < bytes / sizeof(unsigned); ++i)
    if (p[i] != t) {
      atomicAdd(&overlaps, 1u);
      return;
    }
}

template <typename T> T deviceValue(const T &symbol) {
  T value{};
  cudaMemcpyFromSymbol(&value, symbol, sizeof(T));
  return value;
}

void zeroCounters() {
  unsigned zero = 0;
  cudaMemcpyToSymbol(granted, &zero, sizeof zero);
  cudaMemcpyToSymbol(refused, &zero, sizeof zero);
  cudaMemcpyToSymbol(overlaps, &zero, sizeof zero);
  cudaMemcpyToSymbol(outside, &zero, sizeof zero);
}

// `threads` threads ask for `bytes` each; returns how many got a piece.
unsigned askAll(unsigned threads, unsigned long long bytes) {
  unsigned **pieces = nullptr;
  cudaMalloc(&pieces, sizeof(unsigned *) * threads);
  zeroCounters();
  ask<<<(threads + 255) / 256, 256>>>(threads, bytes, pieces);
  verify<<<(threads + 255) / 256, 256>>>(threads, bytes, pieces);
  cudaDeviceSynchronize();
  cudaFree(pieces);
  expect(deviceValue(overlaps) == 0, "pieces of the pool do not overlap");
  expect(deviceValue(outside) == 0, "pieces lie inside the buffer and are 16-byte aligned");
  expect(deviceValue(granted) + deviceValue(refused) == threads, "every request is answered");
  return deviceValue(granted);
}

void reset(unsigned threads, launchopt::ParentDemand demand) {
  launchopt::resetPool(0, dim3(1), dim3(threads), demand);
  cudaDeviceSynchronize();
}

unsigned long long cursor() { return deviceValue(launchopt::poolCursor); }

// A parent whose launches take only its own sites' records
// (ParentDemand::ownSitesOnly) leaves the cursor where the parents since the
// last reset left it while their estimates fill at most half the pool; a
// parent that may take more, a larger estimate, another stream or a stream
// being captured into a graph resets it.
void skippedResetChecks() {
  const launchopt::ParentDemand nothingOwn = {0, 0, 0, 0, 1}, small = {1, 16, 0, 0, 1};
  reset(1, nothingOwn); // after a parent that may take more: a reset
  expect(cursor() == 0, "a parent after one that may take more resets the pool");
  askAll(10, 48);
  const unsigned long long used = cursor();
  reset(32, small);
#if LAUNCHOPT_POOL_EPOCH_PARENTS > 0
  expect(used == 480 && cursor() == used,
         "a parent that takes only its own records keeps the cursor while the pool has room");
#else
  expect(cursor() == 0, "with LAUNCHOPT_POOL_EPOCH_PARENTS=0 every parent resets");
#endif
  askAll(10, 48); // the pieces of both rounds never overlap (askAll checks its own)
  launchopt::resetPool(0, dim3(65535, 1024), dim3(1024), {1, 1024, 0, 0, 1});
  cudaDeviceSynchronize();
  expect(cursor() == 0, "a parent whose estimate passes half the pool resets it");
  askAll(10, 48);
  cudaStream_t other = nullptr;
  cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking);
  launchopt::resetPool(other, dim3(1), dim3(32), small);
  cudaDeviceSynchronize();
  cudaStreamDestroy(other);
  expect(cursor() == 0, "a parent in another stream than the last reset's resets the pool");
  reset(1, {0, 0, 0, 0, 0});
  askAll(10, 48);
  reset(32, small);
  expect(cursor() == 0, "a parent after one that may take more than its estimate resets the pool");

  // A stream being captured keeps every reset: the graph holds one per
  // parent, however often it is replayed.
  cudaStream_t captured = nullptr;
  cudaStreamCreateWithFlags(&captured, cudaStreamNonBlocking);
  launchopt::resetPool(captured, dim3(1), dim3(32), small);
  cudaStreamSynchronize(captured);
  cudaGraph_t graph = nullptr;
  cudaStreamBeginCapture(captured, cudaStreamCaptureModeRelaxed);
  launchopt::resetPool(captured, dim3(1), dim3(32), small);
  launchopt::resetPool(captured, dim3(1), dim3(32), small);
  cudaStreamEndCapture(captured, &graph);
  size_t nodes = 0;
  if (graph)
    cudaGraphGetNodes(graph, nullptr, &nodes);
  expect(nodes == 2, "a stream being captured gets a reset for every parent");
  if (graph)
    cudaGraphDestroy(graph);
  cudaStreamDestroy(captured);
}

void gpuChecks() {
  // Before any reset no buffer exists: the parent launches directly.
  expect(askAll(64, 16) == 0, "before the first reset every request fails");

  reset(1, {0, 0, 0, 0});
  unsigned long long capacity = deviceValue(launchopt::poolCapacity);
  unsigned char *base = deviceValue(launchopt::poolBase);
  expect(base != nullptr && capacity == Least, "the first reset allocates the smallest pool");

  // Twice the capacity asked for in 48-byte pieces: exactly those that fit.
  unsigned threads = unsigned(2 * capacity / 48) + 1;
  expect(askAll(threads, 48) == capacity / 48, "requests past the capacity fail, the rest fit");

  // The refused requests reported the demand as they were refused: the
  // next reset grows the pool, past what was asked (refused children asked
  // nothing for their own launches), to at most four times as much.
  const double askedBytes = double(threads) * 48;
  reset(1, {0, 0, 0, 0});
  unsigned long long grown = deviceValue(launchopt::poolCapacity);
  expect(grown >= atMost(launchopt::poolCapacityFor(askedBytes)) &&
             grown <= atMost(launchopt::poolCapacityFor(4 * askedBytes)),
         "the next reset grows the pool to some four times what was asked");
  if (grown < Cap)
    expect(askAll(threads, 48) == threads, "the grown pool holds what was asked");

  // A parent's own sites size the pool at once.
  reset(1024, {4, 4096, 0, 0});
  unsigned long long estimated = deviceValue(launchopt::poolCapacity);
  double asked = launchopt::firstLevelBytes(dim3(1), dim3(1024), {4, 4096, 0, 0});
  unsigned long long wanted = launchopt::poolCapacityFor(asked > askedBytes ? asked : askedBytes);
  expect(estimated == (wanted > grown ? wanted : grown), "the parent's estimate sizes the pool");
  base = deviceValue(launchopt::poolBase);

  // Never smaller, and the same buffer while it suffices.
  reset(1, {0, 0, 0, 0});
  expect(deviceValue(launchopt::poolCapacity) == estimated &&
             deviceValue(launchopt::poolBase) == base,
         "a smaller demand keeps the buffer");

  // Never past the cap.
  launchopt::resetPool(0, dim3(65535, 1024), dim3(1024), {1, 1024, 0, 0});
  cudaDeviceSynchronize();
  expect(deviceValue(launchopt::poolCapacity) == Cap, "the pool stops at LAUNCHOPT_POOL_BYTES");

  skippedResetChecks();

#ifdef POOL_TEST_PROGRAM
  // One pool for the program: the other file's reset publishes this buffer.
  unsigned char *otherBase = nullptr;
  unsigned long long otherCapacity = 0;
  otherFileResetPool(1);
  otherFilePool(&otherBase, &otherCapacity);
  expect(otherBase == deviceValue(launchopt::poolBase) &&
             otherCapacity == deviceValue(launchopt::poolCapacity) && otherCapacity == Cap,
         "the files of one program share one pool");
#endif
  expect(cudaGetLastError() == cudaSuccess, "the pool leaves no error behind");
}

} // namespace

int main() {
  hostChecks();
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    if (failures == 0)
      std::printf("pool runtime: no GPU, host checks passed\n");
    return failures ? 1 : 0;
  }
  gpuChecks();
  if (failures == 0)
    std::printf("pool runtime: all checks passed\n");
  return failures ? 1 : 0;
}
