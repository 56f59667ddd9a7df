// Survey propagation driver: a DIMACS CNF file (--input), or a random 3-SAT
// formula of --variables variables and 4.2 times as many clauses; the values
// and the satisfied clauses must equal the CPU's bit for bit.
#include <cstdio>

#include "../../common/graph_device.cuh"
#include "../../common/reference.h"
#include "../../common/sat.h"

int main(int argc, char** argv) {
  bench::Args args(argc, argv);
  const int generated_vars = static_cast<int>(args.num("variables", 0));
  std::string input = args.str("input", "bench/data/random-42000-10000-3.cnf");
  bench::SatFormula f = generated_vars > 0
                            ? bench::generate_ksat(generated_vars, generated_vars / 10 * 42, 3, 1)
                            : bench::load_cnf(input);
  std::vector<int> expected_value, expected_satisfied;
  bench::ref_sp(f, expected_value, expected_satisfied);
  int fixed = 0, satisfied = 0;
  for (int v : expected_value) fixed += v >= 0;
  for (int s : expected_satisfied) satisfied += s;
  std::printf("# %d variables, %d clauses, %d literals: %d fixed, %d clauses satisfied after %d rounds\n",
              f.num_vars, f.num_clauses(), f.num_literals(), fixed, satisfied, kSpRounds);
  bench::print_device_report();
  bench::DeviceArray<int> clause_start(f.clause_start), lit_var(f.lit_var), lit_sign(f.lit_sign),
      lit_clause(f.lit_clause), var_start(f.var_start), occ_literal(f.occ_literal);
  SatDev dev{f.num_vars,      f.num_clauses(),  f.num_literals(), clause_start.ptr, lit_var.ptr,
             lit_sign.ptr,    lit_clause.ptr,   var_start.ptr,    occ_literal.ptr};
  bench::DeviceArray<int> value(f.num_vars), clause_satisfied(f.num_clauses());
  auto cfg = bench::config_from(args, "sp",
                                generated_vars > 0 ? "vars" + std::to_string(generated_vars)
                                                   : bench::dataset_name(input));
  return bench::run_bench(
      cfg,
      [&] {
        value.poison();
        clause_satisfied.poison();
        return sp_run(dev, value.ptr, clause_satisfied.ptr);
      },
      [&]() -> std::string {
        std::vector<int> got_value = value.download(), got_satisfied = clause_satisfied.download();
        for (int v = 0; v < f.num_vars; ++v)
          if (got_value[v] != expected_value[v])
            return "variable " + std::to_string(v) + " is " + std::to_string(got_value[v]) + ", expected " +
                   std::to_string(expected_value[v]);
        for (int c = 0; c < f.num_clauses(); ++c)
          if (got_satisfied[c] != expected_satisfied[c])
            return "clause " + std::to_string(c) + " satisfied " + std::to_string(got_satisfied[c]) + ", expected " +
                   std::to_string(expected_satisfied[c]);
        return "";
      });
}
