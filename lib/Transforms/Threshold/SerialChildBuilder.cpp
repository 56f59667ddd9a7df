#include "SerialChildBuilder.h"

namespace launchopt {

namespace {

std::string serialSignature(const KernelCopy &K) {
  return K.TemplateHeader + "static __device__ void " + serialNameFor(K.Name) + "(" +
         K.parameters(true) + "const dim3 __lo_gridDim, const dim3 __lo_blockDim)";
}

} // namespace

std::string serialNameFor(llvm::StringRef KernelName) {
  return "__lo_serial_" + KernelName.str();
}

std::string serialPrototype(const KernelCopy &K) { return serialSignature(K) + ";\n"; }

std::string serialDefinitions(const clang::ASTContext &Ctx, const KernelCopy &K,
                              const std::vector<SourceEdit> &BodyEdits) {
  std::string ThreadName = "__lo_thread_" + K.Name;
  std::string D;
  D += "\n\n// launchopt: one thread of '" + K.Name +
       "', run by a parent thread; the locals below\n"
       "// shadow the built-in index variables with that thread's values.\n";
  D += K.TemplateHeader + "static __device__ void " + ThreadName + "(" + K.parameters(true) +
       "const uint3 __lo_blockIdx, const uint3 __lo_threadIdx,\n"
       "    const dim3 __lo_blockDim, const dim3 __lo_gridDim)\n{\n";
  D += shadowingPrologue({"blockIdx", "threadIdx", "blockDim", "gridDim"});
  D += "  " + K.body(Ctx, BodyEdits) + "\n}\n\n";
  D += "// launchopt: every thread of a '" + K.Name +
       "' grid, one after another (serial version).\n";
  D += serialSignature(K) + "\n{\n";
  D += "  for (unsigned __lo_bz = 0; __lo_bz < __lo_gridDim.z; ++__lo_bz)\n"
       "    for (unsigned __lo_by = 0; __lo_by < __lo_gridDim.y; ++__lo_by)\n"
       "      for (unsigned __lo_bx = 0; __lo_bx < __lo_gridDim.x; ++__lo_bx)\n"
       "        for (unsigned __lo_tz = 0; __lo_tz < __lo_blockDim.z; ++__lo_tz)\n"
       "          for (unsigned __lo_ty = 0; __lo_ty < __lo_blockDim.y; ++__lo_ty)\n"
       "            for (unsigned __lo_tx = 0; __lo_tx < __lo_blockDim.x; ++__lo_tx)\n";
  D += "              " + ThreadName + K.TemplateArgs + "(" + K.arguments(true) +
       "make_uint3(__lo_bx, __lo_by, __lo_bz),\n"
       "                  make_uint3(__lo_tx, __lo_ty, __lo_tz), __lo_blockDim, __lo_gridDim);\n}";
  return D;
}

} // namespace launchopt
