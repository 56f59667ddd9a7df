// Survey-propagation-like message passing on a random k-SAT factor graph, in
// fixed point so that every run gives the same bits. Per round, the parent
// thread of a clause launches two children over the clause's literals into
// one stream: the first computes the clause's new messages from the
// variables' biases (reads bias, writes etaNext); the second adds the
// clause's previous messages into the variables' next biases (reads eta,
// writes biasNext). Neither reads what the other writes or writes what the
// other reads. The host swaps the buffers between rounds.
// Usage: survey <seed> <output file>
#include "../corpus.cuh"

constexpr int kVariables = 2048;
constexpr int kClauses = 3 * kVariables;
constexpr int kMaxLiterals = 6;
constexpr int kRounds = 8;
constexpr unsigned kOne = 1u << 16; // fixed-point 1.0

struct Clause {
  int first; // index of the clause's first literal
  int size;
};

// For each literal of the clause: one minus the product of the other
// literals' biases.
__global__ void updateMessages(const int *literalVar, const unsigned *bias, Clause c,
                               unsigned *etaNext) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= c.size)
    return;
  unsigned long long product = kOne;
  for (int j = 0; j < c.size; ++j)
    if (j != k)
      product = (product * bias[literalVar[c.first + j]]) >> 16;
  etaNext[c.first + k] = kOne - (unsigned)product;
}

// Each literal's previous message, added into its variable's next bias.
__global__ void gatherMessages(const int *literalVar, const int *literalSign,
                               const unsigned *eta, Clause c, unsigned *biasNext) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= c.size)
    return;
  unsigned contribution = literalSign[c.first + k] ? eta[c.first + k] : kOne - eta[c.first + k];
  atomicAdd(&biasNext[literalVar[c.first + k]], contribution >> 4);
}

__global__ void propagate(const int *clauseStart, const int *literalVar, const int *literalSign,
                          const unsigned *bias, const unsigned *eta, unsigned *etaNext,
                          unsigned *biasNext) {
  int clause = blockIdx.x * blockDim.x + threadIdx.x;
  if (clause >= kClauses)
    return;
  Clause c{clauseStart[clause], clauseStart[clause + 1] - clauseStart[clause]};
  updateMessages<<<1, kMaxLiterals>>>(literalVar, bias, c, etaNext);
  noteLaunch();
  gatherMessages<<<1, kMaxLiterals>>>(literalVar, literalSign, eta, c, biasNext);
  noteLaunch();
}

// Brings the gathered sums back into [0, 1] for the next round.
__global__ void normalize(unsigned *biasNext) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < kVariables)
    biasNext[v] = biasNext[v] % kOne;
}

int main(int argc, char **argv) {
  CorpusRng rng(seedFromArgs(argc, argv));
  std::vector<int> clauseStart(kClauses + 1, 0), literalVar, literalSign;
  for (int c = 0; c < kClauses; ++c) {
    int size = 2 + (int)rng.below(kMaxLiterals - 1);
    for (int k = 0; k < size; ++k) {
      literalVar.push_back((int)rng.below(kVariables));
      literalSign.push_back((int)rng.below(2));
    }
    clauseStart[c + 1] = (int)literalVar.size();
  }
  const int literals = (int)literalVar.size();
  std::vector<unsigned> bias(kVariables), eta(literals);
  for (unsigned &b : bias)
    b = rng.below(kOne);
  for (unsigned &e : eta)
    e = rng.below(kOne);
  int *dClauseStart, *dVar, *dSign;
  unsigned *dBias[2], *dEta[2];
  CORPUS_CHECK(cudaMalloc(&dClauseStart, sizeof(int) * clauseStart.size()));
  CORPUS_CHECK(cudaMalloc(&dVar, sizeof(int) * literals));
  CORPUS_CHECK(cudaMalloc(&dSign, sizeof(int) * literals));
  for (int i = 0; i < 2; ++i) {
    CORPUS_CHECK(cudaMalloc(&dBias[i], sizeof(unsigned) * kVariables));
    CORPUS_CHECK(cudaMalloc(&dEta[i], sizeof(unsigned) * literals));
  }
  CORPUS_CHECK(cudaMemcpy(dClauseStart, clauseStart.data(), sizeof(int) * clauseStart.size(),
                          cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(dVar, literalVar.data(), sizeof(int) * literals, cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(dSign, literalSign.data(), sizeof(int) * literals,
                          cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(dBias[0], bias.data(), sizeof(unsigned) * kVariables,
                          cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(dEta[0], eta.data(), sizeof(unsigned) * literals, cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 2 * kClauses));
  for (int round = 0; round < kRounds; ++round) {
    int now = round % 2, next = 1 - now;
    CORPUS_CHECK(cudaMemset(dBias[next], 0, sizeof(unsigned) * kVariables));
    propagate<<<(kClauses + 127) / 128, 128>>>(dClauseStart, dVar, dSign, dBias[now], dEta[now],
                                                dEta[next], dBias[next]);
    CORPUS_CHECK(cudaGetLastError());
    normalize<<<(kVariables + 127) / 128, 128>>>(dBias[next]);
    CORPUS_CHECK(cudaGetLastError());
  }
  CORPUS_CHECK(cudaDeviceSynchronize());
  CORPUS_CHECK(cudaMemcpy(bias.data(), dBias[kRounds % 2], sizeof(unsigned) * kVariables,
                          cudaMemcpyDeviceToHost));
  CORPUS_CHECK(cudaMemcpy(eta.data(), dEta[kRounds % 2], sizeof(unsigned) * literals,
                          cudaMemcpyDeviceToHost));
  std::vector<uint32_t> words = asWords(bias), etaWords = asWords(eta);
  words.insert(words.end(), etaWords.begin(), etaWords.end());
  return finish(argv[2], words);
}
