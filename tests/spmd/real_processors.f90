! The real-processor check (Li & Harada 6.2, equation 12): on the four
! processors of P, virtual processors I+4 and I of a CYCLIC dimension lie
! on one real processor for every I, and so do 1 and 25 of a BLOCK one
! (blocks of 25); I+1 and I, or 25 and 26 of the BLOCK one, do not. The
! report calls the first ones local; the SPMD program, which runs on any
! number of ranks, keeps their transfers (nothing is sent between two
! virtual processors of one rank).
PROGRAM realp
  INTEGER, PARAMETER :: N = 100
  REAL A(N), B(N), C(N), D(N)
  INTEGER I
!HPF$ PROCESSORS P(4)
!HPF$ TEMPLATE T(N)
!HPF$ TEMPLATE U(N)
!HPF$ ALIGN (I) WITH T(I) :: A, B
!HPF$ ALIGN (I) WITH U(I) :: C, D
!HPF$ DISTRIBUTE T(CYCLIC) ONTO P
!HPF$ DISTRIBUTE U(BLOCK) ONTO P
  DO I = 1, N
    A(I) = 1.0
    B(I) = REAL(MOD(I * 7, 13))
    C(I) = 2.0
    D(I) = REAL(MOD(I * 5, 11))
  END DO
  DO I = 1, N - 4
    A(I) = B(I + 4) * 2.0
  END DO
  DO I = 1, N - 1
    A(I) = A(I) + B(I + 1)
  END DO
  C(1) = D(25)
  C(25) = D(26)
  DO I = 2, N - 1
    C(I) = D(I + 1) - D(I - 1)
  END DO
  PRINT *, SUM(A), SUM(C), C(1), C(25)
END PROGRAM realp
