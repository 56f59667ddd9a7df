// Two-dimensional compressible (Euler) flow on an unstructured quadrilateral
// mesh, finite volumes, written the way such solvers are ported to GPUs: one
// kernel per phase, each behind a host wrapper of the same name
// (compute_step_factor, compute_flux, time_step) that main's time loop calls;
// a cell reaches its neighbours through an index array. Local time stepping,
// three Runge-Kutta stages per iteration, Rusanov fluxes, far field at the
// mesh's border. Part of the fusion corpus (bench/fusion/README.md).
// Usage: euler_mesh [width steps seed out.bin [reference.bin]] (a width x
// width/2 mesh, default 2048 x 1024 cells, 10 iterations).
#include "../common/driver.h"

const int NVar = 4;     // density, x and y momentum, energy
const int NFace = 4;    // west, east, south, north
const int RkStages = 3;
const int BlockSize = 192;
const float Gamma = 1.4f, Cfl = 0.2f;
// Far-field state: density 1, velocity (0.3, 0), pressure 1 / Gamma (sound speed 1).
const float FarDensity = 1.0f, FarU = 0.3f, FarV = 0.0f, FarPressure = 1.0f / Gamma;

struct State {
  float density, u, v, pressure, energy;
};

__host__ __device__ inline State primitive(float density, float mx, float my, float energy) {
  State s;
  s.density = density;
  s.u = mx / density;
  s.v = my / density;
  s.energy = energy;
  s.pressure = (Gamma - 1.0f) * (energy - 0.5f * density * (s.u * s.u + s.v * s.v));
  return s;
}

__host__ __device__ inline float sound_speed(const State &s) {
  return sqrtf(Gamma * s.pressure / s.density);
}

// Rusanov flux of the four conserved variables through a face of normal
// (nx, ny) (outward, length-scaled), added to f.
__host__ __device__ inline void add_face_flux(const State &a, const State &b, float nx, float ny,
                                              float f[NVar]) {
  float length = sqrtf(nx * nx + ny * ny);
  float qa = a.u * nx + a.v * ny, qb = b.u * nx + b.v * ny;
  float sa = fabsf(qa) / length + sound_speed(a), sb = fabsf(qb) / length + sound_speed(b);
  float dissipation = 0.5f * fmaxf(sa, sb) * length;
  f[0] += 0.5f * (a.density * qa + b.density * qb) - dissipation * (b.density - a.density);
  f[1] += 0.5f * (a.density * a.u * qa + a.pressure * nx + b.density * b.u * qb + b.pressure * nx) -
          dissipation * (b.density * b.u - a.density * a.u);
  f[2] += 0.5f * (a.density * a.v * qa + a.pressure * ny + b.density * b.v * qb + b.pressure * ny) -
          dissipation * (b.density * b.v - a.density * a.v);
  f[3] += 0.5f * ((a.energy + a.pressure) * qa + (b.energy + b.pressure) * qb) -
          dissipation * (b.energy - a.energy);
}

__host__ __device__ inline State far_field() {
  State s;
  s.density = FarDensity;
  s.u = FarU;
  s.v = FarV;
  s.pressure = FarPressure;
  s.energy = FarPressure / (Gamma - 1.0f) + 0.5f * FarDensity * (FarU * FarU + FarV * FarV);
  return s;
}

// Local time step over cell area: CFL * sqrt(area) / (|velocity| + c) / area.
__global__ void cuda_compute_step_factor(int ncells, const float *variables, const float *areas,
                                         float *step_factors) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= ncells)
    return;
  State s = primitive(variables[i], variables[ncells + i], variables[2 * ncells + i],
                      variables[3 * ncells + i]);
  float speed = sqrtf(s.u * s.u + s.v * s.v) + sound_speed(s);
  step_factors[i] = Cfl / (sqrtf(areas[i]) * speed);
}

// The net flux out of every cell: its faces' fluxes, the neighbour's state
// gathered through the neighbour index (-1: the far field).
__global__ void cuda_compute_flux(int ncells, const int *neighbours, const float *normals,
                                  const float *variables, float *fluxes) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= ncells)
    return;
  State own = primitive(variables[i], variables[ncells + i], variables[2 * ncells + i],
                        variables[3 * ncells + i]);
  float f[NVar] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (int k = 0; k < NFace; ++k) {
    int nb = neighbours[k * ncells + i];
    float nx = normals[(2 * k) * ncells + i], ny = normals[(2 * k + 1) * ncells + i];
    State other = nb >= 0 ? primitive(variables[nb], variables[ncells + nb],
                                      variables[2 * ncells + nb], variables[3 * ncells + nb])
                          : far_field();
    add_face_flux(own, other, nx, ny, f);
  }
  for (int v = 0; v < NVar; ++v)
    fluxes[v * ncells + i] = f[v];
}

// Runge-Kutta stage: the new state from the iteration's old state.
__global__ void cuda_time_step(int stage, int ncells, const float *old_variables,
                               float *variables, const float *step_factors,
                               const float *fluxes) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= ncells)
    return;
  float factor = step_factors[i] / float(RkStages - stage);
  for (int v = 0; v < NVar; ++v)
    variables[v * ncells + i] = old_variables[v * ncells + i] - factor * fluxes[v * ncells + i];
}

void compute_step_factor(int ncells, const float *variables, const float *areas,
                         float *step_factors) {
  dim3 block(BlockSize);
  dim3 grid((ncells + BlockSize - 1) / BlockSize);
  cuda_compute_step_factor<<<grid, block>>>(ncells, variables, areas, step_factors);
  CHECK(cudaGetLastError());
}

void compute_flux(int ncells, const int *neighbours, const float *normals,
                  const float *variables, float *fluxes) {
  dim3 block(BlockSize);
  dim3 grid((ncells + BlockSize - 1) / BlockSize);
  cuda_compute_flux<<<grid, block>>>(ncells, neighbours, normals, variables, fluxes);
  CHECK(cudaGetLastError());
}

void time_step(int stage, int ncells, const float *old_variables, float *variables,
               const float *step_factors, const float *fluxes) {
  dim3 block(BlockSize);
  dim3 grid((ncells + BlockSize - 1) / BlockSize);
  cuda_time_step<<<grid, block>>>(stage, ncells, old_variables, variables, step_factors, fluxes);
  CHECK(cudaGetLastError());
}

// A width x height grid of unit-area squares whose cells are numbered in
// shuffled chunks of 1024, so that neighbours are near in memory but not at
// fixed offsets, as in a mesh renumbered for locality.
static void make_mesh(int width, int height, unsigned long long &seed, std::vector<int> &neighbours,
                      std::vector<float> &normals, std::vector<float> &areas) {
  int ncells = width * height;
  std::vector<int> id(ncells);
  for (int c = 0; c < ncells; ++c)
    id[c] = c;
  const int Chunk = 1024;
  for (int base = 0; base < ncells; base += Chunk) {
    int size = std::min(Chunk, ncells - base);
    for (int k = size - 1; k > 0; --k)
      std::swap(id[base + k], id[base + int(lcg(seed) % (k + 1))]);
  }
  neighbours.assign(size_t(NFace) * ncells, -1);
  normals.assign(size_t(2 * NFace) * ncells, 0.0f);
  areas.assign(ncells, 1.0f);
  const int dx[NFace] = {-1, 1, 0, 0}, dy[NFace] = {0, 0, -1, 1};
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      int cell = id[y * width + x];
      for (int k = 0; k < NFace; ++k) {
        int ox = x + dx[k], oy = y + dy[k];
        bool inside = ox >= 0 && oy >= 0 && ox < width && oy < height;
        neighbours[size_t(k) * ncells + cell] = inside ? id[oy * width + ox] : -1;
        normals[size_t(2 * k) * ncells + cell] = float(dx[k]);
        normals[size_t(2 * k + 1) * ncells + cell] = float(dy[k]);
      }
    }
}

// The same iterations on the CPU, cell by cell, in the kernels' order of operations.
static void cpu_euler(std::vector<float> &variables, const std::vector<int> &neighbours,
                      const std::vector<float> &normals, const std::vector<float> &areas,
                      int ncells, int steps) {
  std::vector<float> old_variables(variables.size()), fluxes(variables.size()), step_factors(ncells);
  for (int step = 0; step < steps; ++step) {
    old_variables = variables;
#pragma omp parallel for
    for (int i = 0; i < ncells; ++i) {
      State s = primitive(variables[i], variables[ncells + i], variables[2 * ncells + i],
                          variables[3 * ncells + i]);
      float speed = sqrtf(s.u * s.u + s.v * s.v) + sound_speed(s);
      step_factors[i] = Cfl / (sqrtf(areas[i]) * speed);
    }
    for (int stage = 0; stage < RkStages; ++stage) {
#pragma omp parallel for
      for (int i = 0; i < ncells; ++i) {
        State own = primitive(variables[i], variables[ncells + i], variables[2 * ncells + i],
                              variables[3 * ncells + i]);
        float f[NVar] = {0.0f, 0.0f, 0.0f, 0.0f};
        for (int k = 0; k < NFace; ++k) {
          int nb = neighbours[size_t(k) * ncells + i];
          State other = nb >= 0 ? primitive(variables[nb], variables[ncells + nb],
                                            variables[2 * ncells + nb], variables[3 * ncells + nb])
                                : far_field();
          add_face_flux(own, other, normals[size_t(2 * k) * ncells + i],
                        normals[size_t(2 * k + 1) * ncells + i], f);
        }
        for (int v = 0; v < NVar; ++v)
          fluxes[size_t(v) * ncells + i] = f[v];
      }
#pragma omp parallel for
      for (int i = 0; i < ncells; ++i) {
        float factor = step_factors[i] / float(RkStages - stage);
        for (int v = 0; v < NVar; ++v)
          variables[size_t(v) * ncells + i] =
              old_variables[size_t(v) * ncells + i] - factor * fluxes[size_t(v) * ncells + i];
      }
    }
  }
}

#ifdef LAUNCHOPT_FUSION_TIMING
#include <cstdio>
static const char *const __lo_fusion_names[] = {"cuda_compute_step_factor", "cuda_compute_flux", "cuda_time_step", };
static cudaEvent_t __lo_fusion_events[2 * 3];
static double __lo_fusion_ms[3];
static void __lo_fusion_begin(int I) {
  if (!__lo_fusion_events[0])
    for (cudaEvent_t &E : __lo_fusion_events)
      cudaEventCreate(&E);
  cudaEventRecord(__lo_fusion_events[2 * I]);
}
static void __lo_fusion_end(int I) {
  float Ms = 0;
  cudaEventRecord(__lo_fusion_events[2 * I + 1]);
  cudaEventSynchronize(__lo_fusion_events[2 * I + 1]);
  cudaEventElapsedTime(&Ms, __lo_fusion_events[2 * I], __lo_fusion_events[2 * I + 1]);
  __lo_fusion_ms[I] += Ms;
}
static void __lo_fusion_timing_report(int Runs) {
  for (int I = 0; I < 3; ++I)
    printf("launch %d %s: %.4f ms\n", I, __lo_fusion_names[I], __lo_fusion_ms[I] / Runs);
}
#else
#define __lo_fusion_begin(I)
#define __lo_fusion_end(I)
#endif

int main(int argc, char **argv) {
  RunArgs args = parse_args(argc, argv, 2048, 10);
  int width = int(args.size), height = int(args.size / 2);
  if (width < 2 || height < 2) {
    fprintf(stderr, "euler_mesh: the width must be at least 4 cells\n");
    return 2;
  }
  int ncells = width * height;
  unsigned long long seed = args.seed;
  std::vector<int> mesh_neighbours;
  std::vector<float> mesh_normals, mesh_areas;
  make_mesh(width, height, seed, mesh_neighbours, mesh_normals, mesh_areas);
  // The far field with small random disturbances.
  std::vector<float> initial(size_t(NVar) * ncells);
  for (int i = 0; i < ncells; ++i) {
    float density = FarDensity * uniform(seed, 0.95f, 1.05f);
    float u = FarU + uniform(seed, -0.05f, 0.05f), v = FarV + uniform(seed, -0.05f, 0.05f);
    float pressure = FarPressure * uniform(seed, 0.95f, 1.05f);
    initial[i] = density;
    initial[ncells + i] = density * u;
    initial[2 * size_t(ncells) + i] = density * v;
    initial[3 * size_t(ncells) + i] = pressure / (Gamma - 1.0f) + 0.5f * density * (u * u + v * v);
  }

  size_t var_bytes = initial.size() * sizeof(float);
  int *neighbours;
  float *normals, *areas, *variables, *old_variables, *fluxes, *step_factors;
  CHECK(cudaMalloc(&neighbours, mesh_neighbours.size() * sizeof(int)));
  CHECK(cudaMalloc(&normals, mesh_normals.size() * sizeof(float)));
  CHECK(cudaMalloc(&areas, ncells * sizeof(float)));
  CHECK(cudaMalloc(&variables, var_bytes));
  CHECK(cudaMalloc(&old_variables, var_bytes));
  CHECK(cudaMalloc(&fluxes, var_bytes));
  CHECK(cudaMalloc(&step_factors, ncells * sizeof(float)));
  describe_array("neighbours", mesh_neighbours.size(), sizeof(int));
  describe_array("normals", mesh_normals.size(), sizeof(float));
  describe_array("areas", ncells, sizeof(float));
  describe_array("variables", initial.size(), sizeof(float));
  describe_array("old_variables", initial.size(), sizeof(float));
  describe_array("fluxes", initial.size(), sizeof(float));
  describe_array("step_factors", ncells, sizeof(float));
  CHECK(cudaMemcpy(neighbours, mesh_neighbours.data(), mesh_neighbours.size() * sizeof(int),
                   cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(normals, mesh_normals.data(), mesh_normals.size() * sizeof(float),
                   cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(areas, mesh_areas.data(), ncells * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(variables, initial.data(), var_bytes, cudaMemcpyHostToDevice));

  StepTimer timer(args.steps);
  for (int step = 0; step < args.steps; ++step) {
    timer.begin(step);
    CHECK(cudaMemcpy(old_variables, variables, var_bytes, cudaMemcpyDeviceToDevice));
    compute_step_factor(ncells, variables, areas, step_factors);
    for (int stage = 0; stage < RkStages; ++stage) {
      compute_flux(ncells, neighbours, normals, variables, fluxes);
      time_step(stage, ncells, old_variables, variables, step_factors, fluxes);
    }
    timer.end(step);
  }
  float median, minimum;
  timer.summary(2, median, minimum);
  std::vector<float> result(initial.size());
  CHECK(cudaMemcpy(result.data(), variables, var_bytes, cudaMemcpyDeviceToHost));
#ifdef LAUNCHOPT_FUSION_TIMING
  __lo_fusion_timing_report(args.steps);
#endif

  cpu_euler(initial, mesh_neighbours, mesh_normals, mesh_areas, ncells, args.steps);
  CheckResult check = check_outputs(args, result, initial, 1e-4, 1e-2, 1e-5);
  return report_result("euler_mesh", args, std::to_string(width) + "x" + std::to_string(height),
                       check, median, minimum);
}
