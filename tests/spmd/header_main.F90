! An assignment read from a header the preprocessor includes: kaiseki
! spmd refuses it (one file is written; the header's line cannot be edited).
PROGRAM HDR
  INTEGER, PARAMETER :: N = 8
  REAL A(N)
  INTEGER I
!HPF$ DISTRIBUTE A(BLOCK)
#include "header_body.h"
  PRINT *, SUM(A)
END PROGRAM HDR
