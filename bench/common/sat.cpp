#include "sat.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "graph.h"

namespace bench {

void index_occurrences(SatFormula& f) {
  const int literals = f.num_literals();
  f.lit_clause.assign(literals, 0);
  for (int c = 0; c < f.num_clauses(); ++c)
    for (int k = f.clause_start[c]; k < f.clause_start[c + 1]; ++k) f.lit_clause[k] = c;
  f.var_start.assign(f.num_vars + 1, 0);
  for (int k = 0; k < literals; ++k) ++f.var_start[f.lit_var[k] + 1];
  for (int v = 0; v < f.num_vars; ++v) f.var_start[v + 1] += f.var_start[v];
  std::vector<int> next(f.var_start.begin(), f.var_start.end() - 1);
  f.occ_literal.assign(literals, 0);
  for (int k = 0; k < literals; ++k) f.occ_literal[next[f.lit_var[k]]++] = k;
}

SatFormula load_cnf(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  SatFormula f;
  f.clause_start.push_back(0);
  int declared_clauses = -1;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == 'c' || line[0] == '%') continue;
    std::istringstream words(line);
    if (line[0] == 'p') {
      std::string p, cnf;
      words >> p >> cnf >> f.num_vars >> declared_clauses;
      if (cnf != "cnf" || f.num_vars <= 0 || declared_clauses < 0)
        throw std::runtime_error(path + ": bad problem line '" + line + "'");
      continue;
    }
    int lit = 0;
    while (words >> lit) {
      if (lit == 0) {
        f.clause_start.push_back(f.num_literals());
        continue;
      }
      int var = (lit < 0 ? -lit : lit) - 1;
      if (var >= f.num_vars) throw std::runtime_error(path + ": literal " + std::to_string(lit) + " out of range");
      f.lit_var.push_back(var);
      f.lit_sign.push_back(lit > 0 ? 1 : 0);
    }
  }
  if (f.num_vars <= 0) throw std::runtime_error(path + ": no 'p cnf' line");
  if (f.clause_start.back() != f.num_literals()) f.clause_start.push_back(f.num_literals());  // last clause without 0
  if (declared_clauses >= 0 && f.num_clauses() != declared_clauses)
    throw std::runtime_error(path + ": " + std::to_string(f.num_clauses()) + " clauses, the header says " +
                             std::to_string(declared_clauses));
  index_occurrences(f);
  return f;
}

SatFormula generate_ksat(int vars, int clauses, int k, uint64_t seed) {
  SatFormula f;
  f.num_vars = vars;
  f.clause_start.push_back(0);
  Rng rng(seed);
  for (int c = 0; c < clauses; ++c) {
    int first = f.num_literals();
    while (f.num_literals() - first < k) {
      int var = static_cast<int>(rng.below(vars));
      bool repeated = false;
      for (int j = first; j < f.num_literals(); ++j) repeated = repeated || f.lit_var[j] == var;
      if (repeated) continue;
      f.lit_var.push_back(var);
      f.lit_sign.push_back(static_cast<int>(rng.below(2)));
    }
    f.clause_start.push_back(f.num_literals());
  }
  index_occurrences(f);
  return f;
}

}  // namespace bench
