! The textbook Jacobi's convergence test and copy-back on arrays
! aligned alike, sections that conform: no element moves; each
! reduction is one MPI_Allreduce (8 bytes from every rank).
PROGRAM aligned
  INTEGER, PARAMETER :: N = 32
  REAL A(N, N), B(N, N)
  REAL E
  INTEGER I, J
!HPF$ DISTRIBUTE A(BLOCK, BLOCK)
!HPF$ ALIGN B(I, J) WITH A(I, J)
  A = 0.0
  A(1, :) = 1.0
  B = A
  B(2:N-1, 2:N-1) = 0.5 * A(2:N-1, 2:N-1) + 0.25
  E = MAXVAL(ABS(B(2:N-1, 2:N-1) - A(2:N-1, 2:N-1)))
  A(2:N-1, 2:N-1) = B(2:N-1, 2:N-1)
  PRINT *, E
  E = MINVAL(A)
  PRINT *, E
END PROGRAM aligned
