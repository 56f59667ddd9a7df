#include "SerialChildBuilder.h"

#include "Support/GeneratedNames.h"

namespace launchopt {

namespace {

std::string serialSignature(const KernelCopy &K, bool Exported) {
  return K.TemplateHeader + (Exported ? "" : "static ") + "__device__ void " +
         serialNameFor(K.Name) + "(" + K.parameters(true) +
         generated::code("const dim3 @gridDim, const dim3 @blockDim)");
}

} // namespace

std::string serialNameFor(llvm::StringRef KernelName) {
  return generated::threshold::SerialPrefix + KernelName.str();
}

std::string serialPrototype(const KernelCopy &K, bool Exported) {
  return serialSignature(K, Exported) + ";\n";
}

std::string serialDefinitions(const clang::ASTContext &Ctx, const KernelCopy &K,
                              const std::vector<SourceEdit> &BodyEdits, bool Exported) {
  std::string ThreadName = generated::threshold::ThreadPrefix + K.Name;
  std::string D;
  D += "\n\n// launchopt: one thread of '" + K.Name +
       "', run by a parent thread; the locals below\n"
       "// shadow the built-in index variables with that thread's values.\n";
  D += K.TemplateHeader + "static __device__ void " + ThreadName + "(" + K.parameters(true) +
       passedBuiltinParameters() + ")\n{\n";
  D += shadowingPrologue({"blockIdx", "threadIdx", "blockDim", "gridDim"});
  D += "  " + K.body(Ctx, BodyEdits) + "\n}\n\n";
  D += "// launchopt: every thread of a '" + K.Name +
       "' grid, one after another (serial version).\n";
  D += serialSignature(K, Exported) + "\n{\n";
  D += generated::code("  for (unsigned @bz = 0; @bz < @gridDim.z; ++@bz)\n"
                       "    for (unsigned @by = 0; @by < @gridDim.y; ++@by)\n"
                       "      for (unsigned @bx = 0; @bx < @gridDim.x; ++@bx)\n"
                       "        for (unsigned @tz = 0; @tz < @blockDim.z; ++@tz)\n"
                       "          for (unsigned @ty = 0; @ty < @blockDim.y; ++@ty)\n"
                       "            for (unsigned @tx = 0; @tx < @blockDim.x; ++@tx)\n");
  D += "              " + ThreadName + K.TemplateArgs + "(" + K.arguments(true) +
       generated::code("make_uint3(@bx, @by, @bz),\n"
                       "                  make_uint3(@tx, @ty, @tz), @blockDim, @gridDim);\n}");
  return D;
}

} // namespace launchopt
