! Array statements element by element: which element each rank computes
! with which. B read backwards is not where A's elements are computed,
! though both sections cover the same processors; X's rows differ only
! along a dimension DISTRIBUTE leaves on one processor; Y, replicated
! along it, has a copy of X's element wherever it is computed; on the
! four processors of P, CYCLIC elements 4 apart are on one processor.
PROGRAM pairing
  INTEGER, PARAMETER :: N = 32
  REAL A(N), B(N), C(N), D(N)
  REAL X(4, N), Y(4, N)
  INTEGER I, J
!HPF$ PROCESSORS P(4)
!HPF$ TEMPLATE T(N)
!HPF$ ALIGN (I) WITH T(I) :: A, B
!HPF$ DISTRIBUTE T(BLOCK)
!HPF$ DISTRIBUTE X(*, BLOCK)
!HPF$ ALIGN Y(I, J) WITH X(I, J)
!HPF$ TEMPLATE U(N)
!HPF$ ALIGN (I) WITH U(I) :: C, D
!HPF$ DISTRIBUTE U(CYCLIC) ONTO P
  DO I = 1, N
    B(I) = REAL(MOD(I * 7, 13))
    D(I) = REAL(MOD(I * 3, 5))
    DO J = 1, 4
      X(J, I) = REAL(I + 10 * J)
    END DO
  END DO
  A(1:N) = B(N:1:-1) * 2.0
  Y(1, :) = X(2, :) + X(3, :)
  Y(2:4, :) = X(2:4, :) * 0.5
  C(1:N-4) = D(5:N) + 1.0
  C(N-3:N) = D(1:4)
  PRINT *, SUM(A), A(1), A(N), SUM(Y), Y(1, 7), SUM(C), C(N)
END PROGRAM pairing
