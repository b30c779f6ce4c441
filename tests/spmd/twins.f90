! Two hosts with an internal procedure of the same name, each with a
! local array distributed its own way: one owner function per name could
! not serve both, so the arrays of both STEPs are left whole (a warning;
! every rank computes them, on whole copies the hosts broadcast before
! the calls).
PROGRAM twins
  INTEGER, PARAMETER :: N = 16
  REAL A(N)
  INTEGER I
!HPF$ DISTRIBUTE A(BLOCK)
  DO I = 1, N
    A(I) = REAL(I)
  END DO
  CALL FIRST(A)
  CALL LATER(A)
  PRINT *, SUM(A), A(1), A(N)
END PROGRAM twins

SUBROUTINE FIRST(X)
  REAL X(16)
!HPF$ DISTRIBUTE X(BLOCK)
  CALL STEP(X)
CONTAINS
  SUBROUTINE STEP(Y)
    REAL Y(16), W(16)
    INTEGER I
!HPF$ DISTRIBUTE Y(BLOCK)
!HPF$ DISTRIBUTE W(BLOCK)
    DO I = 1, 16
      W(I) = 2.0 * Y(I)
    END DO
    DO I = 2, 16
      Y(I) = W(I-1) + 1.0
    END DO
  END SUBROUTINE STEP
END SUBROUTINE FIRST

SUBROUTINE LATER(X)
  REAL X(16)
!HPF$ DISTRIBUTE X(BLOCK)
  CALL STEP(X)
CONTAINS
  SUBROUTINE STEP(Y)
    REAL Y(16), W(16)
    INTEGER I
!HPF$ DISTRIBUTE Y(BLOCK)
!HPF$ DISTRIBUTE W(CYCLIC)
    DO I = 1, 16
      W(I) = Y(17 - I)
    END DO
    DO I = 1, 16
      Y(I) = W(I) - 0.5 * Y(I)
    END DO
  END SUBROUTINE STEP
END SUBROUTINE LATER
