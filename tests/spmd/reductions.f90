! Reductions over distributed arrays: each rank folds the elements it
! owns, one MPI_Allreduce combines. MAXVAL, MINVAL, MAXVAL(ABS(x - y))
! over arrays aligned alike (nothing moves) and otherwise (the elements
! go to the owners that fold them), SUM of INTEGER values, over BLOCK,
! CYCLIC, CYCLIC(2) and (BLOCK, BLOCK); empty sections take the
! statement's own value. A SUM of REAL values, whose order would
! change its last bits, is computed by every rank as before.
PROGRAM reduce
  INTEGER, PARAMETER :: N = 30
  REAL A(N), C(N), G(N, N), H(N, N)
  INTEGER K(N), M, L
  REAL E, F, X
  INTEGER I, J
!HPF$ DISTRIBUTE A(BLOCK)
!HPF$ DISTRIBUTE C(CYCLIC)
!HPF$ DISTRIBUTE G(BLOCK, BLOCK)
!HPF$ ALIGN H(I, J) WITH G(I, J)
!HPF$ DISTRIBUTE K(CYCLIC(2))
  DO I = 1, N
    A(I) = REAL(MOD(I * 7, 11)) - 5.0
    C(I) = REAL(MOD(I * 5, 13)) * 0.5
    K(I) = MOD(I * 3, 17) - 8
    DO J = 1, N
      G(I, J) = REAL(MOD(I + 3 * J, 19))
      H(I, J) = REAL(MOD(2 * I + J, 23)) * 0.25
    END DO
  END DO
  E = MAXVAL(A)
  F = MINVAL(A(2:N:3))
  PRINT *, E, F
  E = MAXVAL(ABS(H(2:N-1, 2:N-1) - G(2:N-1, 2:N-1)))
  F = MINVAL(G(:, 3) * 2.0 + H(:, 4))
  PRINT *, E, F
  E = MAXVAL(ABS(A(1:N-1) - C(2:N)))
  M = SUM(K)
  L = SUM(MOD(K(1:N:2), 5) * 3 + K(2:N:2))
  PRINT *, E, M, L
  M = 5
  E = MAXVAL(A(M+1:M))
  F = MINVAL(G(3, M:1))
  L = SUM(K(M:M-1))
  X = SUM(A)
  PRINT *, E, F, L, X
END PROGRAM reduce
