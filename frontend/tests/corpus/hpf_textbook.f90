! A textbook HPF program (after Koelbel et al., "The High Performance
! Fortran Handbook"): Jacobi relaxation on a distributed grid, a
! block-cyclic vector update and a replicated coefficient table.
PROGRAM relax
  IMPLICIT NONE
  INTEGER, PARAMETER :: n = 256, steps = 100
  REAL, DIMENSION(n, n) :: a, b
  REAL :: x(0:n-1), y(0:n-1), coef(8)
  REAL :: err
  INTEGER :: i, j, k
!HPF$ PROCESSORS procs(2, 2)
!HPF$ PROCESSORS line(4)
!HPF$ TEMPLATE grid(n, n)
!HPF$ TEMPLATE vec(0:n-1)
!HPF$ ALIGN a(i, j) WITH grid(i, j)
!HPF$ ALIGN (i, j) WITH grid(i, j) :: b
!HPF$ ALIGN (k) WITH vec(k) :: x, y
!HPF$ ALIGN coef(*) WITH grid(*, 1)
!HPF$ DISTRIBUTE grid(BLOCK, BLOCK) ONTO procs
!HPF$ DISTRIBUTE vec(CYCLIC(8)) ONTO line

  coef = 0.125
  a = 0.0
  a(1, :) = 1.0
  b = a
  DO k = 1, steps
!HPF$ INDEPENDENT, NEW(i)
    DO j = 2, n - 1
!HPF$ INDEPENDENT
      DO i = 2, n - 1
        b(i, j) = 0.25 * (a(i-1, j) + a(i+1, j) + a(i, j-1) + a(i, j+1))
      END DO
    END DO
    err = MAXVAL(ABS(b(2:n-1, 2:n-1) - a(2:n-1, 2:n-1)))
    a(2:n-1, 2:n-1) = b(2:n-1, 2:n-1)
    IF (err < 1.0e-4) GOTO 100
  END DO
100 CONTINUE

!HPF$ INDEPENDENT
  DO i = 0, n - 1
    x(i) = REAL(i) * coef(MOD(i, 8) + 1)
    y(i) = 2.0 * x(i) + 1.0
  END DO
  PRINT *, 'relax:', k, err, SUM(y)
END PROGRAM relax
