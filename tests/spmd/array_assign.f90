! Array assignments to distributed arrays under owner computes: each
! rank assigns the elements it owns (the statement written as DO loops
! over the section). Whole arrays, sections with offsets and strides,
! a row of a (BLOCK, BLOCK) array from a column, elemental intrinsics
! and scalars on the right; arrays distributed otherwise than the one
! assigned send what each owner needs. A(2:N) = A(1:N-1) reads what it
! assigns elsewhere: every rank runs it, as before.
PROGRAM arrays
  INTEGER, PARAMETER :: N = 40
  REAL A(N), B(N), C(N)
  REAL G(N, N), H(N, N)
  INTEGER K(N)
  REAL S
  INTEGER I, J
!HPF$ DISTRIBUTE A(BLOCK)
!HPF$ ALIGN B(I) WITH A(I)
!HPF$ DISTRIBUTE C(CYCLIC)
!HPF$ DISTRIBUTE G(BLOCK, BLOCK)
!HPF$ ALIGN H(I, J) WITH G(I, J)
!HPF$ DISTRIBUTE K(CYCLIC(3))
  S = 0.5
  DO I = 1, N
    A(I) = REAL(MOD(I * 7, 11))
  END DO
  B = 2.0 * A + 1.0
  C = A
  A(2:N-1:3) = B(3:N:3) - SQRT(C(1:N-2:3))
  B(1:N/2) = ABS(A(N/2+1:N) - 5.0) * S
  C(N:1:-2) = B(1:N/2) + C(N:1:-2)
  K = 7
  K(1:N:2) = MOD(K(1:N:2) * 3 + 1, 5)
  K(2:N:2) = K(1:N-1:2) + I
  A(2:N) = A(1:N-1)
  PRINT *, SUM(A), SUM(B), SUM(C), SUM(K)
  G = 1.0
  DO J = 1, N
    G(:, J) = REAL(J) + 0.5 * G(:, J)
  END DO
  H = 0.0
  H(2:N-1, 2:N-1) = G(1:N-2, 3:N) + G(2:N-1, 2:N-1)
  H(1, :) = G(:, 1) * S
  H(N, 2:N) = H(2:N, 1) + C(1:N-1)
  PRINT *, SUM(G), SUM(H), H(1, 5), H(N, 7), H(3, 3)
END PROGRAM arrays
