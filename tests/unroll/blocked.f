C     Nests that cannot be unrolled and jammed, and why.
      PROGRAM BLOCK
      INTEGER N, I, J
      PARAMETER (N = 10)
      REAL A(N,N), S
      DO 1 J = 1, N
        DO 1 I = 1, N
    1 A(I,J) = I + J
C     Flow dependence at distance (1,-1): direction (<,>).
      DO 10 I = 2, N
        DO 10 J = 1, N - 1
          A(I,J) = A(I-1,J+1) + 1.0
   10 CONTINUE
C     A sum over the whole nest: S crosses iterations of the I loop.
      S = 0.0
      DO 20 I = 1, N
        DO 20 J = 1, N
          S = S + A(I,J)
   20 CONTINUE
C     I/O in the body.
      DO 30 I = 1, N
        PRINT *, A(I,1)
   30 CONTINUE
      PRINT *, S, A(N,1)
      END
