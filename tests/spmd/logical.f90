! LOGICAL arrays distributed like the others: a cellular automaton
! (rule 90) whose cells read both neighbours, so the edge cells of each
! block cross ranks; its copy back in DO loops and as an array
! statement; a CYCLIC mask built from it elementwise; one cell read by
! every rank; a 2-D field shifted by a row. The elements travel as 1.0
! and 0.0 in the runtime's double-precision buffers.
PROGRAM cells
  INTEGER, PARAMETER :: N = 48, STEPS = 12
  LOGICAL F(0:N+1), G(0:N+1), M(N)
  LOGICAL W(N, 8), V(N, 8)
  INTEGER I, J, T, K
!HPF$ DISTRIBUTE F(BLOCK)
!HPF$ ALIGN G(I) WITH F(I)
!HPF$ DISTRIBUTE M(CYCLIC)
!HPF$ DISTRIBUTE W(*, BLOCK)
!HPF$ ALIGN V(I, J) WITH W(I, J)
  F = .FALSE.
  F(N / 2) = .TRUE.
  F(7) = .TRUE.
  DO T = 1, STEPS
    DO I = 1, N
      G(I) = F(I - 1) .NEQV. F(I + 1)
    END DO
    IF (MOD(T, 2) == 0) THEN
      DO I = 1, N
        F(I) = G(I)
      END DO
    ELSE
      F(1:N) = G(1:N)
    END IF
    K = 0
    DO I = 1, N
      IF (F(I)) K = K + 1
    END DO
    PRINT *, T, K
  END DO
  DO I = 1, N
    M(I) = F(I) .AND. .NOT. F(N + 1 - I)
  END DO
  M(2:N) = M(1:N-1) .OR. F(2:N)
  IF (F(N / 2 + 1)) PRINT *, 'centre set'
  DO J = 1, 8
    DO I = 1, N
      W(I, J) = MOD(I * J, 3) == 0
    END DO
  END DO
  DO J = 2, 8
    DO I = 1, N
      V(I, J) = W(I, J - 1) .EQV. M(I)
    END DO
  END DO
  K = 0
  DO J = 2, 8
    DO I = 1, N
      IF (V(I, J)) K = K + J
    END DO
  END DO
  PRINT *, COUNT(M), K
END PROGRAM cells
