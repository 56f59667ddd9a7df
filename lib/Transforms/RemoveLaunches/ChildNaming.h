#ifndef LAUNCHOPT_TRANSFORMS_REMOVELAUNCHES_CHILDNAMING_H
#define LAUNCHOPT_TRANSFORMS_REMOVELAUNCHES_CHILDNAMING_H

#include <string>

namespace launchopt {

// How a parent's code names what T1-T3 write beside the child (its record,
// the copy that runs a child thread): with the qualifier its launches write
// (a child of another namespace) and the template arguments they give
// (every launch of the child in one parent gives the same).
struct ChildNaming {
  std::string Scope;        // "ns::", or empty
  std::string TemplateArgs; // "<V>", or empty
};

} // namespace launchopt

#endif
