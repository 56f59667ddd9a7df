// Beside children.cu: the transformed copy must still find it.
#pragma once
void runChildren(int *out, int parents, int width);
