! Statements every rank runs that read sections of a distributed array:
! the owners broadcast the section read (a strided one, a row, a column),
! not the whole array; a vector subscript reads its whole dimension, as
! does the implied DO of the PRINT (its I is not set before the PRINT).
PROGRAM sect
  INTEGER, PARAMETER :: N = 64
  REAL A(N, N)
  REAL S
  INTEGER I, J, K
  INTEGER V(3)
!HPF$ DISTRIBUTE A(BLOCK, BLOCK)
  DO J = 1, N
    DO I = 1, N
      A(I, J) = REAL(MOD(I * J, 17))
    END DO
  END DO
  V(1) = 3
  V(2) = 40
  V(3) = 64
  S = 0.0
  DO J = 1, N
    S = S + SUM(A(2:N-1:3, J))
  END DO
  K = N / 2
  S = S + MAXVAL(A(K, :)) + SUM(A(:, K+1))
  S = S + SUM(A(V, 1))
  PRINT *, S, (A(I, 2), I = 1, N, 9)
END PROGRAM sect
