C     Shapes for the unroll-and-jam writer (tests/unroll_emit.rs), run
C     with N = 0, 1, 7 and 100: negative and symbolic steps, a triangular
C     nest, a three-deep nest, an IF in a body, a labelled shared
C     terminal, a statement continued past column 72.
      PROGRAM SHAPES
      INTEGER N, M, I, J, K
      REAL A(100,100), B(100), C(100,100), D(100), S
      READ (*,*) N
      M = 3
      DO 1 J = 1, 100
        B(J) = REAL(MOD(J, 7))
        D(J) = 0.0
        DO 1 I = 1, 100
          A(I,J) = REAL(MOD(I + 2*J, 11))
    1     C(I,J) = 0.0
C     Negative step outside, unit step inside.
      DO 10 J = N, 1, -1
        DO 10 I = 1, N
          A(I,J) = A(I,J) + B(I) * REAL(J) + A(I,J) * 0.5
   10 CONTINUE
C     A symbolic step and a trip count that is rarely a multiple.
      DO 20 I = 2, N, M
        DO 20 J = 1, N - 1
          C(I,J) = C(I,J) + A(I,J+1) - A(I,J) +
     &      B(J) * B(I) + A(I,J) * A(I,J+1) - B(J) * 2.0 + C(I,J) * 0.25
   20 CONTINUE
C     Triangular: the inner bounds move with I.
      DO 30 I = 1, N
        DO 30 J = I, N
          C(J,I) = C(J,I) + A(I,J)
   30 CONTINUE
C     Three deep, matrix-product shaped.
      DO 40 K = 1, N
        DO 40 I = 1, N
          DO 40 J = 1, N
            C(I,J) = C(I,J) + A(I,K) * A(K,J) * 0.001
   40 CONTINUE
C     An IF in the body: left as it is.
      DO 50 I = 1, N
        DO 50 J = 1, N
          IF (A(I,J) .GT. 5.0) A(I,J) = A(I,J) - 5.0
   50 CONTINUE
C     END DO, a reversed inner loop, a scalar temporary.
      DO I = 1, N
        DO J = N, 1, -2
          S = A(J,I) * 2.0
          D(J) = D(J) + S
        END DO
      END DO
      S = 0.0
      DO 60 J = 1, 100
        S = S + D(J) + B(J)
        DO 60 I = 1, 100
          S = S + A(I,J) * REAL(I) + C(I,J)
   60 CONTINUE
      PRINT *, S, I, J, K
      END
