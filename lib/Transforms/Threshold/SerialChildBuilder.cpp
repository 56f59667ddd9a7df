#include "SerialChildBuilder.h"

#include "Transforms/Common/KernelCopy.h"

namespace launchopt {

std::string serialNameFor(llvm::StringRef KernelName) {
  return "__lo_serial_" + KernelName.str();
}

SerialChildOrReason buildSerialChild(const clang::ASTContext &Ctx,
                                     const clang::FunctionDecl &Kernel,
                                     const std::vector<SourceEdit> &BodyEdits) {
  SerialChildOrReason Result;
  KernelCopyOrReason Read = readKernel(Ctx, Kernel);
  if (!Read.Copy) {
    Result.Reason = Read.Reason;
    return Result;
  }
  const KernelCopy &K = *Read.Copy;
  std::string ThreadName = "__lo_thread_" + K.Name;
  SerialChild Serial;
  Serial.SerialName = serialNameFor(K.Name);
  std::string SerialSignature = K.TemplateHeader + "static __device__ void " + Serial.SerialName +
                                "(" + K.parameters(true) +
                                "const dim3 __lo_gridDim, const dim3 __lo_blockDim)";
  Serial.Prototype = SerialSignature + ";\n";

  std::string &D = Serial.Definitions;
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
  D += SerialSignature + "\n{\n";
  D += "  for (unsigned __lo_bz = 0; __lo_bz < __lo_gridDim.z; ++__lo_bz)\n"
       "    for (unsigned __lo_by = 0; __lo_by < __lo_gridDim.y; ++__lo_by)\n"
       "      for (unsigned __lo_bx = 0; __lo_bx < __lo_gridDim.x; ++__lo_bx)\n"
       "        for (unsigned __lo_tz = 0; __lo_tz < __lo_blockDim.z; ++__lo_tz)\n"
       "          for (unsigned __lo_ty = 0; __lo_ty < __lo_blockDim.y; ++__lo_ty)\n"
       "            for (unsigned __lo_tx = 0; __lo_tx < __lo_blockDim.x; ++__lo_tx)\n";
  D += "              " + ThreadName + K.TemplateArgs + "(" + K.arguments(true) +
       "make_uint3(__lo_bx, __lo_by, __lo_bz),\n"
       "                  make_uint3(__lo_tx, __lo_ty, __lo_tz), __lo_blockDim, __lo_gridDim);\n}";
  Serial.InsertOffset = K.Whole.End;
  Result.Serial = std::move(Serial);
  return Result;
}

} // namespace launchopt
