// Found through the target's include directories, for launchopt's parse too.
#pragma once
#ifndef CHILD_SCALE
#error "CHILD_SCALE comes from the target's compile definitions"
#endif
