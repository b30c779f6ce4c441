! Distributed arrays passed to subroutines: SMOOTH says its dummy
! arguments are distributed as the actual ones are (descriptive
! *(BLOCK)), SHIFT repeats the caller's directives: both run under the
! owner-computes rule, each rank on its own block. TOTAL has no directive
! (every rank runs it on whole copies the caller broadcasts first), and
! TWICE is called once with a distributed array and once with an array
! that is not (so it too runs on whole copies).
PROGRAM subs
  INTEGER, PARAMETER :: N = 64
  REAL A(N), B(N), C(N)
  REAL S, T
  INTEGER I
!HPF$ DISTRIBUTE A(BLOCK)
!HPF$ ALIGN B(I) WITH A(I)
  DO I = 1, N
    A(I) = REAL(MOD(7 * I, 11))
    B(I) = 0.0
    C(I) = 1.0
  END DO
  CALL SMOOTH(A, B)
  CALL SHIFT(B, A)
  CALL TOTAL(A, S)
  CALL TWICE(B)
  CALL TWICE(C)
  T = B(N/2)
  PRINT *, S, T, SUM(A), SUM(B), SUM(C)
END PROGRAM subs

SUBROUTINE SMOOTH(X, Y)
  INTEGER, PARAMETER :: N = 64
  REAL X(N), Y(N)
  INTEGER I
!HPF$ DISTRIBUTE X *(BLOCK)
!HPF$ ALIGN Y(I) WITH X(I)
  DO I = 2, N - 1
    Y(I) = (X(I-1) + X(I) + X(I+1)) / 3.0
  END DO
  Y(1) = X(1)
  Y(N) = X(N)
END SUBROUTINE SMOOTH

SUBROUTINE SHIFT(U, V)
  INTEGER, PARAMETER :: N = 64
  REAL U(N), V(N)
  INTEGER I
!HPF$ DISTRIBUTE V(BLOCK)
!HPF$ ALIGN U(I) WITH V(I)
  DO I = 1, N - 1
    V(I) = U(I+1) - V(I)
  END DO
END SUBROUTINE SHIFT

SUBROUTINE TOTAL(V, S)
  INTEGER, PARAMETER :: N = 64
  REAL V(N), S
  S = SUM(V)
END SUBROUTINE TOTAL

SUBROUTINE TWICE(V)
  INTEGER, PARAMETER :: N = 64
  REAL V(N)
  INTEGER I
!HPF$ DISTRIBUTE V(BLOCK)
  DO I = 1, N
    V(I) = 2.0 * V(I)
  END DO
END SUBROUTINE TWICE
