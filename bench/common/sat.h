// k-SAT formulas for the survey-propagation app (sp): DIMACS CNF files and a
// random generator, in the clause-major and variable-major arrays the GPU
// variants take (SatDev in bench_api.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace bench {

struct SatFormula {
  int num_vars = 0;
  std::vector<int> clause_start;  // num_clauses + 1
  std::vector<int> lit_var;       // per literal: its variable, 0-based
  std::vector<int> lit_sign;      // per literal: 1 positive, 0 negated
  std::vector<int> lit_clause;    // per literal: its clause
  std::vector<int> var_start;     // num_vars + 1: each variable's occurrences
  std::vector<int> occ_literal;   // per occurrence: the literal

  int num_clauses() const { return static_cast<int>(clause_start.size()) - 1; }
  int num_literals() const { return static_cast<int>(lit_var.size()); }
};

// Reads a DIMACS CNF file ("p cnf V C", clauses of non-zero literals ended
// by 0; comment lines start with 'c'). Throws std::runtime_error on bad input.
SatFormula load_cnf(const std::string& path);

// A random k-SAT formula: `clauses` clauses of k distinct variables out of
// `vars`, each negated with probability 1/2, deterministic from the seed.
SatFormula generate_ksat(int vars, int clauses, int k, uint64_t seed);

// Fills lit_clause, var_start and occ_literal from the clause-major arrays.
void index_occurrences(SatFormula& f);

}  // namespace bench
