C     Livermore-loops style kernels (after McMahon's LFK), fixed form.
C     Each kernel is a classic loop shape: hydro fragment, ICCG, inner
C     product, banded linear equations, tri-diagonal elimination,
C     recurrence, equation of state, first sum and difference.
      PROGRAM LFK
      IMPLICIT DOUBLE PRECISION (A-H, O-Z)
      INTEGER N, LOOP, K, L, I, J, IPNT, IPNTP, II, LW
      PARAMETER (N = 1001, LOOP = 10)
      DIMENSION X(N), Y(N), Z(N+11), U(N), V(N), W(N)
      DOUBLE PRECISION Q, R, T, S
      COMMON /SPACE1/ X, Y, Z, U, V, W
      COMMON /SPACE2/ Q, R, T
      DATA Q, R, T /0.5D0, 0.25D0, 0.125D0/
C
      DO 1 K = 1, N
         X(K) = 0.0D0
         Y(K) = DBLE(K) * 1.0D-3
         U(K) = 1.0D0 / DBLE(K)
         V(K) = DBLE(MOD(K, 7)) - 3.0D0
         W(K) = 0.0D0
    1 CONTINUE
      DO 2 K = 1, N + 11
    2 Z(K) = DBLE(K) * .5D0
C
C     Kernel 1 -- hydro fragment
      DO 1001 L = 1, LOOP
         DO 100 K = 1, N - 11
            X(K) = Q + Y(K)*(R*Z(K+10) + T*Z(K+11))
  100    CONTINUE
 1001 CONTINUE
C
C     Kernel 2 -- ICCG excerpt (incomplete Cholesky conjugate gradient)
      II = N
      IPNTP = 0
  222 IPNT = IPNTP
      IPNTP = IPNTP + II
      II = II / 2
      I = IPNTP + 1
CDIR$ IVDEP
      DO 200 K = IPNT + 2, IPNTP, 2
         I = I + 1
         X(I) = X(K) - V(K)*X(K-1) - V(K+1)*X(K+1)
  200 CONTINUE
      IF (II .GT. 1) GO TO 222
C
C     Kernel 3 -- inner product
      S = 0.0D0
      DO 300 K = 1, N
  300 S = S + Z(K)*X(K)
C
C     Kernel 4 -- banded linear equations
      DO 400 L = 7, 107, 50
         LW = L
         DO 410 J = 30, 870, 5
            X(L-1) = X(L-1) - X(LW)*Y(J)
            LW = LW + 1
  410    CONTINUE
         X(L-1) = Y(5)*X(L-1)
  400 CONTINUE
C
C     Kernel 5 -- tri-diagonal elimination, below diagonal
      DO 500 I = 2, N
         X(I) = Z(I)*(Y(I) - X(I-1))
  500 CONTINUE
C
C     Kernel 6 -- general linear recurrence equations
      DO 600 I = 2, 64
         W(I) = 0.01D0
         DO 600 K = 1, I - 1
            W(I) = W(I) + U(K)*W(I-K)
  600 CONTINUE
C
C     Kernel 7 -- equation of state fragment
      DO 700 K = 1, N - 6
         X(K) = U(K) + R*(Z(K) + R*Y(K)) +
     &          T*(U(K+3) + R*(U(K+2) + R*U(K+1)) +
     &          T*(U(K+6) + Q*(U(K+5) + Q*U(K+4))))
  700 CONTINUE
C
C     Kernel 11 -- first sum; kernel 12 -- first difference
      X(1) = Y(1)
      DO 1100 K = 2, N
 1100 X(K) = X(K-1) + Y(K)
      DO 1200 K = 1, N - 1
         X(K) = Y(K+1) - Y(K)
 1200 CONTINUE
C
      WRITE (6, 9000) S, X(1), X(N-1), W(64)
 9000 FORMAT (1X, 'CHECKSUMS ', 4E16.8)
      STOP
      END
