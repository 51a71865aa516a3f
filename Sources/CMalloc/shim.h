// glibc's malloc.h, which the Glibc module leaves out: `todo ui` calls malloc_trim to hand the
// heap's free memory back to the system after reading a whole list (its transient peak).
#include <malloc.h>
