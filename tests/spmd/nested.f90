! A subroutine left whole passes its dummy argument on: OUTER says X is
! distributed, but the main program passes C, which is not, so every
! rank computes X in OUTER; INNER, which OUTER passes X to, is then left
! whole too (distributed alike to X, it would compute only its owners'
! part of what OUTER then sums on every rank).
PROGRAM nested
  INTEGER, PARAMETER :: N = 32
  REAL C(N)
  INTEGER I
  DO I = 1, N
    C(I) = REAL(I)
  END DO
  CALL OUTER(C)
  PRINT *, SUM(C)
END PROGRAM nested

SUBROUTINE OUTER(X)
  INTEGER, PARAMETER :: N = 32
  REAL X(N)
!HPF$ DISTRIBUTE X(BLOCK)
  CALL INNER(X)
  PRINT *, SUM(X)
END SUBROUTINE OUTER

SUBROUTINE INNER(Y)
  INTEGER, PARAMETER :: N = 32
  REAL Y(N)
  INTEGER I
!HPF$ DISTRIBUTE Y(BLOCK)
  DO I = 2, N
    Y(I) = Y(I) + Y(I-1)
  END DO
END SUBROUTINE INNER
